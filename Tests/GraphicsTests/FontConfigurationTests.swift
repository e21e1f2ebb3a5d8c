import CCairo
import Testing
@testable import Graphics

/// The configuration a command loads before it makes a PDF must choose the fonts that
/// fontconfig's own start chooses, for the best match and for every fallback after it.
@Suite struct FontConfigurationTests {
    @Test func choosesTheFontsFontconfigsOwnStartChooses() throws {
        let ownStart = try #require(FcInitLoadConfigAndFonts())
        defer { FcConfigDestroy(ownStart) }
        let loaded = try #require(FontConfiguration.makeSystemConfiguration())
        defer { FcConfigDestroy(loaded) }
        let patterns = [
            "Noto Sans,DejaVu Sans,Sans", "Noto Sans,DejaVu Sans,Sans:weight=200", "Sans:slant=100",
            "serif", "monospace", "emoji", "Sans:lang=ja", "Sans:lang=ar",
        ]
        for pattern in patterns {
            let expected = Self.choices(ownStart, for: pattern)
            let chosen = Self.choices(loaded, for: pattern)
            #expect(expected.count > 1, "\(pattern)")
            // The first difference, not two lists of a hundred and more fonts.
            let difference = (0..<max(expected.count, chosen.count)).first {
                $0 >= expected.count || $0 >= chosen.count || expected[$0] != chosen[$0]
            }
            #expect(difference == nil, "\(pattern): choice \(difference ?? 0) is \(Self.entry(chosen, difference)), not \(Self.entry(expected, difference))")
        }
    }

    private static func entry(_ files: [String], _ index: Int?) -> String {
        guard let index, index < files.count else { return "missing" }
        return files[index]
    }

    /// The best match's file, then the files of the fallback list Pango sorts for a pattern.
    private static func choices(_ configuration: OpaquePointer, for name: String) -> [String] {
        guard let pattern = FcNameParse(name) else { return [] }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(configuration, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        var files: [String] = []
        if let match = FcFontMatch(configuration, pattern, &result) {
            files.append(file(of: match))
            FcPatternDestroy(match)
        }
        if let sorted = FcFontSort(configuration, pattern, FcTrue, nil, &result) {
            for index in 0..<Int(sorted.pointee.nfont) {
                if let font = sorted.pointee.fonts[index] { files.append(file(of: font)) }
            }
            FcFontSetDestroy(sorted)
        }
        return files
    }

    private static func file(of pattern: OpaquePointer) -> String {
        var path: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, "file", 0, &path) == FcResultMatch, let path else { return "" }
        var index: Int32 = 0
        _ = FcPatternGetInteger(pattern, "index", 0, &index)
        return String(cString: path) + "#\(index)"
    }
}
