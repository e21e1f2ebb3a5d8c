import GtkKit
import Testing
import TestSupport
@testable import BillfoldApp

@Suite(.serialized, needsDisplay) @MainActor
struct SidebarTests {
    @Test func onlyTheUsersChoiceIsReportedNotTheWindowsOwnSelection() {
        let sidebar = Sidebar()
        sidebar.setEntries([
            Sidebar.Entry(id: "invoices", title: "Invoices", iconName: "x-office-document-symbolic", failed: false),
            Sidebar.Entry(id: "expenses", title: "Expenses", iconName: "x-office-document-symbolic", failed: false),
        ])
        var chosen: [String] = []
        sidebar.onPageSelected = { chosen.append($0) }
        // The window showing a page selects its row: that must not come back as a choice,
        // or the page would be shown twice and a narrow window would leave the sidebar.
        sidebar.select("expenses")
        #expect(sidebar.list.selectedIndex == 1)
        #expect(chosen.isEmpty)
        sidebar.list.selectedIndex = 0
        #expect(chosen == ["invoices"])
    }
}
