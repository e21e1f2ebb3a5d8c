import BillfoldCore
import BillfoldUI
import Documents
import ExpensesCore
import Foundation
import GObjectCore
import GtkKit
import PluginAPI

/// One trip: its running total and expense list, with Add Expense, editing, deleting with
/// Undo, and the CSV export.
@MainActor
public final class TripDetailView {
    public let widget: Box
    let repository: ExpenseRepository
    let context: PluginContext
    private let moneyFormatter = MoneyFormatter()
    private let numbers = NumberFormatting()

    private let header: HeaderBar
    private let backButton = Button(iconName: "go-previous-symbolic", accessibleLabel: tr("Back"))
    let addButton = Button(iconName: "list-add-symbolic", accessibleLabel: tr("Add Expense"))
    let importButton = Button(label: tr("Add from an _E-Invoice…"))
    /// Takes a Factur-X / ZUGFeRD PDF or an XRechnung / EN 16931 XML dropped on the trip.
    private(set) var dropTarget: FileDropTarget?
    /// True while a chosen or dropped e-invoice is stored and read.
    public internal(set) var isImportingInvoice = false
    /// The file chooser of the last e-invoice import, for tests.
    var invoiceChooser: FileChooser?
    let editTripButton = Button(label: tr("_Edit Trip"))
    let exportButton = Button(label: tr("E_xport CSV…"))
    let reportButton = Button(label: tr("_Generate Report"))
    let deleteTripButton = Button(label: tr("_Delete Trip"))
    /// The trip's other actions, in the header beside Add Expense.
    let moreActions: PopoverButton
    let stack = Stack()

    let nameLabel = Label("", wraps: true, style: "title-2")
    let datesLabel = Label("", wraps: true, style: "dim-label")
    let totalCaption = Label(tr("Trip Total"), wraps: false, style: "heading")
    let totalLabel = Label("", wraps: true, style: "title-1")
    let countLabel = Label("", style: "dim-label")
    let purposeLabel = Label("", style: "dim-label")
    let expenseList = ListBox()
    private let expensesGroup = PreferencesGroup(title: tr("Expenses"))
    let categoryChart = ChartView(chart: Chart(kind: .bar, categories: [], series: []),
                                  title: tr("Spending by Category"), height: 180)
    let dailyChart = ChartView(chart: Chart(kind: .line, categories: [], series: []),
                               title: tr("Spending per Day"), height: 180)
    private let categoryCard: Box
    private let dailyCard: Box
    let charts: Columns
    private let noExpenses: Box
    let errorLabel = Label("", style: "error")
    let readErrorPage = StatusPage(iconName: "dialog-error-symbolic", title: tr("The Trip Could Not Be Read"))

    public private(set) var trip: Trip?
    public private(set) var expenses: [Expense] = []
    public private(set) var dashboard: TripDashboard?
    /// The expense dialog last opened, for tests.
    public private(set) weak var expenseDialog: ExpenseDialog?
    /// The save dialog of the last CSV export, for tests.
    private(set) var exportChooser: FileChooser?
    private var pendingExpenseDeletions: [UUID: DeletedExpense] = [:]
    /// Receipt thumbnails already decoded, by receipt, so a refresh does not decode them again.
    private var thumbnails: [ReceiptReference: ReceiptThumbnail] = [:]

    var onBack: (@MainActor () -> Void)?
    var onTripChanged: (@MainActor () -> Void)?
    var onDeleteTrip: (@MainActor (TripID) -> Void)?
    var onEditTrip: (@MainActor (Trip) -> Void)?

    init(repository: ExpenseRepository, context: PluginContext) {
        self.repository = repository
        self.context = context
        // The trip's name heads the pane, where it can wrap; the header keeps its room for the actions.
        header = HeaderBar(title: WindowTitle(""))
        header.packStart(backButton)
        // As in the invoice pane: the header's one main action, and a menu of the rest.
        moreActions = ActionMenu(sections: [[importButton], [reportButton, exportButton], [editTripButton, deleteTripButton]]).button
        // Red text in the menu: a flat destructive button would draw white text on no background.
        deleteTripButton.addCssClass("error")
        header.packEnd(moreActions)
        header.packEnd(addButton)

        let summary = Box(.vertical, spacing: 4, children: [totalCaption, totalLabel, countLabel, purposeLabel])
        for label in [totalCaption, totalLabel, countLabel, purposeLabel] { label.xAlign = 0 }
        totalLabel.addCssClass("numeric")
        summary.addCssClass("card")
        // Padding inside the card.
        totalCaption.setMargins(top: 18, bottom: 0, start: 18, end: 18)
        for label in [totalLabel, countLabel] { label.setMargins(top: 0, bottom: 0, start: 18, end: 18) }
        purposeLabel.setMargins(top: 0, bottom: 18, start: 18, end: 18)

        // Side by side on a wide window, one above the other on a narrow one.
        categoryCard = Self.chartCard(tr("By Category"), categoryChart)
        dailyCard = Self.chartCard(tr("Per Day"), dailyChart)
        charts = Columns(minimumColumnWidth: 280, spacing: 12)
        charts.append(categoryCard)
        charts.append(dailyCard)

        expenseList.styleAsBoxedList()
        expenseList.accessibleLabel = tr("Expenses")
        let addFirst = Button(label: tr("Add _Expense"))
        addFirst.addCssClass("pill")
        addFirst.align(horizontal: .center)
        let noExpensesLabel = Label(tr("No expenses yet. Add what you spent, with a photo of the receipt, or drop a supplier’s e-invoice here."),
                                    style: "dim-label")
        noExpensesLabel.setJustification(.center)
        noExpenses = Box(.vertical, spacing: 12, children: [noExpensesLabel, addFirst])
        noExpenses.setMargins(top: 24, bottom: 24, start: 12, end: 12)
        expensesGroup.add(expenseList)
        expensesGroup.add(noExpenses)

        errorLabel.isVisible = false
        errorLabel.xAlign = 0
        for label in [nameLabel, datesLabel] { label.xAlign = 0 }
        nameLabel.isSelectable = true
        let titles = Box(.vertical, spacing: 4, children: [nameLabel, datesLabel])
        let content = Box(.vertical, spacing: 24, children: [titles, errorLabel, summary, charts, expensesGroup])
        content.setMargins(top: 24, bottom: 24, start: 12, end: 12)
        let scroller = ScrolledWindow(child: Clamp(child: content, maximumWidth: 800))
        scroller.expandsVertically = true

        let none = StatusPage(iconName: "emoji-travel-symbolic", title: tr("No Trip Selected"),
                              description: tr("Choose a trip in the list"))
        stack.add(none, named: "none")
        stack.add(readErrorPage, named: "read-error")
        stack.add(scroller, named: "trip")
        stack.expandsVertically = true
        widget = Box(.vertical, children: [header, stack])
        let dropTarget = FileDropTarget(attachedTo: scroller)
        self.dropTarget = dropTarget
        dropTarget.onDrop { [weak self] path in
            guard let self, self.trip != nil else { return false }
            guard let path else {
                self.context.showToast(tr("Only files on this computer can be added. Save the e-invoice to a folder first."))
                return false
            }
            self.importInvoice(from: URL(fileURLWithPath: path))
            return true
        }
        importButton.onClicked { [weak self] in self?.chooseInvoice() }

        backButton.onClicked { [weak self] in self?.onBack?() }
        addButton.onClicked { [weak self] in self?.showExpenseDialog(editing: nil) }
        addFirst.onClicked { [weak self] in self?.showExpenseDialog(editing: nil) }
        editTripButton.onClicked { [weak self] in guard let self else { return }; if let trip = self.trip { self.onEditTrip?(trip) } }
        deleteTripButton.onClicked { [weak self] in guard let self else { return }; if let trip = self.trip { self.onDeleteTrip?(trip.id) } }
        exportButton.onClicked { [weak self] in self?.exportCSV() }
        reportButton.onClicked { [weak self] in self?.showReport() }
        show(nil)
    }

    func setFolded(_ folded: Bool) {
        backButton.isVisible = folded
        header.showsStartTitleButtons = folded
    }

    /// Shows the trip (or the empty state for nil).
    func show(_ id: TripID?) {
        do {
            trip = try id.flatMap(repository.trip)
        } catch {
            // Not the "No Trip Selected" page: the trip is there, it could not be read.
            trip = nil
            refresh()
            readErrorPage.pageDescription = error.localizedDescription
            stack.visibleChildName = "read-error"
            return
        }
        refresh()
    }

    /// Reads the trip's expenses and totals again.
    public func refresh() {
        let hasTrip = trip != nil
        addButton.isVisible = hasTrip
        moreActions.isVisible = hasTrip
        guard let trip else {
            expenses = []
            dashboard = nil
            receiptIndicators = []
            stack.visibleChildName = "none"
            return
        }
        stack.visibleChildName = "trip"
        nameLabel.text = trip.name
        datesLabel.text = trip.days.formatted()
        do {
            expenses = try repository.expenses(in: trip.id)
            dashboard = try TripDashboard(trip: trip, expenses: expenses)
            errorLabel.isVisible = false
        } catch {
            expenses = []
            dashboard = nil
            errorLabel.text = error.localizedDescription
            errorLabel.isVisible = true
        }
        let total = dashboard?.total ?? .zero(trip.currency)
        totalLabel.text = moneyFormatter.string(from: total)
        countLabel.text = String(format: trn("%d expense", "%d expenses", expenses.count), expenses.count)
        purposeLabel.text = trip.purpose
        purposeLabel.isVisible = !trip.purpose.isEmpty

        if let dashboard {
            let models = DashboardCharts(dashboard: dashboard, money: moneyFormatter)
            categoryChart.chart = models.byCategory
            if let byDay = models.byDay { dailyChart.chart = byDay }
            dailyCard.isVisible = models.byDay != nil
        }
        charts.isVisible = dashboard.map { $0.expenseCount > 0 } ?? false

        expenseList.removeAll()
        receiptIndicators = []
        for expense in expenses { expenseList.append(makeRow(expense, trip: trip)) }
        expenseList.isVisible = !expenses.isEmpty
        noExpenses.isVisible = expenses.isEmpty
    }

    /// The receipt indicator of each expense row, in list order, for tests.
    private(set) var receiptIndicators: [ReceiptIndicator] = []

    enum ReceiptIndicator: Equatable {
        case none, thumbnail, pdf, invoiceXML, missing, unreadable
    }

    private func makeRow(_ expense: Expense, trip: Trip) -> Widget {
        let title = expense.vendor.isEmpty ? expense.category.localizedName : expense.vendor
        var subtitle = String(format: tr("%@ · %@"), expense.date.formatted(.short), expense.category.localizedName)
        if let mileage = expense.cost.mileage {
            subtitle += " · " + String(format: tr("%@ %@ at %@"), numbers.string(from: mileage.distance),
                                       mileage.unit.localizedSymbol, numbers.string(from: mileage.ratePerUnit))
        }
        if let rate = expense.amounts.exchangeRate {
            subtitle += " · " + String(format: tr("%@ at %@"), moneyFormatter.string(from: expense.originalAmount),
                                       numbers.string(from: rate))
        }
        if let vat = try? expense.vat.totalTax() {
            subtitle += " · " + String(format: tr("VAT %@"), moneyFormatter.string(from: vat))
        }
        let row = ActionRow(title: title, subtitle: subtitle)
        // The receipt (or the category's icon) leads the row in a slot of one size, so the
        // amounts at the other end line up whatever picture is shown.
        row.addPrefix(Self.leadingSlot(makeReceiptIndicator(expense) ?? Image(iconName: Self.iconName(for: expense.category))))
        let amount = Label(moneyFormatter.string(from: expense.convertedAmount), wraps: false)
        amount.addCssClass("numeric")
        row.addSuffix(amount)
        let delete = Button(iconName: "user-trash-symbolic", accessibleLabel: tr("Delete Expense"))
        delete.tooltip = tr("Delete Expense")
        delete.addCssClass("flat")
        delete.align(vertical: .center)
        delete.onClicked { [weak self] in self?.deleteExpense(expense.id) }
        row.addSuffix(delete)
        row.onActivated { [weak self] in self?.showExpenseDialog(editing: expense) }
        return row
    }

    /// What stands for the expense's receipt, or nil without one.
    private func makeReceiptIndicator(_ expense: Expense) -> Widget? {
        guard let receipt = expense.receipt else {
            receiptIndicators.append(.none)
            return nil
        }
        if case .missing = repository.receiptStatus(receipt) {
            receiptIndicators.append(.missing)
            let warning = Image(iconName: "dialog-warning-symbolic")
            warning.addCssClass("warning")
            warning.accessibleLabel = tr("Receipt file missing")
            warning.tooltip = tr("The receipt file is missing from Billfold’s data folder. Open the expense to attach it again.")
            return warning
        }
        guard receipt.kind.isImage else {
            receiptIndicators.append(receipt.kind == .xml ? .invoiceXML : .pdf)
            let icon = Image(iconName: "x-office-document-symbolic")
            icon.tooltip = receipt.kind == .xml ? tr("E-invoice receipt (XML)") : tr("PDF receipt")
            return icon
        }
        receiptIndicators.append(.thumbnail)
        let picture = PixelPicture()
        picture.accessibleLabel = tr("Receipt")
        let position = receiptIndicators.count - 1
        if let thumbnail = thumbnails[receipt] {
            show(thumbnail, in: picture)
        } else {
            let store = repository.receipts
            Task { [weak self, picture] in
                let result = await Task.detached { () -> Result<ReceiptThumbnail, ReceiptError> in
                    Result { () throws(ReceiptError) in try store.thumbnail(for: receipt, maxPixelSize: 80) }
                }.value
                guard let self else { return }
                switch result {
                case .success(let thumbnail):
                    self.thumbnails[receipt] = thumbnail
                    self.show(thumbnail, in: picture)
                case .failure(let error):
                    picture.tooltip = error.localizedDescription
                    if position < self.receiptIndicators.count { self.receiptIndicators[position] = .unreadable }
                }
            }
        }
        return picture
    }

    private func show(_ thumbnail: ReceiptThumbnail, in picture: PixelPicture) {
        picture.setPixels(width: thumbnail.width, height: thumbnail.height, rowStride: thumbnail.rowStride,
                          hasAlpha: thumbnail.hasAlpha, pixels: thumbnail.pixels)
    }

    /// A 40 px square holding `content` at its centre: a thumbnail shrinks into it, an icon keeps its size.
    private static func leadingSlot(_ content: Widget) -> Widget {
        let side = 40
        var placeContent: (@MainActor (Int, Int) -> Void)?
        let slot = LayoutContainer(measure: { _, _ in (side, side) }, allocate: { width, height in placeContent?(width, height) })
        slot.append(content)
        placeContent = { [weak slot, weak content] width, height in
            guard let slot, let content else { return }
            slot.place(content, x: 0, y: 0, width: width, height: height)
        }
        slot.align(vertical: .center)
        return slot
    }

    private static func chartCard(_ title: String, _ chart: ChartView) -> Box {
        let heading = Label(title, wraps: false, style: "heading")
        heading.xAlign = 0
        let card = Box(.vertical, spacing: 6, children: [heading, chart.widget])
        card.addCssClass("card")
        heading.setMargins(top: 12, bottom: 0, start: 12, end: 12)
        chart.widget.setMargins(top: 0, bottom: 12, start: 6, end: 6)
        return card
    }

    static func iconName(for category: ExpenseCategory) -> String {
        switch category {
        case .meals: return "emoji-food-symbolic"
        case .lodging: return "user-home-symbolic"
        case .transit: return "emoji-travel-symbolic"
        case .supplies: return "package-x-generic-symbolic"
        case .entertainment: return "emoji-activities-symbolic"
        case .mileage: return "mark-location-symbolic"
        case .other: return "emoji-objects-symbolic"
        }
    }

    // MARK: Actions

    @discardableResult
    public func showExpenseDialog(editing: Expense?, draft: ExpenseDetails? = nil, note: String? = nil,
                                  noteIsWarning: Bool = false) -> ExpenseDialog? {
        guard let trip else { return nil }
        let dialog = ExpenseDialog(repository: repository, trip: trip, editing: editing, parent: context.window,
                                   draft: draft, note: note, noteIsWarning: noteIsWarning)
        dialog.onSaved = { [weak self] _ in
            guard let self else { return }
            self.refresh()
            self.onTripChanged?()
        }
        expenseDialog = dialog
        dialog.present()
        return dialog
    }

    /// Deletes the expense at once and offers Undo; its receipt file is kept until Undo ends.
    public func deleteExpense(_ id: ExpenseID) {
        let deleted: DeletedExpense
        do {
            deleted = try repository.deleteExpenseKeepingReceipt(id)
        } catch {
            context.showToast(error.localizedDescription)
            return
        }
        pendingExpenseDeletions[deleted.token] = deleted
        refresh()
        onTripChanged?()
        let name = deleted.expense.vendor.isEmpty ? deleted.expense.category.localizedName : deleted.expense.vendor
        context.showToast(String(format: tr("“%@” deleted"), name), undoLabel: tr("_Undo")) { [weak self] in
            self?.undoDeletion(deleted)
        }
        MainLoop.after(milliseconds: ExpensesView.undoWindow) { [weak self] in self?.purge(deleted) }
    }

    private func undoDeletion(_ deleted: DeletedExpense) {
        guard pendingExpenseDeletions.removeValue(forKey: deleted.token) != nil else { return }
        do {
            try repository.restore(deleted)
        } catch {
            context.showToast(error.localizedDescription)
        }
        refresh()
        onTripChanged?()
    }

    private func purge(_ deleted: DeletedExpense) {
        guard pendingExpenseDeletions.removeValue(forKey: deleted.token) != nil else { return }
        try? repository.purgeDeletedReceipts(deleted)
    }

    func endPendingUndos() {
        for deleted in pendingExpenseDeletions.values { purge(deleted) }
    }

    /// Asks where to save the trip's expenses as CSV and writes the file atomically.
    @discardableResult
    func exportCSV(in folder: String? = nil) -> FileChooser? {
        guard let trip else { return nil }
        let chooser = FileChooser(saveTitle: tr("Export Expenses as CSV"), parent: context.window,
                                  acceptLabel: tr("_Export"), suggestedName: Self.fileName(for: trip, suffix: "csv"),
                                  folder: folder ?? Self.lastExportFolder ?? UserDirectories.documents,
                                  filters: [FileFilter(name: tr("CSV files"), suffixes: ["csv"])])
        exportChooser = chooser
        chooser.open { [weak self] path in
            guard let self, let path else { return }
            do {
                let expenses = try self.repository.expenses(in: trip.id)
                try ExpenseCSV.write(for: trip, expenses: expenses, to: URL(fileURLWithPath: path))
                Self.lastExportFolder = URL(fileURLWithPath: path).deletingLastPathComponent().path
                self.context.showToast(String(format: tr("Exported to %@"), URL(fileURLWithPath: path).lastPathComponent))
            } catch {
                self.context.showToast(error.localizedDescription)
            }
        }
        return chooser
    }

    /// The report window last opened, for tests.
    public private(set) weak var reportWindow: ReportWindow?

    /// Opens the trip's reimbursement report in a preview window; it is made in the background.
    @discardableResult
    public func showReport() -> ReportWindow? {
        guard let trip else { return nil }
        // Still open for this trip: bring it back rather than open a second one.
        if let open = reportWindow, open.tripID == trip.id, open.isVisible {
            open.present()
            return open
        }
        let report = ReportWindow(trip: trip, repository: repository, traveller: context.businessName,
                                  parent: context.window)
        reportWindow = report
        report.present()
        return report
    }

    /// The folder of the last export, offered next time.
    private static var lastExportFolder: String?

    /// A file name from the trip's name, without characters file systems refuse.
    static func fileName(for trip: Trip, suffix: String) -> String {
        let cleaned = trip.name.map { "/\\:*?\"<>|".contains($0) ? "-" : $0 }
        let base = String(cleaned).trimmingCharacters(in: .whitespacesAndNewlines)
        return (base.isEmpty ? tr("Expenses") : base) + "." + suffix
    }
}
