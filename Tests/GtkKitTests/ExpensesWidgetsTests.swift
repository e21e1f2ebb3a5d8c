import CGtk
import Foundation
import GObjectCore
import Testing
import TestSupport
@testable import GtkKit

@Suite(.serialized, needsDisplay) @MainActor
struct SearchFieldTests {
    @Test func reportsASearchOnceTypingPauses() {
        let field = SearchField(placeholder: "Search trips")
        #expect(field.accessibleLabel == "Search trips")
        var searches: [String] = []
        field.onSearchChanged { searches.append(field.text) }
        field.text = "zur"
        let searched = MainLoop.run(until: { !searches.isEmpty }, timeout: 5)
        #expect(searched)
        #expect(searches.last == "zur")
        field.text = ""
        let cleared = MainLoop.run(until: { searches.last == "" }, timeout: 5)
        #expect(cleared)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct PixelPictureTests {
    @Test func showsRGBAndRGBAPixelsWithPaddedRows() {
        let picture = PixelPicture()
        #expect(picture.pixelSize == nil)
        // Scaled to fit inside its allocation, never stretched.
        #expect(gtk_picture_get_content_fit(picture.pointer()) == GTK_CONTENT_FIT_CONTAIN)
        // 3×2 RGB with rows padded to 12 bytes.
        picture.setPixels(width: 3, height: 2, rowStride: 12, hasAlpha: false, pixels: Data(repeating: 0x80, count: 21))
        #expect(picture.pixelSize?.width == 3 && picture.pixelSize?.height == 2)
        picture.setPixels(width: 2, height: 2, rowStride: 8, hasAlpha: true, pixels: Data(repeating: 0xFF, count: 16))
        #expect(picture.pixelSize?.width == 2)
    }

    @Test func refusesBytesThatDoNotFitTheSize() {
        let picture = PixelPicture()
        picture.setPixels(width: 2, height: 2, rowStride: 6, hasAlpha: false, pixels: Data(repeating: 0, count: 12))
        #expect(picture.pixelSize != nil)
        // Too few bytes for the last row: cleared rather than read past the end.
        picture.setPixels(width: 4, height: 4, rowStride: 12, hasAlpha: false, pixels: Data(repeating: 0, count: 40))
        #expect(picture.pixelSize == nil)
        picture.setPixels(width: 4, height: 1, rowStride: 8, hasAlpha: false, pixels: Data(repeating: 0, count: 12))
        #expect(picture.pixelSize == nil)
        picture.setPixels(width: 0, height: 0, rowStride: 0, hasAlpha: false, pixels: nil)
        #expect(picture.pixelSize == nil)
    }
}
