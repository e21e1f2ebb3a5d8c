import CGtk
import GObjectCore
import Testing
import TestSupport
@testable import GtkKit

@Suite(.serialized, needsDisplay) @MainActor
struct KeyboardWidgetsTests {
    @Test func aDialogHasADefaultWidget() {
        let dialog = AdwaitaWindow()
        let save = Button(label: "_Save")
        dialog.content = save
        #expect(dialog.defaultWidget == nil)
        dialog.defaultWidget = save
        #expect(dialog.defaultWidget === save)
        dialog.destroy()
    }

    @Test func entriesCanActivateTheDefaultWidget() {
        let row = EntryRow(title: "Name")
        let entry = Entry()
        #expect(!row.activatesDefault && !entry.activatesDefault)
        row.activatesDefault = true
        entry.activatesDefault = true
        #expect(row.activatesDefault && entry.activatesDefault)
    }

    @Test func focusMovesIntoAContainer() {
        let window = AdwaitaWindow()
        let first = Button(label: "First")
        let second = Button(label: "Second")
        let inner = Box(.vertical, children: [second])
        window.content = Box(.vertical, children: [first, inner])
        window.present()
        #expect(inner.focusInside())
        #expect(second.hasFocus)
        window.destroy()
    }

    @Test func aPreferencesWindowShowsAPageByName() {
        let window = PreferencesWindow(parent: nil)
        let general = PreferencesPage(title: "General", iconName: "preferences-system-symbolic")
        general.add(PreferencesGroup(title: "Appearance"))
        let business = PreferencesPage(title: "Business", iconName: "x-office-document-symbolic")
        business.add(PreferencesGroup(title: "Your Business"))
        business.name = "business"
        window.add(general)
        window.add(business)
        window.showPage(named: "business")
        #expect(window.visiblePageName == "business")
        window.destroy()
    }

    @Test func aStatusPageTakesAChildLater() {
        let page = StatusPage(iconName: nil, title: "Welcome")
        #expect(page.child == nil)
        let button = Button(label: "_Set Up")
        page.child = button
        #expect(page.child === button)
    }

    @Test func aPopoverButtonReportsWhenItOpens() async {
        let window = AdwaitaWindow()
        let button = PopoverButton(iconName: "pan-down-symbolic", content: Label("Inside"), accessibleLabel: "More")
        window.content = button
        window.present()
        var opened = 0
        button.onOpened { opened += 1 }
        #expect(!button.isOpen)
        button.popup()
        #expect(await MainLoop.wait(until: { opened == 1 }))
        #expect(button.isOpen)
        button.popdown()
        #expect(!button.isOpen)
        window.destroy()
    }
}
