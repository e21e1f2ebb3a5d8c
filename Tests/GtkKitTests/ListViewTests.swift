import Foundation
import GObjectCore
import Testing
import TestSupport
@testable import GtkKit

@Suite(.serialized, needsDisplay) @MainActor
struct ListViewTests {
    /// A list of many ids builds widgets only for the rows on screen, and binds them by id.
    @Test func bindsOnlyTheVisibleRows() async {
        let ids = StringList((0..<100_000).map(String.init))
        var bound: [String: Int] = [:]
        let list = ListView(model: ids, makeRow: { Label("", wraps: false) }, bind: { row, id, position in
            row.text = "row \(id)"
            bound[id] = position
        })
        let window = AdwaitaWindow()
        window.content = ScrolledWindow(child: list)
        window.setDefaultSize(width: 300, height: 400)
        window.present()
        let shown = await MainLoop.wait(until: { bound["0"] != nil })
        #expect(shown)
        #expect(bound["0"] == 0)
        #expect(list.rowWidgetCount > 0)
        #expect(list.rowWidgetCount < 500)
        #expect(bound["99999"] == nil)
        window.destroy()
    }

    @Test func selectsByPositionAndReportsTheId() {
        let list = ListView(model: StringList(["7", "8", "9"]), makeRow: { Label("") }, bind: { _, _, _ in })
        #expect(list.selectedIndex == nil)
        var changes = 0
        list.onSelectionChanged { changes += 1 }
        list.selectedIndex = 1
        #expect(list.selectedIndex == 1)
        #expect(list.selectedID == "8")
        #expect(changes == 1)
        list.selectedIndex = nil
        #expect(list.selectedID == nil)
    }

    @Test func stringListEditsInPlace() {
        let ids = StringList(["a", "b", "c"])
        ids.replace(at: 1, with: "B")
        ids.insert("z", at: 0)
        ids.remove(at: 3)
        #expect((0..<ids.count).compactMap { ids[$0] } == ["z", "a", "B"])
        #expect(ids.firstIndex(of: "B") == 2)
        #expect(ids.firstIndex(of: "c") == nil)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct SearchAndChoiceWidgetTests {
    @Test func searchEntryKeepsItsText() {
        let entry = SearchEntry(placeholder: "Search")
        entry.text = "acme"
        #expect(entry.text == "acme")
    }

    /// Typing adds at the end and searches once; replacing the text clears it first, which
    /// searches for the empty text too.
    @Test func typingSearchesOnceForTheNewText() async {
        let entry = SearchEntry()
        entry.setProperty("search-delay", 0)
        entry.text = "ac"
        var searched: [String] = []
        entry.onSearchChanged { searched.append(entry.text) }
        entry.type("mé")
        #expect(entry.text == "acmé")
        #expect(await MainLoop.wait(until: { !searched.isEmpty }))
        _ = await MainLoop.wait(until: { searched.count > 1 }, timeout: 0.2)
        #expect(searched == ["acmé"])
        searched = []
        entry.text = "web"
        #expect(await MainLoop.wait(until: { searched.count == 2 }))
        #expect(searched == ["", "web"])
    }

    @Test func checkButtonsInAGroupAreExclusive() {
        let first = CheckButton(label: "Date")
        let second = CheckButton(label: "Amount")
        second.join(first)
        first.isActive = true
        var toggles = 0
        second.onToggled { toggles += 1 }
        second.isActive = true
        #expect(second.isActive)
        #expect(!first.isActive)
        #expect(toggles == 1)
    }

    @Test func popoverButtonHoldsItsContent() {
        let content = Label("inside")
        let button = PopoverButton(iconName: "view-sort-descending-symbolic", content: content, accessibleLabel: "Sort")
        #expect(button.accessibleLabel == "Sort")
        #expect(content.isInside(button))
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct PlainTextRowTests {
    @Test func showsMarkupCharactersAsTyped() {
        let row = ActionRow.plain(title: "Smith & Sons <Ltd>", subtitle: "a & b")
        #expect(row.title == "Smith & Sons <Ltd>")
        #expect(row.subtitle == "a & b")
        #expect(!row.boolProperty("use-markup"))
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct PositionListTests {
    /// A length alone: growing and shrinking reuse the same blank rows, and views see only
    /// the change at the end.
    @Test func changesOnlyItsLength() async {
        let positions = PositionList(count: 3)
        #expect(positions.count == 3)
        #expect(positions[2] == "")
        #expect(positions[3] == nil)
        var bound: [Int] = []
        let list = ListView(model: positions, makeRow: { Label("") }, bind: { _, _, position in bound.append(position) })
        let window = AdwaitaWindow()
        window.content = ScrolledWindow(child: list)
        window.setDefaultSize(width: 300, height: 400)
        window.present()
        #expect(await MainLoop.wait(until: { Set(bound) == [0, 1, 2] }))
        positions.count = 100_000
        #expect(positions.count == 100_000)
        positions.count = 12
        #expect(positions.count == 12)
        bound = []
        list.rebindVisibleRows()
        #expect(bound.count <= 12)
        #expect(bound.contains(0))
        positions.count = 0
        #expect(positions[0] == nil)
        window.destroy()
    }
}
