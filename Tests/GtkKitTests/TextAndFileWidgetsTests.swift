import CGtk
import Foundation
import GObjectCore
import Testing
import TestSupport
@testable import GtkKit

@Suite(.serialized, needsDisplay) @MainActor
struct LabelSelectionTests {
    @Test func aSelectionIsClearedOnRequest() {
        let label = Label("Globex")
        label.isSelectable = true
        #expect(!label.hasSelection)
        gtk_label_select_region(label.pointer(), 0, -1)
        #expect(label.hasSelection)
        label.clearSelection()
        #expect(!label.hasSelection)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct TextViewTests {
    @Test func keepsItsTextAndReportsChanges() {
        let view = TextView()
        var changes = 0
        view.onChanged { changes += 1 }
        view.text = "-----BEGIN\nAbc+/=\r\n€ 日本"
        #expect(view.text == "-----BEGIN\nAbc+/=\r\n€ 日本")
        #expect(view.characterCount == 23)
        #expect(changes >= 1)
        view.text = ""
        #expect(view.text.isEmpty)
        #expect(view.characterCount == 0)
    }

    @Test func isMonospaceAndWrapsWhenAsked() {
        let view = TextView(text: "x")
        #expect(view.wrapsAnywhere)
        #expect(!view.isMonospace)
        view.isMonospace = true
        view.wrapsAnywhere = false
        #expect(view.isMonospace)
        #expect(!view.wrapsAnywhere)
        view.isEditable = false
        #expect(!view.isEditable)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct BannerTests {
    @Test func revealsAndHidesAndStyles() {
        let banner = Banner(title: "Your licence expired", buttonLabel: "_Renew")
        #expect(!banner.isRevealed)
        banner.isRevealed = true
        #expect(banner.isRevealed)
        #expect(banner.title == "Your licence expired")
        banner.style = .warning
        banner.title = "3 days left"
        #expect(banner.title == "3 days left")
        banner.isRevealed = false
        #expect(!banner.isRevealed)
    }

    /// A closed revealer still measures its child, and the banner's wrapping label is measured
    /// at many widths: closed, the banner is hidden so that nothing measures it.
    @Test func aClosedBannerIsHiddenSoNothingMeasuresIt() {
        let banner = Banner(title: "Invoices start with your business name and address.", buttonLabel: "Set Up")
        #expect(!banner.isVisible)
        banner.isRevealed = true
        #expect(banner.isVisible)
        #expect(banner.isRevealed)
        banner.isRevealed = false
        #expect(!banner.isVisible)
        #expect(!banner.isRevealed)
    }

    @Test func buttonCallsTheHandler() {
        let banner = Banner(title: "x", buttonLabel: "Go")
        #expect(banner.buttonLabel == "Go")
        #expect(banner.buttonIsShown)
        var clicks = 0
        banner.onButtonClicked { clicks += 1 }
        banner.clickButton()
        #expect(clicks == 1)
        banner.buttonLabel = nil
        #expect(banner.buttonLabel == nil)
        #expect(!banner.buttonIsShown)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct FileDropTargetTests {
    @Test func aDroppedFileArrivesAsItsPath() throws {
        let area = Box(.vertical)
        let target = FileDropTarget(attachedTo: area)
        var dropped: [String?] = []
        target.onDrop { path in
            dropped.append(path)
            return path?.hasSuffix(".billfold-license") ?? false
        }
        let directory = FileManager.default.temporaryDirectory.path
        #expect(target.deliver(fileAt: directory + "/my licence.billfold-license"))
        #expect(!target.deliver(fileAt: directory + "/photo.png"))
        #expect(dropped == [directory + "/my licence.billfold-license", directory + "/photo.png"])
        #expect(!target.isHovering)
    }

    @Test func theWidgetKeepsItsTargetAfterTheWrapperGoes() {
        let area = Box(.vertical)
        var target: FileDropTarget? = FileDropTarget(attachedTo: area)
        let probe = FinalizationProbe(watching: target!)
        target!.onDrop { _ in true }
        target = nil
        #expect(!probe.isFinalized)
        _ = area
    }

    @Test func theTargetGoesWithItsWidget() {
        var area: Box? = Box(.vertical)
        var target: FileDropTarget? = FileDropTarget(attachedTo: area!)
        let probe = FinalizationProbe(watching: target!)
        target!.onDrop { _ in true }
        target = nil
        area = nil
        #expect(probe.isFinalized)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct FileChooserTests {
    /// GTK's own chooser reads its GSettings, which fixes where GIO looks for schemas: point it
    /// at the app's schema first, or suites that need the app's settings later find none.
    init() { _ = TestSettings.make() }

    @Test func reportsTheChosenPathThenLetsGo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gtkkit-chooser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("licence.billfold-license")
        try Data("x".utf8).write(to: file)

        let windowsBefore = toplevelCount()
        var chooser: FileChooser? = FileChooser(title: "Choose a Licence File", parent: nil, acceptLabel: "_Open",
                                                filters: [FileFilter(name: "Billfold licences", suffixes: ["billfold-license"])])
        let probe = FinalizationProbe(watching: try #require(chooser?.nativeDialog))
        var results: [String?] = []
        chooser!.open { results.append($0) }
        #expect(chooser!.isOpen)
        let shown = chooser!
        chooser = nil
        // Shown, it keeps itself alive.
        #expect(!probe.isFinalized)
        #expect(toplevelCount() == windowsBefore + 1)
        shown.respond(selecting: file.path)
        #expect(results == [file.path])
        #expect(!shown.isOpen)
        // GTK's dialog window is destroyed as soon as it has answered, though the chooser is
        // still held: no hidden window is left among the app's toplevels.
        #expect(probe.isFinalized)
        #expect(toplevelCount() == windowsBefore)
    }

    @Test func aChooserThatAnsweredCannotOpenAgain() {
        let chooser = FileChooser(title: "Open", parent: nil, acceptLabel: "_Open", filters: [])
        var results: [String?] = []
        chooser.open { results.append($0) }
        chooser.respond(selecting: nil)
        chooser.open { results.append($0) }
        #expect(!chooser.isOpen)
        #expect(results == [nil])
    }

    private func toplevelCount() -> Int {
        Int(g_list_model_get_n_items(gtk_window_get_toplevels()))
    }

    @Test func cancellingGivesNil() {
        let chooser = FileChooser(title: "Open", parent: nil, acceptLabel: "_Open", filters: [])
        var results: [String?] = []
        chooser.open { results.append($0) }
        chooser.respond(selecting: nil)
        #expect(results == [nil])
        #expect(!chooser.isOpen)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct CairoRenderingStartTests {
    /// GTK reads `GDK_DEBUG` once; the variable is put back so apps Billfold opens do not inherit it.
    @Test func leavesGDKDebugAsItWas() {
        let renderer = getenv("GSK_RENDERER").map { String(cString: $0) }
        defer {
            if let renderer { setenv("GSK_RENDERER", renderer, 1) } else { unsetenv("GSK_RENDERER") }
            unsetenv("GDK_DEBUG")
        }
        setenv("GSK_RENDERER", "Cairo", 1)
        unsetenv("GDK_DEBUG")
        Display.openWithoutGLForCairoRendering()
        #expect(getenv("GDK_DEBUG") == nil)
        setenv("GDK_DEBUG", "interactive", 1)
        Display.openWithoutGLForCairoRendering()
        #expect(getenv("GDK_DEBUG").map { String(cString: $0) } == "interactive")
    }
}
