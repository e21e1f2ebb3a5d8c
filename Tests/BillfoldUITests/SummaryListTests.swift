import BillfoldUI
import GObjectCore
import GtkKit
import Testing
import TestSupport

@Suite(.serialized, needsDisplay) @MainActor
struct SummaryListTests {
    /// On a narrow window the list is hidden once a row is chosen; coming back, a click on the
    /// row still chosen, or activating any row, must show the record again.
    @Test func aClickOnTheChosenRowOrAnActivationReopens() async throws {
        var reopened = 0
        let list = ListView(positions: PositionList(count: 3), content: { position in
            SummaryRowContent(title: "Record \(position)", subtitle: "Client", amount: "€1.00", detail: "")
        }, reopen: { reopened += 1 })
        let window = TestWindow(content: ScrolledWindow(child: list), width: 400, height: 400)
        defer { window.close() }
        #expect(await MainLoop.wait(until: { Set(list.rowWidgets.compactMap(\.position)) == [0, 1, 2] }))
        func press(_ position: Int) throws {
            try #require(list.rowWidgets.first { $0.position == position }).simulateClick()
        }

        // A press on a row not chosen yet chooses it; the selection shows it, not this.
        try press(1)
        #expect(reopened == 0)
        list.selectedIndex = 1
        try press(1)
        #expect(reopened == 1)
        try press(0)
        #expect(reopened == 1)
        list.activate(at: 2)
        #expect(reopened == 2)
        #expect(list.hasCssClass("rich-list"))
        #expect(list.rowWidgets.first { $0.position == 0 }?.texts.first == "Record 0")
    }
}
