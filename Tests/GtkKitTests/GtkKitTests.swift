import CGtk
import GObjectCore
import Testing
import TestSupport
@testable import GtkKit

@Suite(.serialized, needsDisplay) @MainActor
struct WidgetTests {
    @Test func droppingTheLastWrapperFinalizesAWidget() {
        var label: Label? = Label("gone")
        let probe = FinalizationProbe(watching: label!)
        label = nil
        #expect(probe.isFinalized)
    }

    @Test func aParentKeepsItsChildAliveAfterTheWrapperGoes() {
        let box = Box(.vertical)
        var label: Label? = Label("kept")
        let probe = FinalizationProbe(watching: label!)
        box.append(label!)
        label = nil
        #expect(!probe.isFinalized)
        _ = box
    }

    @Test func aChildGoesRightAfterItsSibling() {
        let box = Box(.vertical)
        let first = Label("first")
        let last = Label("last")
        let middle = Label("middle")
        box.append(first)
        box.append(last)
        box.insert(middle, after: first)
        #expect(gtk_widget_get_next_sibling(first.widgetPointer) == middle.widgetPointer)
        #expect(gtk_widget_get_next_sibling(middle.widgetPointer) == last.widgetPointer)
    }

    @Test func aDialogIsModalOverItsParentWithItsTitleAndSize() {
        let parent = AdwaitaWindow()
        let dialog = AdwaitaWindow()
        dialog.makeDialog(title: "Record Payment", over: parent, width: 420)
        #expect(dialog.title == "Record Payment")
        #expect(dialog.isModal)
        #expect(dialog.transientParent === parent)
        #expect(dialog.defaultSize == (420, -1))
        dialog.destroy()
        parent.destroy()
    }

    @Test func buttonClickCallsTheHandler() {
        let button = Button(label: "_Save")
        var clicks = 0
        button.onClicked { clicks += 1 }
        button.click()
        #expect(clicks == 1)
        #expect(button.label == "_Save")
    }

    @Test func iconButtonsHaveAnAccessibleName() {
        let button = Button(iconName: "go-previous-symbolic", accessibleLabel: "Back")
        #expect(button.accessibleLabel == "Back")
        #expect(button.tooltip == "Back")
    }

    @Test func aStackIsAsTallAsItsVisibleChildOnly() {
        let stack = Stack()
        let tall = Box(.vertical)
        tall.setSizeRequest(height: 2_000)
        stack.add(Label("short"), named: "short")
        stack.add(tall, named: "tall")
        stack.visibleChildName = "short"
        #expect(naturalHeight(stack) < 2_000)
        stack.visibleChildName = "tall"
        #expect(naturalHeight(stack) >= 2_000)
        stack.isHomogeneous = true
        stack.visibleChildName = "short"
        #expect(naturalHeight(stack) >= 2_000)
    }

    private func naturalHeight(_ widget: Widget) -> Int {
        var minimum: gint = 0, natural: gint = 0
        gtk_widget_measure(widget.widgetPointer, GTK_ORIENTATION_VERTICAL, -1, &minimum, &natural, nil, nil)
        return Int(natural)
    }

    @Test func toggleButtonsInAGroupAreExclusive() {
        let first = ToggleButton(label: "10 %")
        let second = ToggleButton(label: "15 %")
        second.join(first)
        first.isActive = true
        second.isActive = true
        #expect(!first.isActive)
        #expect(second.isActive)
    }

    @Test func spinButtonClampsToItsRange() {
        let spin = SpinButton(range: 1...50)
        var changes = 0
        spin.onValueChanged { changes += 1 }
        spin.value = 80
        #expect(spin.value == 50)
        spin.value = 0
        #expect(spin.value == 1)
        #expect(changes == 2)
    }

    @Test func labelsWrapByDefaultAndKeepTheirText() {
        let label = Label("A long description")
        #expect(label.wraps)
        label.text = "Grüße, 日本語, עברית"
        #expect(label.text == "Grüße, 日本語, עברית")
    }

    @Test func entryRowReportsChanges() {
        let row = EntryRow(title: "Bill amount")
        var changes = 0
        row.onChanged { changes += 1 }
        row.text = "12,50"
        #expect(row.text == "12,50")
        #expect(changes >= 1)
        #expect(row.title == "Bill amount")
    }

    @Test func calendarViewSelectsAndReportsADay() {
        let calendar = CalendarView()
        var picked = 0
        calendar.onDaySelected { picked += 1 }
        calendar.selectedDay = (2024, 2, 29)
        #expect(calendar.selectedDay == (2024, 2, 29))
        #expect(picked >= 1)
        calendar.selectedDay = (1999, 12, 31)
        #expect(calendar.selectedDay == (1999, 12, 31))
    }

    @Test func comboRowSelection() {
        let row = ComboRow(title: "Currency", choices: ["EUR", "JPY", "BHD"])
        var changes = 0
        row.onSelectionChanged { changes += 1 }
        row.selectedIndex = 2
        #expect(row.selectedIndex == 2)
        #expect(row.model[2] == "BHD")
        #expect(changes == 1)
    }

    @Test func stackShowsTheNamedChild() {
        let stack = Stack()
        stack.add(Label("one"), named: "one")
        stack.add(Label("two"), named: "two")
        stack.visibleChildName = "two"
        #expect(stack.visibleChildName == "two")
        stack.visibleChildName = "missing"
        #expect(stack.visibleChildName == "two")
        stack.remove(named: "two")
        #expect(stack.child(named: "two") == nil)
    }

    @Test func listBoxSelectionReportsTheRow() {
        let list = ListBox()
        list.append(Label("a"))
        list.append(Label("b"))
        var selected: [Int?] = []
        list.onSelectionChanged { selected.append($0) }
        list.selectedIndex = 1
        #expect(list.selectedIndex == 1)
        #expect(selected == [1])
        list.removeAll()
        #expect(list.count == 0)
    }

    @Test func cssClassesToggle() {
        let row = EntryRow(title: "x")
        row.setCssClass("error", enabled: true)
        #expect(row.hasCssClass("error"))
        row.setCssClass("error", enabled: false)
        #expect(!row.hasCssClass("error"))
    }

    @Test func stringListReplacesItsContents() {
        let list = StringList(["a", "b"])
        list.replaceAll(with: ["x", "y", "z"])
        #expect(list.count == 3)
        #expect(list[0] == "x")
        #expect(list[3] == nil)
    }

    @Test func shortcutsWindowIsBuiltFromGroups() {
        let window = ShortcutsWindow(parent: nil, groups: [
            ShortcutGroup(title: "General & more", shortcuts: [ShortcutInfo(title: "Quit <now>", accelerator: "<Control>q")]),
        ])
        #expect(window.typeName == "GtkShortcutsWindow")
        window.destroy()
    }

    @Test func aDialogHeaderHasCancelAndASuggestedAction() {
        let cancel = Button(label: "_Cancel")
        let save = Button(label: "_Save")
        let header = HeaderBar(dialogTitle: "New Trip", subtitle: "Zürich", cancel: cancel, action: save)
        #expect(!header.showsStartTitleButtons)
        #expect(!header.showsEndTitleButtons)
        #expect(save.hasCssClass("suggested-action"))
        #expect(!cancel.hasCssClass("suggested-action"))
    }

    @Test func messageDialogReportsTheResponse() {
        let dialog = MessageDialog(parent: nil, heading: "Delete?", body: "It goes away.")
        #expect(dialog.heading == "Delete?")
        #expect(dialog.body == "It goes away.")
        dialog.addResponse("cancel", label: "_Cancel")
        dialog.addResponse("delete", label: "_Delete", appearance: .destructive)
        var responses: [String] = []
        dialog.onResponse { responses.append($0) }
        dialog.respond("delete")
        #expect(responses == ["delete"])
        dialog.destroy()
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct WindowTests {
    @Test func leafletFoldsOnANarrowWindow() async {
        let window = AdwaitaWindow()
        let leaflet = Leaflet()
        let sidebar = Label("sidebar")
        sidebar.setSizeRequest(width: 300)
        let content = Label("content")
        content.setSizeRequest(width: 400)
        leaflet.append(sidebar)
        leaflet.append(content)
        window.content = leaflet
        window.setDefaultSize(width: 1000, height: 400)
        window.present()
        let unfolded = await MainLoop.wait(until: { leaflet.width > 0 && !leaflet.isFolded })
        #expect(unfolded)
        window.setDefaultSize(width: 420, height: 400)
        let folded = await MainLoop.wait(until: { leaflet.isFolded })
        #expect(folded)
        window.destroy()
    }

    @Test func firstFrameCallbackRuns() async {
        let window = AdwaitaWindow()
        window.content = Label("frame")
        var drawn = false
        window.onFirstFrame { drawn = true }
        window.present()
        let done = await MainLoop.wait(until: { drawn })
        #expect(done)
        window.destroy()
    }

    @Test func toastOverlayRemembersTheLastToast() {
        let overlay = ToastOverlay(child: Label("content"))
        overlay.show("Invoice deleted", buttonLabel: "Undo") {}
        #expect(overlay.lastToastTitle == "Invoice deleted")
    }
}
