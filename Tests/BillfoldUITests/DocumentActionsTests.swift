import Documents
import Foundation
import GObjectCore
import Graphics
import GtkKit
import Testing
import TestSupport
@testable import BillfoldUI

@Suite struct DocumentFileTests {
    @Test func writesTheBytesAndLeavesNothingElse() throws {
        let directory = try Fixtures.temporaryDirectory("save")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("INV-2026-0001.pdf")
        let bytes = try Fixtures.pdf(pages: 2)
        try DocumentFile.write(bytes, to: url)
        #expect(try Data(contentsOf: url) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["INV-2026-0001.pdf"])
        let mode = try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
        #expect(mode == Int(0o666 & ~DocumentFile.currentUmask()))
    }

    @Test func replacesAnExistingFileKeepingItsPermissions() throws {
        let directory = try Fixtures.temporaryDirectory("replace")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("report.pdf")
        try Data("old".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try DocumentFile.write(Data("new contents".utf8), to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "new contents")
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.pdf"])
    }

    @Test func aMissingFolderIsReportedAndNothingIsWritten() throws {
        let directory = try Fixtures.temporaryDirectory("missing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("gone/invoice.pdf")
        #expect(throws: DocumentActionError.folderMissing(folder: directory.appendingPathComponent("gone").path)) {
            try DocumentFile.write(Data("x".utf8), to: url)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func aFailedRenameRemovesTheTemporaryFile() throws {
        let directory = try Fixtures.temporaryDirectory("rename")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A folder where the file should go: the rename fails after the bytes were written.
        let target = directory.appendingPathComponent("taken.pdf")
        try FileManager.default.createDirectory(at: target.appendingPathComponent("inside"), withIntermediateDirectories: true)
        #expect(throws: DocumentActionError.self) { try DocumentFile.write(Data("x".utf8), to: target) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["taken.pdf"])
    }

    @Test func errorsSayWhatToDo() {
        let full = DocumentActionError.writing("/media/usb/INV-2026-0001.pdf", errno: ENOSPC)
        #expect(full == .noSpace(fileName: "INV-2026-0001.pdf"))
        #expect(full.localizedDescription.contains("INV-2026-0001.pdf"))
        #expect(full.localizedDescription.contains("space"))
        #expect(DocumentActionError.writing("/srv/x.pdf", errno: EACCES) == .permissionDenied(folder: "/srv"))
        #expect(DocumentActionError.writing("/srv/x.pdf", errno: EROFS) == .permissionDenied(folder: "/srv"))
        #expect(DocumentActionError.writing("/srv/x.pdf", errno: EIO).localizedDescription.contains("x.pdf"))
        #expect(DocumentActionError.noEmailApp.localizedDescription.contains("email"))
    }

    @Test func fileNamesAreSafe() {
        #expect(DocumentFile.pdfFileName("INV-2026-0001") == "INV-2026-0001.pdf")
        #expect(DocumentFile.pdfFileName("INV-2026-0001.PDF") == "INV-2026-0001.PDF")
        #expect(DocumentFile.pdfFileName("Trip 3/2026") == "Trip 3-2026.pdf")
        #expect(DocumentFile.pdfFileName("../../etc/passwd") == "-..-etc-passwd.pdf")
        #expect(DocumentFile.pdfFileName("  ") == "document.pdf")
        #expect(DocumentFile.pdfFileName(".hidden") == "hidden.pdf")
    }
}

@Suite struct PrintPlacementTests {
    @Test func aPageKeepsItsSizeWhenItFits() {
        let placement = PrintPlacement(page: Size(width: 500, height: 700), printable: Size(width: 595, height: 842))
        #expect(placement.scale == 1)
        #expect(placement.origin == Point(x: 47.5, y: 71))
    }

    @Test func aPageLargerThanThePrintableAreaShrinksAndCentres() {
        let placement = PrintPlacement(page: Size(width: 595, height: 842), printable: Size(width: 559, height: 806))
        // The width limits it: the page fills the printable width and is centred vertically.
        #expect(abs(placement.scale - 559.0 / 595.0) < 1e-9)
        #expect(placement.origin.x == 0)
        #expect(abs(placement.origin.y - (806 - 842 * placement.scale) / 2) < 1e-9)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct DocumentActionsTests {
    private func makeActions(_ errors: ErrorLog, cache: URL) -> DocumentActions {
        DocumentActions(parent: nil, cacheDirectory: cache) { errors.append($0) }
    }

    @Test func saveWritesTheFileAndReportsIt() async throws {
        let directory = try Fixtures.temporaryDirectory("actions-save")
        defer { try? FileManager.default.removeItem(at: directory) }
        let errors = ErrorLog()
        let actions = makeActions(errors, cache: directory.appendingPathComponent("cache"))
        let bytes = try Fixtures.pdf(pages: 1)
        var saved: URL?
        let url = directory.appendingPathComponent("INV-2026-0001.pdf")
        #expect(await actions.save(bytes, to: url) { saved = $0 })
        #expect(saved == url)
        #expect(try Data(contentsOf: url) == bytes)

        #expect(!(await actions.save(bytes, to: directory.appendingPathComponent("no/such/folder.pdf"))))
        #expect(errors.entries.count == 1)
        if case .folderMissing = errors.entries.first {} else { Issue.record("unexpected \(errors.entries)") }
    }

    @Test func printingDrawsEveryPageOfThePDF() throws {
        let directory = try Fixtures.temporaryDirectory("print")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = try Fixtures.pdf(pages: 4)
        let operation = try DocumentPrinting.operation(pdf: bytes, jobName: "INV-2026-0001")
        #expect(operation.pageCount == 4)
        let output = directory.appendingPathComponent("printed.pdf")
        #expect(operation.export(toPDFAt: output.path) == .printed)
        let printed = try PDFDocument(data: Data(contentsOf: output))
        #expect(printed.pageCount == 4)
        #expect(try printed.page(at: 2).text().contains("Page 3"))
        // A4 in, A4 paper out.
        let size = try printed.page(at: 0).size
        #expect(abs(size.width - 595.28) < 1 && abs(size.height - 841.89) < 1)
    }

    @Test func printingALaidOutDocumentDrawsTheSamePages() throws {
        let directory = try Fixtures.temporaryDirectory("print-document")
        defer { try? FileManager.default.removeItem(at: directory) }
        var document = Document(pageSetup: PageSetup(paper: .letter))
        document.blocks = [.heading(Heading("First")), .pageBreak, .heading(Heading("Second")), .pageBreak, .heading(Heading("Third"))]
        let printable = try PrintableDocument(document)
        var errors: [DocumentError] = []
        let operation = DocumentPrinting.operation(document: printable, jobName: "Report") { errors.append($0) }
        #expect(operation.pageCount == 3)
        let output = directory.appendingPathComponent("printed.pdf")
        #expect(operation.export(toPDFAt: output.path) == .printed)
        let printed = try PDFDocument(data: Data(contentsOf: output))
        #expect(printed.pageCount == 3)
        #expect(try printed.page(at: 1).text().contains("Second"))
        #expect(abs(try printed.page(at: 0).size.width - 612) < 1)
        #expect(errors.isEmpty)
    }

    @Test func printingADamagedPDFIsAnErrorNotACrash() {
        #expect(throws: DocumentActionError.self) {
            _ = try DocumentPrinting.operation(pdf: Data("not a pdf".utf8), jobName: "x")
        }
        let errors = ErrorLog()
        let actions = makeActions(errors, cache: FileManager.default.temporaryDirectory)
        actions.print(pdf: Data("not a pdf".utf8), jobName: "x")
        #expect(errors.entries.count == 1)
    }

    @Test func emailHandsThePDFToTheMailCommand() async throws {
        let directory = try Fixtures.temporaryDirectory("email")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("arguments.txt")
        let script = directory.appendingPathComponent("fake-xdg-email")
        try "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '\(log.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)

        let errors = ErrorLog()
        let cache = directory.appendingPathComponent("cache")
        let actions = makeActions(errors, cache: cache)
        actions.usesEmailPortal = false
        actions.emailCommand = script.path
        let bytes = try Fixtures.pdf(pages: 1)
        var reached: Bool?
        actions.email(pdf: bytes, fileName: "INV-2026-0001", subject: "Invoice INV-2026-0001", recipient: "ada@example.com") {
            reached = $0
        }
        #expect(await MainLoop.wait(until: { reached != nil }, timeout: 10))
        #expect(reached == true)
        #expect(errors.entries.isEmpty)
        let arguments = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
        let attachment = cache.appendingPathComponent("INV-2026-0001.pdf").path
        #expect(arguments == ["--utf8", "--subject", "Invoice INV-2026-0001", "--attach", attachment, "ada@example.com"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: attachment)) == bytes)
    }

    @Test func withoutAMailAppTheErrorSaysSo() async throws {
        let directory = try Fixtures.temporaryDirectory("no-email")
        defer { try? FileManager.default.removeItem(at: directory) }
        let errors = ErrorLog()
        let actions = makeActions(errors, cache: directory)
        actions.usesEmailPortal = false
        actions.emailCommand = "billfold-no-such-mail-command"
        var reached: Bool?
        actions.email(pdf: try Fixtures.pdf(pages: 1), fileName: "a", subject: "s") { reached = $0 }
        #expect(await MainLoop.wait(until: { reached != nil }, timeout: 10))
        #expect(reached == false)
        #expect(errors.entries == [.noEmailApp])
    }

    @Test func theCacheForgetsOldFiles() async throws {
        let directory = try Fixtures.temporaryDirectory("cache")
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = directory.appendingPathComponent("old.pdf")
        let recent = directory.appendingPathComponent("recent.pdf")
        try Data("old".utf8).write(to: old)
        try Data("recent".utf8).write(to: recent)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3 * 24 * 3600)], ofItemAtPath: old.path)
        let actions = makeActions(ErrorLog(), cache: directory)
        let stored = await actions.storeInCache(Data("%PDF".utf8), fileName: "INV 7")
        #expect(stored?.lastPathComponent == "INV 7.pdf")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)) == ["recent.pdf", "INV 7.pdf"])
    }
}

/// Errors an action reported.
@MainActor
final class ErrorLog {
    private(set) var entries: [DocumentActionError] = []
    func append(_ error: DocumentActionError) { entries.append(error) }
}
