import CGtk
import Foundation
import GObjectCore

/// One page GTK asks a print operation to draw.
@MainActor
public struct PrintPage {
    /// Zero-based.
    public let index: Int
    /// In points, origin at the printable area's top-left corner (or the paper's, with
    /// `usesFullPage`).
    public let context: CairoContext
    /// The printable area (or the whole paper) in points.
    public let width: Double
    public let height: Double
}

/// How a print operation ended.
public enum PrintResult: Sendable, Equatable {
    /// Sent to the printer or written to the file.
    case printed
    case cancelled
    case failed(GLibError)
}

/// A `GtkPrintOperation`: the print dialog, then a `draw-page` per page onto a Cairo context
/// in points. The operation keeps itself alive while it runs.
@MainActor
public final class PrintOperation: Object {
    private var keepAlive: PrintOperation?
    private var completion: (@MainActor (PrintResult) -> Void)?

    public init(jobName: String) {
        super.init(adopting: untyped(gtk_print_operation_new()))
        gtk_print_operation_set_job_name(operationPointer, jobName)
        gtk_print_operation_set_unit(operationPointer, GTK_UNIT_POINTS)
        gtk_print_operation_set_embed_page_setup(operationPointer, 1)
        connectWithInteger("done") { [weak self] result in
            self?.finish(Self.result(GtkPrintOperationResult(UInt32(result)), operation: self))
        }
    }

    private var operationPointer: UnsafeMutablePointer<GtkPrintOperation> { pointer() }

    /// How many pages to print; set it before running or from `onBeginPrint`.
    public var pageCount: Int {
        get { intProperty("n-pages") }
        set { gtk_print_operation_set_n_pages(operationPointer, gint(clamping: newValue)) }
    }

    /// Draw from the paper's corner instead of the printable area's.
    public var usesFullPage: Bool {
        get { boolProperty("use-full-page") }
        set { gtk_print_operation_set_use_full_page(operationPointer, newValue ? 1 : 0) }
    }

    /// Proposes paper of this size (points): a standard size when one matches within a point,
    /// landscape when it is wider than tall, a custom size otherwise.
    public func setPaperSize(width: Double, height: Double) {
        let setup = gtk_page_setup_new()
        defer { g_object_unref(UnsafeMutableRawPointer(setup)) }
        let portrait = (short: min(width, height), long: max(width, height))
        var chosen: OpaquePointer?
        if let sizes = gtk_paper_size_get_paper_sizes(0) {
            var node: UnsafeMutablePointer<GList>? = sizes
            while let current = node, chosen == nil {
                let size = OpaquePointer(current.pointee.data)
                let w = gtk_paper_size_get_width(size, GTK_UNIT_POINTS)
                let h = gtk_paper_size_get_height(size, GTK_UNIT_POINTS)
                if abs(min(w, h) - portrait.short) < 1, abs(max(w, h) - portrait.long) < 1 {
                    chosen = gtk_paper_size_copy(size)
                }
                node = current.pointee.next
            }
            g_list_free_full(sizes) { gtk_paper_size_free(OpaquePointer($0)) }
        }
        let paper = chosen ?? gtk_paper_size_new_custom("billfold-document", "Document", portrait.short, portrait.long, GTK_UNIT_POINTS)
        gtk_page_setup_set_paper_size(setup, paper)
        gtk_paper_size_free(paper)
        gtk_page_setup_set_orientation(setup, width > height ? GTK_PAGE_ORIENTATION_LANDSCAPE : GTK_PAGE_ORIENTATION_PORTRAIT)
        gtk_print_operation_set_default_page_setup(operationPointer, setup)
    }

    /// Called once printing starts, before the first page; the place to set `pageCount` late.
    public func onBeginPrint(_ handler: @escaping @MainActor () -> Void) {
        connectWithPointer("begin-print") { _ in handler() }
    }

    /// Called for each page to print, in any order.
    public func onDrawPage(_ handler: @escaping @MainActor (PrintPage) -> Void) {
        connectSignal("draw-page", arguments: [.pointer, .integer]) { arguments in
            let context = OpaquePointer(arguments.pointer(1))
            guard let cairo = gtk_print_context_get_cairo_context(context) else { return 0 }
            handler(PrintPage(index: arguments.integer(2), context: CairoContext(pointer: cairo),
                              width: gtk_print_context_get_width(context), height: gtk_print_context_get_height(context)))
            return 0
        }
    }

    /// Shows the print dialog over `parent`, then prints without blocking the window;
    /// `completion` says how it ended.
    public func runDialog(parent: Window?, completion: @escaping @MainActor (PrintResult) -> Void) {
        self.completion = completion
        keepAlive = self
        gtk_print_operation_set_allow_async(operationPointer, 1)
        var error: UnsafeMutablePointer<GError>?
        let result = gtk_print_operation_run(operationPointer, GTK_PRINT_OPERATION_ACTION_PRINT_DIALOG,
                                             parent?.windowPointer, &error)
        if let error {
            finish(.failed(GLibError(consuming: error)))
        } else if result != GTK_PRINT_OPERATION_RESULT_IN_PROGRESS {
            finish(Self.result(result, operation: self))
        }
    }

    /// Prints to a PDF file at `path` without a dialog, drawing the pages as printing would.
    /// For checking what a print draws.
    public func export(toPDFAt path: String) -> PrintResult {
        // GTK reports an unwritable target with a critical warning and no error; say why here.
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard access(folder, W_OK) == 0 else {
            let reason = String(cString: strerror(errno))
            return .failed(GLibError(domain: "g-file-error-quark", code: Int(errno), message: "Cannot write \(path): \(reason)"))
        }
        gtk_print_operation_set_export_filename(operationPointer, path)
        var error: UnsafeMutablePointer<GError>?
        let result = gtk_print_operation_run(operationPointer, GTK_PRINT_OPERATION_ACTION_EXPORT, nil, &error)
        if let error { return .failed(GLibError(consuming: error)) }
        return Self.result(result, operation: self)
    }

    /// Whether the operation runs (its dialog is shown, or pages are being sent).
    public var isRunning: Bool { keepAlive != nil }

    private func finish(_ result: PrintResult) {
        guard let completion else { return }
        self.completion = nil
        completion(result)
        keepAlive = nil
    }

    private static func result(_ result: GtkPrintOperationResult, operation: PrintOperation?) -> PrintResult {
        switch result {
        case GTK_PRINT_OPERATION_RESULT_APPLY, GTK_PRINT_OPERATION_RESULT_IN_PROGRESS:
            return .printed
        case GTK_PRINT_OPERATION_RESULT_CANCEL:
            return .cancelled
        default:
            var error: UnsafeMutablePointer<GError>?
            if let operation { gtk_print_operation_get_error(operation.operationPointer, &error) }
            // get_error hands out the operation's own error: copy it, never free the original.
            if let error, let copy = g_error_copy(error) { return .failed(GLibError(consuming: copy)) }
            return .failed(GLibError(domain: "gtk-print-error-quark", code: 0, message: "Printing failed."))
        }
    }
}
