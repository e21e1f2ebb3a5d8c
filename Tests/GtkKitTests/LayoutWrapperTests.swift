import CGtk
import GObjectCore
import Testing
import TestSupport
@testable import GtkKit

@Suite(.serialized, needsDisplay) @MainActor
struct LayoutWrapperTests {
    @Test func theMinimumWidthIsWhatTheWidgetAsksForAtLeast() {
        let box = Box(.horizontal)
        box.setSizeRequest(width: 123)
        #expect(box.minimumWidth == 123)
        let wide = Box(.horizontal, children: [box, Separator(.vertical)])
        #expect(wide.minimumWidth > 123)
    }

    @Test func aButtonsLabelMovesToTheLeadingEdge() throws {
        let button = Button(label: "_Print…")
        button.alignContentToStart()
        let child = try #require(gtk_button_get_child(button.pointer()))
        #expect(gtk_widget_get_halign(child) == GTK_ALIGN_START)
        // A button without content is left as it is.
        Button(child: Box(.horizontal)).alignContentToStart()
    }

    @Test func aRowsTitleStopsAfterTheGivenLines() {
        let row = ActionRow(title: String(repeating: "long ", count: 400))
        #expect(row.titleLines == 0)
        row.titleLines = 3
        #expect(row.titleLines == 3)
    }

    @Test func aClickIsAReleaseOfTheFirstPress() {
        let box = Box(.horizontal)
        var clicks = 0
        let gesture = box.onClick { clicks += 1 }
        // The second release of a double click is not another click.
        bf_gesture_click_emit_released(gesture.rawPointer, 2, 4, 4)
        #expect(clicks == 0)
        box.simulateClick()
        #expect(clicks == 1)
    }

    /// A list view inside a clamp that passes its scrolling on is still a scrolled window's
    /// direct scrollable, so it makes rows only for what is on screen.
    @Test func aClampedListStillMakesOnlyTheRowsOnScreen() async {
        let list = ListView(model: PositionList(count: 10_000), makeRow: { Label("row", wraps: false) }, bind: { _, _, _ in })
        let window = AdwaitaWindow()
        window.content = ScrolledWindow(child: ClampScrollable(child: list, maximumWidth: 200))
        window.setDefaultSize(width: 400, height: 300)
        window.present()
        #expect(await MainLoop.wait(until: { list.rowWidgetCount > 0 }))
        #expect(list.rowWidgetCount < 500)
        #expect(list.width <= 200)
        window.destroy()
    }

    @Test func aRowNamesTheListItemThatHoldsIt() async throws {
        let list = ListView(model: StringList(["a", "b"]), makeRow: { Label("", wraps: false) }, bind: { row, id, _ in
            row.text = id
            row.listItemAccessibleLabel = "Row " + id
        })
        let window = AdwaitaWindow()
        window.content = ScrolledWindow(child: list)
        window.setDefaultSize(width: 300, height: 300)
        window.present()
        #expect(await MainLoop.wait(until: { list.rowWidgetCount == 2 }))
        for row in list.rowWidgets {
            let item = try #require(gtk_widget_get_parent(row.widgetPointer))
            #expect(item != list.widgetPointer)
            #expect(Widget.wrapper(ofWidget: item).accessibleLabel == "Row " + row.text)
            #expect(row.listItemAccessibleLabel == "Row " + row.text)
        }
        window.destroy()
    }

    @Test func aTextViewMeasuresItsLinesAndAScrolledWindowKeepsThem() {
        let view = TextView()
        view.setTextMargins(8)
        let one = view.height(ofLines: 1)
        let four = view.height(ofLines: 4)
        // Four lines are three lines more than one; the margins are counted once.
        #expect(one > 16)
        #expect(four - one == 3 * (one - 16))
        let frame = ScrolledWindow(child: view)
        frame.minimumContentHeight = four
        #expect(frame.minimumContentHeight == four)
        var minimum: gint = 0
        gtk_widget_measure(frame.widgetPointer, GTK_ORIENTATION_VERTICAL, 300, &minimum, nil, nil, nil)
        #expect(Int(minimum) >= four)
    }

    @Test func aHeaderBarGivesBackAWidgetItHeld() {
        let header = HeaderBar(title: WindowTitle(""))
        let actions = Box(.horizontal)
        header.packEnd(actions)
        #expect(actions.isInside(header))
        header.remove(actions)
        #expect(!actions.isInside(header))
        let slot = Box(.horizontal)
        slot.append(actions)
        #expect(actions.isInside(slot))
    }
}
