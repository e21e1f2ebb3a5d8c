import BillfoldCore
import Foundation
import GtkKit
import InvoicesCore
import PluginAPI

/// The preview of a CSV import: which column holds what (found from the header, changeable),
/// how the file writes numbers, and every row checked, with its problems by line. Nothing is
/// written until Import is pressed, and Import stays off while any row has a problem.
@MainActor
final class CSVImportDialog: AdwaitaWindow {
    let importing: CSVContent
    private let file: CSVImportFile
    private let repository: InvoiceRepository
    private let plan: InvoicePlan
    /// Called after the import with what it added.
    var onImported: (@MainActor (CSVImportResult) -> Void)?

    let importButton = Button(label: tr("_Import"))
    private(set) var columnRows: [String: ComboRow] = [:]
    let formatRow: ComboRow
    private let formats: [CSVNumberFormat]
    let summaryRow = ActionRow(title: "")
    let limitLabel = Label("", wraps: true, style: "inline-error")
    let problemsGroup = PreferencesGroup(title: tr("Rows to Correct"))
    private var problemRows: [Widget] = []
    private(set) var preview: CSVImportPreview?
    private(set) var mapping: CSVMapping
    /// How many problems are listed; the rest are counted.
    static let listedProblems = 200

    init(content: CSVContent, file: CSVImportFile, fileName: String, repository: InvoiceRepository, plan: InvoicePlan,
         parent: Window?) {
        importing = content
        self.file = file
        self.repository = repository
        self.plan = plan
        mapping = CSVMapping.detect(header: file.header, content: content)
        formats = CSVNumberFormat.choices()
        formatRow = ComboRow(title: tr("Numbers and Dates"), choices: formats.map(\.title))
        super.init()
        let title = content == .clients ? tr("Import Clients") : tr("Import Invoices")
        makeDialog(title: title, over: parent, width: 560, height: 720)

        let cancel = Button(label: tr("_Cancel"))
        cancel.onClicked { [weak self] in self?.close() }
        importButton.onClicked { [weak self] in self?.importRows() }
        let header = HeaderBar(dialogTitle: title, subtitle: fileName, cancel: cancel, action: importButton)

        var note = content == .clients
            ? tr("A client already in the library (same name and email) is left as it is.")
            : tr("An invoice whose number is already in the library is left as it is; its client is found by name and email, or added.")
        if content == .invoices, let limit = plan.invoiceLimit {
            note += " " + String(format: trn("On the free plan imported invoices count toward its limit of %d invoice, whatever their status.",
                                             "On the free plan imported invoices count toward its limit of %d invoices, whatever their status.",
                                             limit), limit)
        }
        let summaryGroup = PreferencesGroup(description: note)
        summaryGroup.add(summaryRow)
        limitLabel.xAlign = 0
        limitLabel.isVisible = false

        let formatGroup = PreferencesGroup(description: tr("Amounts are read as the file writes them; dates may also be written as 2025-03-31."))
        let suggested = file.suggestedNumberFormat(for: content)
        formatRow.selectedIndex = formats.firstIndex(of: suggested) ?? 0
        formatRow.onSelectionChanged { [weak self] in self?.refresh() }
        formatGroup.add(formatRow)

        let columnsGroup = PreferencesGroup(title: tr("Columns"),
                                            description: tr("Found by the names in the file’s first row. Choose another column where one is wrong."))
        let notInFile = tr("Not in the file")
        for field in content.fields {
            let row = ComboRow(title: field.isRequired ? String(format: tr("%@ (required)"), field.title) : field.title,
                               choices: [notInFile] + file.header.map { $0.isEmpty ? tr("(unnamed column)") : $0 })
            row.selectedIndex = mapping.columns[field.name].map { $0 + 1 } ?? 0
            row.onSelectionChanged { [weak self, weak row] in
                guard let self, let row else { return }
                self.mapping.columns[field.name] = row.selectedIndex.flatMap { $0 > 0 ? $0 - 1 : nil }
                self.refresh()
            }
            columnRows[field.name] = row
            columnsGroup.add(row)
        }

        // The number format comes before the problems: choosing the file's locale is the usual fix.
        let body = Box(.vertical, spacing: 18, children: [summaryGroup, limitLabel, formatGroup, problemsGroup, columnsGroup])
        body.setMargins(top: 18, bottom: 24, start: 12, end: 12)
        let scroller = ScrolledWindow(child: Clamp(child: body, maximumWidth: 640))
        scroller.expandsVertically = true
        self.content = Box(.vertical, children: [header, scroller])
        refresh()
    }

    private var format: CSVNumberFormat {
        formatRow.selectedIndex.flatMap { formats.indices.contains($0) ? formats[$0] : nil } ?? .plain
    }

    /// Whether a check or the import is still running, for tests.
    var isBusy: Bool { shownGeneration != generation || isImporting }
    private var generation = 0
    private var shownGeneration = 0
    private var isImporting = false

    /// Checks every row again with the chosen columns and number format, off the main thread;
    /// Import waits for the newest check.
    func refresh() {
        showSamples()
        generation += 1
        let request = generation
        importButton.isSensitive = false
        let (repository, file, importing, mapping, format, plan) = (repository, file, importing, mapping, format, plan)
        Task { [weak self] in
            let result = await Task.detached {
                Result { try repository.previewImport(file, content: importing, mapping: mapping, format: format, plan: plan) }
            }.value
            guard let self, request == self.generation else { return }
            self.shownGeneration = request
            self.show(result)
        }
    }

    /// Each column row shows what its column holds in the file's first row.
    private func showSamples() {
        for (name, row) in columnRows {
            let sample = mapping.columns[name].flatMap { index in file.rows.first.flatMap { $0.fields.indices.contains(index) ? $0.fields[index] : nil } }
            row.subtitle = sample.map { $0.isEmpty ? nil : String(format: tr("First row: %@"), String($0.prefix(60))) } ?? nil
        }
    }

    private func show(_ result: Result<CSVImportPreview, any Error>) {
        problemRows.forEach { problemsGroup.remove($0) }
        problemRows = []
        switch result {
        case .success(let preview):
            self.preview = preview
            summaryRow.title = preview.summary.isEmpty ? tr("Nothing to import") : preview.summary
            summaryRow.subtitle = preview.canImport ? tr("Nothing is added until you press Import.")
                : preview.problems.isEmpty ? nil : tr("Correct the rows below in the file, or choose other columns, then import.")
            limitLabel.text = preview.limitProblem ?? ""
            limitLabel.isVisible = preview.limitProblem != nil
            for problem in preview.problems.prefix(Self.listedProblems) {
                let row = ActionRow(title: String(format: tr("Line %d"), problem.line), subtitle: problem.message)
                problemsGroup.add(row)
                problemRows.append(row)
            }
            if preview.problems.count > Self.listedProblems {
                let more = preview.problems.count - Self.listedProblems
                let row = ActionRow(title: String(format: trn("And %d more row", "And %d more rows", more), more))
                problemsGroup.add(row)
                problemRows.append(row)
            }
            problemsGroup.isVisible = !preview.problems.isEmpty
            importButton.isSensitive = preview.canImport
        case .failure(let error):
            preview = nil
            summaryRow.title = tr("The library could not be read")
            summaryRow.subtitle = error.localizedDescription
            problemsGroup.isVisible = false
            importButton.isSensitive = false
        }
    }

    /// Adds what the preview found, off the main thread; the dialog closes when it is done, or
    /// says why nothing was added.
    func importRows() {
        guard let preview, preview.canImport, !isBusy else { return }
        isImporting = true
        importButton.isSensitive = false
        let (repository, plan) = (repository, plan)
        Task { [weak self] in
            let result = await Task.detached { Result { try repository.importCSV(preview, plan: plan) } }.value
            guard let self else { return }
            self.isImporting = false
            switch result {
            case .success(let added):
                self.onImported?(added)
                self.close()
            case .failure(let error):
                self.limitLabel.text = error.localizedDescription
                self.limitLabel.isVisible = true
                self.importButton.isSensitive = true
            }
        }
    }
}
