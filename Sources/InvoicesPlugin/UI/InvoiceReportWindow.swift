import BillfoldCore
import Documents
import Foundation
import GObjectCore
import GtkKit
import InvoicesCore
import PluginAPI

/// The receivables report (as of a day) or the revenue summary (of a year) on screen, saved as
/// PDF or CSV. Reading runs off the main thread; the newest request wins.
@MainActor
final class InvoiceReportWindow: AdwaitaWindow {
    enum Kind { case receivables, revenue }

    let kind: Kind
    private let repository: InvoiceRepository
    private let context: PluginContext
    private let money = MoneyFormatter()
    private let numbers = NumberFormatting()

    let dayRow = EntryRow(title: tr("As of"))
    let calendar = CalendarView()
    private lazy var calendarButton = PopoverButton(iconName: "x-office-calendar-symbolic", content: calendar,
                                                    accessibleLabel: tr("Choose the Day"))
    /// Set while the field and the calendar follow each other, so neither echoes the other.
    private var isSyncing = false
    private(set) var yearRow: ComboRow?
    private var years: [Int] = []
    let errorLabel: Label = {
        let label = Label("", wraps: true, style: "inline-error")
        label.isVisible = false
        return label
    }()
    let pdfButton = Button(label: tr("Save as _PDF…"))
    let csvButton = Button(label: tr("Save as _CSV…"))
    let results = Box(.vertical, spacing: 18)
    let stack = Stack()
    let emptyPage = StatusPage(iconName: "emblem-ok-symbolic", title: "")
    let readErrorPage = StatusPage(iconName: "dialog-error-symbolic", title: tr("The Report Could Not Be Made"))
    private var resultGroups: [Widget] = []

    private(set) var receivables: ReceivablesReport?
    private(set) var revenue: RevenueSummary?
    private var generation = 0
    private var shownGeneration = 0
    /// The save dialog open now, for tests.
    private(set) var saveChooser: FileChooser?
    /// Where the last file was saved, for the next Save dialog.
    private static var lastFolder: String?

    init(kind: Kind, repository: InvoiceRepository, context: PluginContext) {
        self.kind = kind
        self.repository = repository
        self.context = context
        super.init()
        let title = kind == .receivables ? tr("Receivables") : tr("Revenue Summary")
        makeDialog(title: title, over: context.window, width: 640, height: 720)
        let header = HeaderBar(title: WindowTitle(title))

        let controls = PreferencesGroup(description: kind == .receivables
            ? tr("What clients owed at the end of the day, by days past due. Payments received later are not counted yet.")
            : tr("Revenue by issue date (accrual): every sent or paid invoice counts in the month it was issued, paid or not, and every credit note comes off in the month it was issued. Drafts do not count."))
        switch kind {
        case .receivables:
            let today = CalendarDay.today()
            dayRow.text = today.formatted(.short)
            dayRow.onChanged { [weak self] in self?.reload() }
            calendar.selectedDay = (today.year, today.month, today.day)
            calendar.onDaySelected { [weak self] in self?.dayPicked() }
            calendarButton.align(vertical: .center)
            calendarButton.addCssClass("flat")
            dayRow.addSuffix(calendarButton)
            controls.add(dayRow)
        case .revenue:
            // The newest year with revenue comes first; this year is offered even before it has any.
            let current = CalendarDay.today().year
            let withRevenue: [Int]
            do {
                withRevenue = try repository.revenueYears()
            } catch {
                withRevenue = []
                errorLabel.text = error.localizedDescription
                errorLabel.isVisible = true
            }
            years = Array(Set(withRevenue + [current])).sorted(by: >)
            let row = ComboRow(title: tr("Year"), choices: years.map(String.init))
            row.selectedIndex = years.firstIndex(of: withRevenue.first ?? current)
            row.onSelectionChanged { [weak self] in self?.reload() }
            controls.add(row)
            yearRow = row
        }
        errorLabel.xAlign = 0
        pdfButton.onClicked { [weak self] in self?.save(asPDF: true) }
        csvButton.onClicked { [weak self] in self?.save(asPDF: false) }
        let buttons = Box(.horizontal, spacing: 6, children: [pdfButton, csvButton])

        stack.add(results, named: "results")
        stack.add(emptyPage, named: "empty")
        stack.add(readErrorPage, named: "read-error")
        let body = Box(.vertical, spacing: 12, children: [controls, errorLabel, buttons, stack])
        body.setMargins(top: 18, bottom: 24, start: 12, end: 12)
        let scroller = ScrolledWindow(child: Clamp(child: body, maximumWidth: 720))
        scroller.expandsVertically = true
        content = Box(.vertical, children: [header, scroller])
        reload()
    }

    /// A day picked in the calendar goes into the field, as if typed.
    private func dayPicked() {
        guard !isSyncing else { return }
        let picked = calendar.selectedDay
        guard let day = CalendarDay(year: picked.year, month: picked.month, day: picked.day) else { return }
        isSyncing = true
        dayRow.text = day.formatted(.short)
        isSyncing = false
        calendarButton.popdown()
    }

    /// The day typed, or nil with the reason shown.
    private func chosenDay() -> CalendarDay? {
        do {
            let day = try CalendarDay.parse(dayRow.text)
            errorLabel.isVisible = false
            if !isSyncing {
                isSyncing = true
                calendar.selectedDay = (day.year, day.month, day.day)
                isSyncing = false
            }
            return day
        } catch {
            errorLabel.text = error.localizedDescription
            errorLabel.isVisible = true
            return nil
        }
    }

    private var chosenYear: Int? {
        yearRow?.selectedIndex.flatMap { years.indices.contains($0) ? years[$0] : nil }
    }

    /// Reads the report again for the chosen day or year.
    func reload() {
        generation += 1
        let request = generation
        let repository = repository
        switch kind {
        case .receivables:
            guard let day = chosenDay() else { shownGeneration = generation; setExportable(false); return }
            Task { [weak self] in
                let result = await Task.detached { Result { try repository.receivables(asOf: day) } }.value
                guard let self, request == self.generation else { return }
                self.show(result.map { Shown.receivables($0) })
            }
        case .revenue:
            guard let year = chosenYear else { return }
            Task { [weak self] in
                let result = await Task.detached { Result { try repository.revenueSummary(year: year) } }.value
                guard let self, request == self.generation else { return }
                self.show(result.map { Shown.revenue($0) })
            }
        }
    }

    /// Whether the newest request is still being read, for tests.
    var isLoading: Bool { shownGeneration != generation }

    private enum Shown { case receivables(ReceivablesReport), revenue(RevenueSummary) }

    private func show(_ result: Result<Shown, any Error>) {
        shownGeneration = generation
        resultGroups.forEach { results.remove($0) }
        resultGroups = []
        switch result {
        case .failure(let error):
            receivables = nil
            revenue = nil
            readErrorPage.pageDescription = error.localizedDescription
            stack.visibleChildName = "read-error"
            setExportable(false)
        case .success(.receivables(let report)):
            receivables = report
            report.totals.forEach(addReceivables)
            emptyPage.title = tr("Nothing Owed")
            emptyPage.pageDescription = tr("No sent invoice was open at the end of that day.")
            stack.visibleChildName = report.isEmpty ? "empty" : "results"
            setExportable(true)
        case .success(.revenue(let summary)):
            revenue = summary
            summary.currencies.forEach(addRevenue)
            emptyPage.title = tr("No Revenue")
            emptyPage.pageDescription = tr("No invoice issued in that year was sent.")
            stack.visibleChildName = summary.isEmpty ? "empty" : "results"
            setExportable(true)
        }
    }

    private func setExportable(_ enabled: Bool) {
        pdfButton.isSensitive = enabled
        csvButton.isSensitive = enabled
    }

    private func append(_ group: Widget) {
        results.append(group)
        resultGroups.append(group)
    }

    private func amountLabel(_ money: Money, bold: Bool = false) -> Label {
        let label = Label(self.money.string(from: money), wraps: false, style: bold ? "heading" : nil)
        label.addCssClass("numeric")
        label.align(vertical: .center)
        return label
    }

    private func addReceivables(_ total: ReceivablesRow) {
        guard let report = receivables else { return }
        let group = PreferencesGroup(title: total.currency.code + " – " + total.currency.localizedName())
        for row in report.rows(in: total.currency) + [total] {
            let isTotal = row.clientID == nil
            let parts = AgeingBucket.allCases.filter { !row.amount(in: $0).isZero }.map { bucket in
                String(format: tr("%@: %@"), bucket.title, money.string(from: row.amount(in: bucket)))
            }
            let actionRow = ActionRow(title: isTotal ? tr("Total") : row.clientName, subtitle: parts.joined(separator: " · "))
            actionRow.addSuffix(amountLabel(row.total, bold: isTotal))
            group.add(actionRow)
        }
        append(group)
    }

    private func addRevenue(_ part: RevenueSummary.CurrencyPart) {
        let months = ReportTemplates.monthNames(locale: UserLocale.time)
        let group = PreferencesGroup(title: part.currency.code + " – " + part.currency.localizedName(),
                                     description: tr("Gross per month, with net and tax below it."))
        for (index, amounts) in part.months.enumerated().map({ ($0.offset, $0.element) }) + [(12, part.year)] {
            let isYear = index == 12
            let subtitle = String(format: tr("Net %@ · Tax %@ · %@"), money.string(from: amounts.net), money.string(from: amounts.tax),
                                  String(format: trn("%d invoice", "%d invoices", amounts.invoiceCount), amounts.invoiceCount))
            let row = ActionRow(title: isYear ? tr("Year") : months[index], subtitle: subtitle)
            row.addSuffix(amountLabel(amounts.gross, bold: isYear))
            group.add(row)
        }
        append(group)
        let rates = PreferencesGroup(title: String(format: tr("Tax per Rate, %@"), part.currency.code))
        for rate in part.taxRates {
            let row = ActionRow(title: RevenueSummary.title(of: rate, numbers: numbers),
                                subtitle: String(format: tr("Taxable amount %@"), money.string(from: rate.taxable)))
            row.addSuffix(amountLabel(rate.tax))
            rates.add(row)
        }
        append(rates)
    }

    // MARK: Saving

    private var fileStem: String {
        if let receivables { return String(format: tr("Receivables %@"), receivables.asOf.isoString) }
        return String(format: tr("Revenue %d"), revenue?.year ?? CalendarDay.today().year)
    }

    /// Asks where to save, then writes the shown report; the PDF is laid out off the main thread.
    @discardableResult
    func save(asPDF: Bool, in folder: String? = nil) -> FileChooser? {
        guard receivables != nil || revenue != nil else { return nil }
        let suffix = asPDF ? "pdf" : "csv"
        let chooser = FileChooser(saveTitle: asPDF ? tr("Save Report as PDF") : tr("Save Report as CSV"), parent: self,
                                  acceptLabel: tr("_Save"), suggestedName: fileStem + "." + suffix,
                                  folder: folder ?? Self.lastFolder ?? UserDirectories.documents,
                                  filters: [asPDF ? FileFilter(name: tr("PDF documents"), suffixes: ["pdf"])
                                                  : FileFilter(name: tr("CSV files"), suffixes: ["csv"])])
        saveChooser = chooser
        chooser.open { [weak self] path in
            guard let self, let path else { return }
            self.write(asPDF: asPDF, to: URL(fileURLWithPath: path))
        }
        return chooser
    }

    func write(asPDF: Bool, to url: URL) {
        let business = context.businessName
        let receivables = receivables
        let revenue = revenue
        let toast = String(format: tr("Saved %@"), url.lastPathComponent)
        Task { [weak self] in
            let outcome: Result<Void, any Error> = await Task.detached {
                Result {
                    let data: Data
                    if asPDF {
                        let document = receivables.map { ReportTemplates.document($0, businessName: business) }
                            ?? revenue.map { ReportTemplates.document($0, businessName: business) }
                        guard let document else { return }
                        data = try document.renderPDF().data
                    } else {
                        data = Data((receivables?.csv() ?? revenue?.csv() ?? "").utf8)
                    }
                    try OutputTarget.file(url).write(data)
                }
            }.value
            guard let self else { return }
            switch outcome {
            case .success:
                Self.lastFolder = url.deletingLastPathComponent().path
                self.context.showToast(toast)
            case .failure(let error):
                self.errorLabel.text = error.localizedDescription
                self.errorLabel.isVisible = true
            }
        }
    }
}
