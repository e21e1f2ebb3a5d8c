import BillfoldCore
import Documents
import Foundation
import GObjectCore
import GtkKit

/// Save As…, Print…, Open With and Email for a generated PDF, as the Invoices and Expenses
/// plugins offer them. Failures go to `onError` (the plugin shows a toast). Whether the free
/// tier allows an action is the caller's question, asked before calling.
@MainActor
public final class DocumentActions {
    /// The window dialogs belong to.
    public var parent: Window?
    /// Where Open With and Email put the PDF for the other app to read.
    public let cacheDirectory: URL
    private let onError: @MainActor (DocumentActionError) -> Void

    /// Try the desktop's Email portal before `xdg-email`.
    var usesEmailPortal = true
    /// The command that opens the mail app when there is no portal; a name looked up on PATH.
    var emailCommand = "xdg-email"

    /// The last folder a PDF was saved in, offered next time.
    private static var lastSaveFolder: String?

    public init(parent: Window?, cacheDirectory: URL = AppPaths.cacheDirectory.appendingPathComponent("documents"),
                onError: @escaping @MainActor (DocumentActionError) -> Void) {
        self.parent = parent
        self.cacheDirectory = cacheDirectory
        self.onError = onError
    }

    // MARK: Save As

    /// Asks where to save `pdf`, proposing `suggestedName` (e.g. `INV-2026-0001.pdf`), then writes
    /// it atomically off the main actor. `onSaved` gets the file once it is on disk.
    public func saveAs(pdf: Data, suggestedName: String, onSaved: (@MainActor (URL) -> Void)? = nil) {
        saveAs(pdf, kind: .pdf, suggestedName: suggestedName, onSaved: onSaved)
    }

    /// The same for a file of another `kind`, such as an e-invoice's XML.
    public func saveAs(_ data: Data, kind: SavedFileKind, suggestedName: String, onSaved: (@MainActor (URL) -> Void)? = nil) {
        let chooser = FileChooser(saveTitle: kind.title, parent: parent, acceptLabel: tr("_Save"),
                                  suggestedName: DocumentFile.fileName(suggestedName, extension: kind.fileExtension),
                                  folder: Self.lastSaveFolder ?? Self.documentsFolder,
                                  filters: [FileFilter(name: kind.filterName, suffixes: [kind.fileExtension])])
        chooser.open { [self] path in
            guard let path else { return }
            Task { await self.save(data, to: URL(fileURLWithPath: path), onSaved: onSaved) }
        }
    }

    /// Writes `data` to `url` atomically off the main actor; reports a failure to `onError`.
    @discardableResult
    public func save(_ data: Data, to url: URL, onSaved: (@MainActor (URL) -> Void)? = nil) async -> Bool {
        let result = await Task.detached(priority: .userInitiated) {
            Result { () throws(DocumentActionError) in try DocumentFile.write(data, to: url) }
        }.value
        switch result {
        case .success:
            Self.lastSaveFolder = url.deletingLastPathComponent().path
            onSaved?(url)
            return true
        case .failure(let error):
            onError(error)
            return false
        }
    }

    private static var documentsFolder: String? {
        UserDirectories.documents
    }

    // MARK: Print

    /// Shows the print dialog and prints the pages of `pdf`, as the preview shows them.
    public func print(pdf: Data, jobName: String) {
        do {
            let operation = try DocumentPrinting.operation(pdf: pdf, jobName: jobName)
            run(operation)
        } catch {
            onError(error)
        }
    }

    /// Shows the print dialog and prints `document`, laid out off the main actor first.
    public func print(document: Document, jobName: String) {
        Task {
            let layout = await Task.detached(priority: .userInitiated) {
                Result { () throws(DocumentError) in try document.paginate() }
            }.value
            do {
                let printable = try PrintableDocument(document, pagination: layout.get())
                var reported = false
                let operation = DocumentPrinting.operation(document: printable, jobName: jobName) { [weak self] error in
                    guard !reported else { return }
                    reported = true
                    self?.onError(.printFailed(reason: error.localizedDescription))
                }
                run(operation)
            } catch {
                onError(.printFailed(reason: error.localizedDescription))
            }
        }
    }

    private func run(_ operation: PrintOperation) {
        operation.runDialog(parent: parent) { [weak self] result in
            if case .failed(let error) = result {
                self?.onError(.printFailed(reason: error.message))
            }
        }
    }

    // MARK: Open With

    /// Opens `pdf` in the desktop's default app for PDFs (written to the cache folder first).
    public func openWithDefaultApp(pdf: Data, fileName: String) {
        Task {
            guard let file = await storeInCache(pdf, fileName: fileName) else { return }
            Launcher.open(fileAt: file.path, parent: parent) { [weak self] error in
                if let error { self?.onError(.openFailed(reason: error.message)) }
            }
        }
    }

    // MARK: Email

    /// Opens a new message in the mail app with `pdf` attached: through the desktop's Email
    /// portal (which works inside Flatpak), else `xdg-email`. `completion` gets whether the
    /// mail app was reached.
    public func email(pdf: Data, fileName: String, subject: String, recipient: String? = nil, body: String = "",
                      completion: (@MainActor (Bool) -> Void)? = nil) {
        Task {
            guard let file = await storeInCache(pdf, fileName: fileName) else {
                completion?(false)
                return
            }
            let draft = EmailDraft(recipients: recipient.map { [$0] }?.filter { !$0.isEmpty } ?? [],
                                   subject: subject, body: body, attachments: [file.path])
            guard usesEmailPortal else {
                completion?(await emailWithCommand(draft))
                return
            }
            EmailPortal.compose(draft) { [self] result in
                switch result {
                case .composed:
                    completion?(true)
                case .cancelled:
                    completion?(false)
                case .failed, .unavailable:
                    Task { completion?(await self.emailWithCommand(draft)) }
                }
            }
        }
    }

    /// Runs `xdg-email` (or `emailCommand`) off the main actor; reports why it failed.
    func emailWithCommand(_ draft: EmailDraft) async -> Bool {
        guard let executable = Self.findExecutable(emailCommand) else {
            onError(.noEmailApp)
            return false
        }
        var arguments = ["--utf8", "--subject", draft.subject]
        if !draft.body.isEmpty { arguments += ["--body", draft.body] }
        for attachment in draft.attachments { arguments += ["--attach", attachment] }
        arguments += draft.recipients
        let status = await Task.detached { () -> Result<Int32, DocumentActionError> in
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                return .failure(.emailFailed(reason: error.localizedDescription))
            }
            process.waitUntilExit()
            return .success(process.terminationStatus)
        }.value
        switch status {
        case .success(0):
            return true
        case .success(3):
            // xdg-email: "a required tool could not be found", i.e. no mail app.
            onError(.noEmailApp)
        case .success(let code):
            onError(.emailFailed(reason: String(format: tr("the email command stopped with status %d"), Int(code))))
        case .failure(let error):
            onError(error)
        }
        return false
    }

    /// A command name found on PATH, or a path that exists.
    static func findExecutable(_ command: String) -> URL? {
        if command.contains("/") {
            return FileManager.default.isExecutableFile(atPath: command) ? URL(fileURLWithPath: command) : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(command)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }

    // MARK: Cache

    /// Writes `pdf` under the cache folder for another app to read, after clearing out files
    /// left there more than a day ago.
    func storeInCache(_ pdf: Data, fileName: String) async -> URL? {
        let directory = cacheDirectory
        let name = DocumentFile.pdfFileName(fileName)
        let result = await Task.detached(priority: .userInitiated) { () -> Result<URL, DocumentActionError> in
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                return .failure(.writing(directory.appendingPathComponent(name).path, errno: Self.errnoOf(error)))
            }
            Self.removeStaleFiles(in: directory)
            let url = directory.appendingPathComponent(name)
            return Result { () throws(DocumentActionError) in try DocumentFile.write(pdf, to: url) }.map { url }
        }.value
        switch result {
        case .success(let url):
            return url
        case .failure(let error):
            onError(error)
            return nil
        }
    }

    nonisolated private static func errnoOf(_ error: any Error) -> Int32 {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        return nsError.domain == NSPOSIXErrorDomain ? Int32(nsError.code) : EIO
    }

    nonisolated static func removeStaleFiles(in directory: URL, olderThan age: TimeInterval = 24 * 60 * 60) {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        let cutoff = Date().addingTimeInterval(-age)
        for file in files {
            let modified = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
            if let modified, modified < cutoff { try? FileManager.default.removeItem(at: file) }
        }
    }
}
