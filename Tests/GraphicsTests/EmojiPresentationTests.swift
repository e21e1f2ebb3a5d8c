import Testing
@testable import Graphics

@Suite struct EmojiPresentationTests {
    @Test func aFlagKeepsItsTwoLettersTogether() {
        #expect(TextEngine.preferringTextEmoji("🇩🇪") == "🇩🇪")
        #expect(TextEngine.preferringTextEmoji("flag 🇩🇪!") == "flag 🇩🇪!")
    }

    @Test func aLoneEmojiStillAsksForItsTextForm() {
        #expect(TextEngine.preferringTextEmoji("☕") == "☕\u{FE0E}")
    }
}
