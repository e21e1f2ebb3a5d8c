import GtkKit

extension ListView where Row == SummaryRowView {
    /// A rich list of summary rows bound by position, as every list of records is shown.
    ///
    /// On a narrow window, choosing a row shows its record in place of the list. `reopen` runs
    /// when a person comes back and clicks the row still chosen, or activates a row (Enter,
    /// double click): neither changes the selection, so only this can show the record again.
    public convenience init(positions: PositionList, content: @escaping @MainActor (Int) -> SummaryRowContent?,
                            reopen: @escaping @MainActor () -> Void) {
        let list = WeakSummaryList()
        self.init(model: positions, makeRow: {
            let row = SummaryRowView(content: content)
            // The row sees the click before the list selects it, so a row the click chooses is
            // opened by the selection, not here; a drag to scroll is no click.
            row.onClick { [weak row] in
                guard let position = row?.position, list.view?.selectedIndex == position else { return }
                reopen()
            }
            return row
        }, bind: { row, _, position in
            row.bind(position: position)
        })
        list.view = self
        onActivated { _ in reopen() }
        styleAsRichList()
    }
}

/// The list its rows' press handlers look at: held weakly, because the list holds the rows.
@MainActor
private final class WeakSummaryList {
    weak var view: ListView<SummaryRowView>?
}
