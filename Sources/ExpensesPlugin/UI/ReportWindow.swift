import BillfoldCore
import BillfoldUI
import ExpensesCore
import Foundation
import GObjectCore
import GtkKit

/// The reimbursement report of one trip, previewed in a window of its own with Save PDF, Print
/// and Email (free for every tier). The PDF is laid out and rendered on a background task, so
/// the window stays responsive while photos are scaled.
@MainActor
public final class ReportWindow: AdwaitaWindow {
    public let preview = DocumentPreview(emptyTitle: tr("No Report"))
    let saveButton = Button(label: tr("Save PDF…"))
    let printButton = Button(label: tr("Print…"))
    let emailButton = Button(label: tr("Email…"))
    private let toasts = ToastOverlay()
    private let trip: Trip
    var tripID: TripID { trip.id }
    /// The background work of the last generation, for tests.
    private(set) var generation: Task<Void, Never>?
    /// The saved file's location, once saved.
    public private(set) var savedFile: URL?

    init(trip: Trip, repository: ExpenseRepository, traveller: String, parent: Window?) {
        self.trip = trip
        super.init()
        self.transientParent = parent
        self.title = String(format: tr("Report: %@"), trip.name)
        setDefaultSize(width: 760, height: 880)
        let header = HeaderBar(title: WindowTitle(tr("Report"), subtitle: trip.name))
        // As the invoice pane has them: Save PDF… suggested, Print… and Email… in the menu beside it.
        saveButton.addCssClass("suggested-action")
        saveButton.tooltip = tr("Save the report as a PDF file (Ctrl+S)")
        printButton.tooltip = tr("Print the report (Ctrl+P)")
        header.packEnd(ActionMenu(sections: [[printButton, emailButton]]).button)
        header.packEnd(saveButton)
        let body = Box(.vertical, children: [header, preview.widget])
        toasts.child = body
        self.content = toasts

        saveButton.onClicked { [weak self] in self?.saveAs() }
        printButton.onClicked { [weak self] in self?.print() }
        emailButton.onClicked { [weak self] in self?.email() }
        addShortcut("<Control>s") { [weak self] in self?.saveAs() }
        addShortcut("<Control>p") { [weak self] in self?.print() }
        addShortcut("Escape") { [weak self] in self?.close() }
        setActionsEnabled(false)

        let tripID = trip.id
        let task = preview.generate {
            try ExpenseReport.load(tripID, from: repository, traveller: traveller).document().renderPDF().data
        }
        generation = Task { [weak self] in
            await task.value
            self?.setActionsEnabled(self?.preview.pdfData != nil)
        }
    }

    /// A `DocumentActions` reporting failures as toasts in this window.
    private func report(_ error: DocumentActionError) {
        toasts.show(error.localizedDescription)
    }

    private var fileName: String { TripDetailView.fileName(for: trip, suffix: "pdf") }

    private func setActionsEnabled(_ enabled: Bool) {
        for button in [saveButton, printButton, emailButton] { button.isSensitive = enabled }
    }

    func saveAs() {
        guard let pdf = preview.pdfData else { return }
        errorReportingActions.saveAs(pdf: pdf, suggestedName: fileName) { [weak self] url in
            self?.savedFile = url
            self?.toasts.show(String(format: tr("Saved as %@"), url.lastPathComponent))
        }
    }

    /// Writes the report to `url` as Save As does after its dialog; for tests.
    @discardableResult
    func save(to url: URL) async -> Bool {
        guard let pdf = preview.pdfData else { return false }
        let saved = await errorReportingActions.save(pdf, to: url)
        if saved { savedFile = url }
        return saved
    }

    func print() {
        guard let pdf = preview.pdfData else { return }
        errorReportingActions.print(pdf: pdf, jobName: fileName)
    }

    func email() {
        guard let pdf = preview.pdfData else { return }
        errorReportingActions.email(pdf: pdf, fileName: fileName,
                                    subject: String(format: tr("Expense report: %@"), trip.name))
    }

    private lazy var errorReportingActions = DocumentActions(parent: self) { [weak self] error in
        self?.report(error)
    }
}
