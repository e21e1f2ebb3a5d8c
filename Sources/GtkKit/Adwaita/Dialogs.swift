import CGtk
import GObjectCore

/// An `AdwMessageDialog`: a question with a few responses.
@MainActor
public final class MessageDialog: Window {
    public enum Appearance { case normal, suggested, destructive }

    public init(parent: Window?, heading: String, body: String) {
        super.init(retaining: untyped(adw_message_dialog_new(parent?.windowPointer, heading, body)))
    }

    public var heading: String { adw_message_dialog_get_heading(pointer()).map { String(cString: $0) } ?? "" }
    public var body: String { adw_message_dialog_get_body(pointer()).map { String(cString: $0) } ?? "" }

    public func addResponse(_ id: String, label: String, appearance: Appearance = .normal) {
        adw_message_dialog_add_response(pointer(), id, label)
        let value: AdwResponseAppearance = switch appearance {
        case .normal: ADW_RESPONSE_DEFAULT
        case .suggested: ADW_RESPONSE_SUGGESTED
        case .destructive: ADW_RESPONSE_DESTRUCTIVE
        }
        adw_message_dialog_set_response_appearance(pointer(), id, value)
    }

    public func setDefaultResponse(_ id: String) { adw_message_dialog_set_default_response(pointer(), id) }
    public func setCloseResponse(_ id: String) { adw_message_dialog_set_close_response(pointer(), id) }
    public func setResponseEnabled(_ id: String, _ enabled: Bool) {
        adw_message_dialog_set_response_enabled(pointer(), id, enabled ? 1 : 0)
    }

    /// A widget below the body, such as a list to choose from.
    public func setExtraChild(_ widget: Widget) { adw_message_dialog_set_extra_child(pointer(), widget.widgetPointer) }

    /// Calls `handler` with the chosen response id (the close response on Escape).
    @discardableResult
    public func onResponse(_ handler: @escaping @MainActor (String) -> Void) -> SignalHandler {
        connectWithPointer("response") { response in
            guard let response else { return }
            handler(String(cString: response.assumingMemoryBound(to: CChar.self)))
        }
    }

    /// Chooses a response as a click on its button would.
    public func respond(_ id: String) { adw_message_dialog_response(pointer(), id) }
}

/// The facts an About window shows.
public struct AboutInfo: Sendable {
    public var applicationName: String
    public var applicationIcon: String
    public var version: String
    public var developerName: String
    public var website: String
    public var issueURL: String
    public var copyright: String
    public var comments: String
    public var translatorCredits: String

    public init(applicationName: String, applicationIcon: String, version: String, developerName: String,
                website: String, issueURL: String, copyright: String, comments: String, translatorCredits: String) {
        self.applicationName = applicationName
        self.applicationIcon = applicationIcon
        self.version = version
        self.developerName = developerName
        self.website = website
        self.issueURL = issueURL
        self.copyright = copyright
        self.comments = comments
        self.translatorCredits = translatorCredits
    }
}

/// An `AdwAboutWindow`.
@MainActor
public final class AboutWindow: Window {
    public init(parent: Window?, info: AboutInfo) {
        super.init(retaining: untyped(adw_about_window_new()))
        transientParent = parent
        isModal = true
        adw_about_window_set_application_name(pointer(), info.applicationName)
        adw_about_window_set_application_icon(pointer(), info.applicationIcon)
        adw_about_window_set_version(pointer(), info.version)
        adw_about_window_set_developer_name(pointer(), info.developerName)
        adw_about_window_set_website(pointer(), info.website)
        adw_about_window_set_issue_url(pointer(), info.issueURL)
        adw_about_window_set_copyright(pointer(), info.copyright)
        adw_about_window_set_comments(pointer(), info.comments)
        adw_about_window_set_license_type(pointer(), GTK_LICENSE_GPL_3_0)
        if !info.translatorCredits.isEmpty { adw_about_window_set_translator_credits(pointer(), info.translatorCredits) }
    }
}

/// One shortcut in the Keyboard Shortcuts window.
public struct ShortcutInfo: Sendable {
    public var title: String
    public var accelerator: String
    public init(title: String, accelerator: String) {
        self.title = title
        self.accelerator = accelerator
    }
}

/// A titled group of shortcuts.
public struct ShortcutGroup: Sendable {
    public var title: String
    public var shortcuts: [ShortcutInfo]
    public init(title: String, shortcuts: [ShortcutInfo]) {
        self.title = title
        self.shortcuts = shortcuts
    }
}

/// A `GtkShortcutsWindow`, built from UI XML since GTK offers no other public constructor.
@MainActor
public final class ShortcutsWindow: Window {
    public init(parent: Window?, groups: [ShortcutGroup]) {
        let builder = gtk_builder_new_from_string(Self.interface(for: groups), -1)
        let window = gtk_builder_get_object(builder, "shortcuts")
        super.init(retaining: untyped(window))
        g_object_unref(UnsafeMutableRawPointer(builder))
        transientParent = parent
        isModal = true
    }

    static func interface(for groups: [ShortcutGroup]) -> String {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        var xml = "<interface><object class=\"GtkShortcutsWindow\" id=\"shortcuts\"><child>"
        xml += "<object class=\"GtkShortcutsSection\"><property name=\"section-name\">main</property>"
        for group in groups {
            xml += "<child><object class=\"GtkShortcutsGroup\"><property name=\"title\">\(escape(group.title))</property>"
            for shortcut in group.shortcuts {
                xml += "<child><object class=\"GtkShortcutsShortcut\">"
                xml += "<property name=\"title\">\(escape(shortcut.title))</property>"
                xml += "<property name=\"accelerator\">\(escape(shortcut.accelerator))</property></object></child>"
            }
            xml += "</object></child>"
        }
        xml += "</object></child></object></interface>"
        return xml
    }
}
