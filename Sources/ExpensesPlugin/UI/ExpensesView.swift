import BillfoldCore
import BillfoldUI
import ExpensesCore
import Foundation
import GObjectCore
import GtkKit
import PluginAPI

/// The Expenses page: the trip list beside the selected trip's detail, one at a time on a
/// narrow window.
@MainActor
public final class ExpensesView {
    public let widget: Leaflet
    let repository: ExpenseRepository
    private let context: PluginContext
    private let moneyFormatter = MoneyFormatter()

    let searchField = SearchField(placeholder: tr("Search trips"))
    /// Virtualized: a long history of trips makes rows only for those near the screen.
    private(set) var tripList: ListView<SummaryRowView>!
    private let positions = PositionList()
    /// Set while the list changes under the selection, so the change is not taken as a choice.
    private var isUpdating = false
    let listStack = Stack()
    private let listHeader: HeaderBar
    private let listPane: Box
    let detail: TripDetailView
    let errorLabel = Label("", style: "error")
    /// Shown instead of the list when the trips cannot be read: never an empty list.
    let readErrorPage = StatusPage(iconName: "dialog-error-symbolic", title: tr("Trips Could Not Be Read"))

    /// The trips shown, in list order.
    public private(set) var summaries: [TripSummary] = []
    public private(set) var selectedTripID: TripID?
    /// The trip dialog last opened, for tests.
    public private(set) weak var tripDialog: TripDialog?
    /// Deletions whose Undo is still offered; their receipt files are purged when it ends.
    private var pendingTripDeletions: [UUID: DeletedTrip] = [:]
    /// How long Undo is offered before held receipt files go, in milliseconds: longer than the
    /// toast is shown.
    static let undoWindow: UInt32 = 10_000

    init(repository: ExpenseRepository, context: PluginContext) {
        self.repository = repository
        self.context = context
        widget = Leaflet()

        listHeader = HeaderBar(title: WindowTitle(tr("Trips")))
        listHeader.packStart(context.makeBackButton())
        let newTrip = Button(iconName: "list-add-symbolic", accessibleLabel: tr("New Trip"))
        newTrip.tooltip = tr("New Trip")
        listHeader.packEnd(newTrip)

        searchField.setMargins(top: 6, bottom: 6, start: 12, end: 12)

        let newTripFromEmpty = Button(label: tr("_New Trip"))
        newTripFromEmpty.addCssClass("pill")
        newTripFromEmpty.addCssClass("suggested-action")
        newTripFromEmpty.align(horizontal: .center)
        let empty = StatusPage(iconName: "emoji-travel-symbolic", title: tr("No Trips"),
                               description: tr("Create a trip, then add what you spend on it"),
                               child: newTripFromEmpty)
        let noResults = StatusPage(iconName: "edit-find-symbolic", title: tr("No Results Found"),
                                   description: tr("Try a different search"))
        listStack.add(empty, named: "empty")
        listStack.add(noResults, named: "no-results")
        listStack.add(readErrorPage, named: "read-error")
        listStack.expandsVertically = true
        errorLabel.isVisible = false
        errorLabel.setMargins(12)

        listPane = Box(.vertical, children: [listHeader, searchField, errorLabel, listStack])
        listPane.setSizeRequest(width: 280)
        detail = TripDetailView(repository: repository, context: context)
        detail.widget.expandsHorizontally = true
        widget.append(listPane)
        widget.append(Separator(.vertical), navigatable: false)
        widget.append(detail.widget)

        tripList = ListView(positions: positions, content: { [weak self] position in
            self?.rowContent(at: position)
        }, reopen: { [weak self] in
            guard let self, self.widget.isFolded, self.selectedTripID != nil else { return }
            self.widget.visibleChild = self.detail.widget
        })
        tripList.accessibleLabel = tr("Trips")
        tripList.onSelectionChanged { [weak self] in
            guard let self, !self.isUpdating, let index = self.tripList.selectedIndex,
                  self.summaries.indices.contains(index) else { return }
            self.select(self.summaries[index].id, showDetail: self.widget.isFolded)
        }
        let scroller = ScrolledWindow(child: tripList)
        listStack.add(scroller, named: "trips")

        newTrip.onClicked { [weak self] in self?.showNewTripDialog() }
        newTripFromEmpty.onClicked { [weak self] in self?.showNewTripDialog() }
        searchField.onSearchChanged { [weak self] in self?.reload() }
        detail.onBack = { [weak self] in self?.widget.navigateBack() }
        detail.onTripChanged = { [weak self] in self?.reload() }
        detail.onDeleteTrip = { [weak self] id in self?.deleteTrip(id) }
        detail.onEditTrip = { [weak self] trip in self?.showEditTripDialog(trip) }
        widget.onFoldedChanged { [weak self] in self?.updateFolding() }
        updateFolding()
        reload()
    }

    func focusSearch() { _ = searchField.grabFocus() }

    /// Reads the trips again, keeping the selection when the trip is still listed.
    public func reload() {
        do {
            summaries = try repository.tripSummaries(matching: searchField.text)
            errorLabel.isVisible = false
        } catch {
            summaries = []
            showRows()
            readErrorPage.pageDescription = error.localizedDescription
            listStack.visibleChildName = "read-error"
            return
        }
        showRows()
        if summaries.isEmpty {
            listStack.visibleChildName = searchField.text.isEmpty ? "empty" : "no-results"
        } else {
            listStack.visibleChildName = "trips"
        }
        // A deleted trip is deselected; one that cannot be read stays, and its pane says why.
        if let selectedTripID, case .success(nil) = Result(catching: { try repository.trip(selectedTripID) }) {
            select(nil, showDetail: false)
        }
    }

    /// Shows a trip's detail (or none).
    public func select(_ id: TripID?, showDetail: Bool) {
        selectedTripID = id
        detail.show(id)
        markSelection()
        if showDetail, id != nil { widget.visibleChild = detail.widget }
    }

    /// What the row at `position` shows.
    func rowContent(at position: Int) -> SummaryRowContent? {
        guard summaries.indices.contains(position) else { return nil }
        let summary = summaries[position]
        // The dates take the whole second line: a trip pane is narrow, and its count is in the detail.
        return SummaryRowContent(title: summary.trip.name, subtitle: summary.trip.days.formatted(),
                                 amount: moneyFormatter.string(from: summary.total), detail: "")
    }

    /// Lists `summaries` again: the rows on screen read their trips anew.
    private func showRows() {
        isUpdating = true
        positions.count = summaries.count
        isUpdating = false
        markSelection()
        tripList.rebindVisibleRows()
    }

    /// Highlights the chosen trip's row, if it is listed, without taking that as a new choice.
    private func markSelection() {
        isUpdating = true
        tripList.selectedIndex = selectedTripID.flatMap { id in summaries.firstIndex { $0.id == id } }
        isUpdating = false
        if let index = tripList.selectedIndex { tripList.scrollTo(index) }
    }

    /// The texts of the row bound to `position`, if one is.
    func rowTexts(at position: Int) -> [String]? {
        tripList.rowWidgets.first { $0.position == position }?.texts
    }

    @discardableResult
    public func showNewTripDialog() -> TripDialog {
        let dialog = TripDialog(repository: repository, editing: nil, parent: context.window,
                                defaultCurrency: context.businessCurrency)
        dialog.onSaved = { [weak self] trip in
            guard let self else { return }
            self.searchField.text = ""
            self.reload()
            self.select(trip.id, showDetail: true)
        }
        tripDialog = dialog
        dialog.present()
        return dialog
    }

    @discardableResult
    func showEditTripDialog(_ trip: Trip) -> TripDialog {
        let dialog = TripDialog(repository: repository, editing: trip, parent: context.window)
        dialog.onSaved = { [weak self] trip in
            guard let self else { return }
            self.reload()
            self.select(trip.id, showDetail: false)
        }
        tripDialog = dialog
        dialog.present()
        return dialog
    }

    /// Deletes the trip at once and offers Undo; its receipt files go when Undo is no longer offered.
    public func deleteTrip(_ id: TripID) {
        let deleted: DeletedTrip
        do {
            deleted = try repository.deleteTrip(id)
        } catch {
            context.showToast(error.localizedDescription)
            return
        }
        pendingTripDeletions[deleted.token] = deleted
        if selectedTripID == id { select(nil, showDetail: false) }
        reload()
        if widget.isFolded { widget.visibleChild = listPane }
        context.showToast(String(format: tr("“%@” deleted"), deleted.trip.name), undoLabel: tr("_Undo")) { [weak self] in
            self?.undoDeletion(deleted)
        }
        MainLoop.after(milliseconds: Self.undoWindow) { [weak self] in self?.purge(deleted) }
    }

    private func undoDeletion(_ deleted: DeletedTrip) {
        guard pendingTripDeletions.removeValue(forKey: deleted.token) != nil else { return }
        do {
            let trip = try repository.restore(deleted)
            reload()
            select(trip.id, showDetail: false)
        } catch {
            context.showToast(error.localizedDescription)
        }
    }

    private func purge(_ deleted: DeletedTrip) {
        guard pendingTripDeletions.removeValue(forKey: deleted.token) != nil else { return }
        try? repository.purgeDeletedReceipts(deleted)
    }

    /// Ends every open Undo now (the plugin is going away).
    func endPendingUndos() {
        for deleted in pendingTripDeletions.values { purge(deleted) }
        detail.endPendingUndos()
    }

    private func updateFolding() {
        let folded = widget.isFolded
        listHeader.showsEndTitleButtons = folded
        detail.setFolded(folded)
    }
}
