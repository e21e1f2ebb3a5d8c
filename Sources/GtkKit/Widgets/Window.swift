import CGtk
import GObjectCore

/// A `GtkWindow`. GTK owns toplevels, so wrappers retain them and `close()` ends them.
@MainActor
open class Window: Widget {
    package override init(adopting pointer: UnsafeMutableRawPointer) { super.init(adopting: pointer) }
    package override init(retaining pointer: UnsafeMutableRawPointer) { super.init(retaining: pointer) }

    package var windowPointer: UnsafeMutablePointer<GtkWindow> { pointer() }

    public var title: String? {
        get { gtk_window_get_title(windowPointer).map { String(cString: $0) } }
        set { gtk_window_set_title(windowPointer, newValue) }
    }

    public func setDefaultSize(width: Int, height: Int) {
        gtk_window_set_default_size(windowPointer, gint(width), gint(height))
    }

    public var defaultSize: (width: Int, height: Int) {
        var width: gint = 0, height: gint = 0
        gtk_window_get_default_size(windowPointer, &width, &height)
        return (Int(width), Int(height))
    }

    public var isMaximized: Bool { gtk_window_is_maximized(windowPointer) != 0 }
    public func maximize() { gtk_window_maximize(windowPointer) }

    public var isModal: Bool {
        get { gtk_window_get_modal(windowPointer) != 0 }
        set { gtk_window_set_modal(windowPointer, newValue ? 1 : 0) }
    }

    public var transientParent: Window? {
        didSet { gtk_window_set_transient_for(windowPointer, transientParent?.windowPointer) }
    }

    /// Makes the window a dialog over `parent`: titled, modal, kept above it, at a default size
    /// (-1: as tall as its content asks), closed by Escape and Ctrl+W as every dialog is.
    public func makeDialog(title: String, over parent: Window?, width: Int, height: Int = -1) {
        self.title = title
        transientParent = parent
        isModal = true
        setDefaultSize(width: width, height: height)
        addShortcut("Escape") { [weak self] in self?.close() }
        addShortcut("<Control>w") { [weak self] in self?.close() }
    }

    /// The widget Return activates when the focused widget does not use it (an entry that
    /// activates the default, say): a dialog's suggested action.
    public var defaultWidget: Widget? {
        get { gtk_window_get_default_widget(windowPointer).map { Widget.wrapper(ofWidget: untyped($0)) } }
        set { gtk_window_set_default_widget(windowPointer, newValue?.widgetPointer) }
    }

    public var hidesOnClose: Bool {
        get { gtk_window_get_hide_on_close(windowPointer) != 0 }
        set { gtk_window_set_hide_on_close(windowPointer, newValue ? 1 : 0) }
    }

    open func present() { gtk_window_present(windowPointer) }
    public func close() { gtk_window_close(windowPointer) }
    public func destroy() { gtk_window_destroy(windowPointer) }

    /// The widget that has keyboard focus inside the window.
    public var focusedWidget: Widget? {
        guard let focus = gtk_window_get_focus(windowPointer) else { return nil }
        return Widget.wrapper(ofWidget: untyped(focus))
    }

    /// `handler` returns true to keep the window open.
    @discardableResult
    public func onCloseRequest(_ handler: @escaping @MainActor () -> Bool) -> SignalHandler {
        connectReturningBool("close-request", handler)
    }

    /// Calls `handler` after the first frame of this window has been drawn.
    public func onFirstFrame(_ handler: @escaping @MainActor () -> Void) {
        var handled = false
        var mapHandler: SignalHandler?
        mapHandler = connect("map", after: true) { [weak self] in
            guard let self, !handled else { return }
            handled = true
            mapHandler?.disconnect()
            guard let surface = gtk_native_get_surface(OpaquePointer(self.widgetPointer)),
                  let clock = gdk_surface_get_frame_clock(surface) else { handler(); return }
            let clockObject = Object(retaining: untyped(clock))
            var after: SignalHandler?
            after = clockObject.connect("after-paint") {
                after?.disconnect()
                handler()
            }
        }
    }
}

/// An `AdwWindow`: a plain window with libadwaita styling, e.g. for dialogs.
@MainActor
open class AdwaitaWindow: Window {
    public init() {
        super.init(retaining: untyped(adw_window_new()))
    }

    public var content: Widget? {
        didSet { adw_window_set_content(pointer(), content?.widgetPointer) }
    }
}

/// An `AdwApplicationWindow`.
@MainActor
public final class ApplicationWindow: Window {
    public init(application: AdwaitaApplication) {
        super.init(retaining: untyped(adw_application_window_new(application.gtkApplicationPointer)))
    }

    public var content: Widget? {
        didSet { adw_application_window_set_content(pointer(), content?.widgetPointer) }
    }

    /// Adds a window-scoped action, reachable as `win.<name>`.
    public func add(_ action: SimpleAction) {
        g_action_map_add_action(OpaquePointer(widgetPointer), action.actionPointer)
    }
}
