import BillfoldCore
import GtkKit

/// A dialog holding a form. Its suggested action is the window's default widget, so Return in a
/// field submits; Ctrl+Return submits from anywhere, a multi-line field included. Closing a form
/// whose values changed since it opened (Escape, Cancel, Ctrl+W, the close button) asks first;
/// an unchanged form just closes.
@MainActor
open class FormWindow: AdwaitaWindow {
    private var submit: (@MainActor () -> Void)?
    private weak var submitButton: Button?
    private var values: (@MainActor () -> [String])?
    private var valuesWhenShown: [String]?
    private var closesWithoutAsking = false
    /// The “Discard Changes?” question while it is shown.
    public private(set) weak var discardQuestion: MessageDialog?

    /// Sets the window up as a dialog over `parent` (see `makeDialog`). `submit` runs for the
    /// suggested action and Ctrl+Return; it shows what is wrong when the form cannot be saved.
    /// `values` lists what the fields hold; the form has changes when it differs from when it
    /// was shown.
    public func makeForm(title: String, over parent: Window?, width: Int, height: Int = -1, submitButton: Button,
                         submit: @escaping @MainActor () -> Void, values: @escaping @MainActor () -> [String]) {
        makeDialog(title: title, over: parent, width: width, height: height)
        defaultWidget = submitButton
        self.submitButton = submitButton
        self.submit = submit
        self.values = values
        for accelerator in ["<Control>Return", "<Control>KP_Enter"] {
            addShortcut(accelerator, capturing: true) { [weak self] in self?.submit?() }
        }
        onCloseRequest { [weak self] in
            guard let self, !self.closesWithoutAsking, self.hasChanges else { return false }
            self.askToDiscard()
            return true
        }
    }

    /// Return in these fields submits: through the default widget when the form can be saved,
    /// otherwise by trying, which shows what is missing.
    public func submitsOnReturn(_ rows: [EntryRow]) {
        for row in rows {
            row.activatesDefault = true
            row.onEntryActivated { [weak self] in self?.submitUnlessDefaultWill() }
        }
    }

    public func submitsOnReturn(_ entries: [Entry]) {
        for entry in entries {
            entry.activatesDefault = true
            entry.onActivated { [weak self] in self?.submitUnlessDefaultWill() }
        }
    }

    private func submitUnlessDefaultWill() {
        guard submitButton?.isSensitive == false else { return }
        submit?()
    }

    open override func present() {
        if valuesWhenShown == nil { valuesWhenShown = values?() }
        super.present()
    }

    /// Whether a field differs from when the form was shown.
    public var hasChanges: Bool {
        guard let valuesWhenShown, let values else { return false }
        return values() != valuesWhenShown
    }

    /// Closes the form after its values were saved, without asking.
    public func closeAfterSubmitting() {
        closesWithoutAsking = true
        close()
    }

    private func askToDiscard() {
        guard discardQuestion == nil else { return }
        let question = MessageDialog(parent: self, heading: tr("Discard Changes?"),
                                     body: tr("What you typed in this form has not been saved."))
        question.addResponse("keep", label: tr("_Keep Editing"))
        question.addResponse("discard", label: tr("_Discard"), appearance: .destructive)
        question.setDefaultResponse("keep")
        question.setCloseResponse("keep")
        question.onResponse { [weak self] response in
            guard response == "discard", let self else { return }
            self.closeAfterSubmitting()
        }
        discardQuestion = question
        question.present()
    }
}
