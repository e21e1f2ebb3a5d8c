import BillfoldCore
import BillfoldUI
import EntitlementsCore
import Foundation
import GObjectCore
import GtkKit
import Licensing

/// The Enter Licence dialog: paste the licence block, choose the licence file, or drop it onto
/// the dialog. What was entered is checked as it changes; Activate is enabled only for a
/// licence that activating would accept.
@MainActor
final class EnterLicenseDialog: FormWindow {
    let textView = TextView()
    let feedbackIcon = Image(iconName: "dialog-information-symbolic")
    let feedbackLabel = Label("")
    let activateButton = Button(label: tr("_Activate"))
    let cancelButton = Button(label: tr("_Cancel"))
    let chooseFileButton = Button(label: tr("C_hoose File…"))
    let dropTarget: FileDropTarget
    private(set) var outcome: LicenseInputOutcome = .empty
    /// The open-file dialog while it is shown.
    private(set) var fileChooser: FileChooser?

    private let check: LicenseInputCheck
    private let activate: @MainActor (String) throws(LicenseError) -> Void
    private var isLoadingFile = false

    /// `activate` installs the licence text; it throws to keep the dialog open with the reason.
    init(parent: Window?, check: LicenseInputCheck,
         activate: @escaping @MainActor (String) throws(LicenseError) -> Void) {
        self.check = check
        self.activate = activate

        let header = HeaderBar(dialogTitle: tr("Enter Licence"), cancel: cancelButton, action: activateButton)
        activateButton.isSensitive = false

        let intro = Label(tr("Paste the licence you received, from its BEGIN line to its END line. You can also choose the licence file, or drop it onto this window."))
        intro.xAlign = 0

        textView.isMonospace = true
        textView.setTextMargins(10)
        textView.accessibleLabel = tr("Licence text")
        let textScroller = ScrolledWindow(child: textView)
        textScroller.setProperty("has-frame", true)
        textScroller.setSizeRequest(height: 180)
        textScroller.expandsVertically = true

        feedbackIcon.align(vertical: .start)
        feedbackLabel.xAlign = 0
        feedbackLabel.expandsHorizontally = true
        feedbackLabel.isSelectable = true
        let feedback = Box(.horizontal, spacing: 8, children: [feedbackIcon, feedbackLabel])

        chooseFileButton.align(horizontal: .start)

        let body = Box(.vertical, spacing: 12, children: [intro, textScroller, feedback, chooseFileButton])
        body.setMargins(top: 12, bottom: 18, start: 18, end: 18)
        body.expandsVertically = true
        dropTarget = FileDropTarget(attachedTo: body)

        super.init()
        self.content = Box(.vertical, children: [header, body])
        makeForm(title: tr("Enter Licence"), over: parent, width: 620, height: 480, submitButton: activateButton,
                 submit: { [weak self] in self?.activateLicense() }, values: { [weak self] in [self?.textView.text ?? ""] })
        setSizeRequest(width: 360, height: 360)

        // Weak: the window's signals may outlive this object while GTK tears the window down.
        textView.onChanged { [weak self] in self?.revalidate() }
        cancelButton.onClicked { [weak self] in self?.close() }
        activateButton.onClicked { [weak self] in self?.activateLicense() }
        chooseFileButton.onClicked { [weak self] in self?.chooseFile() }
        dropTarget.onDrop { [weak self] path in
            guard let self else { return false }
            guard let path else {
                self.showFileProblem(tr("This file is not stored on this computer. Copy it here first, then drop or choose it again."))
                return false
            }
            self.load(fileAt: URL(fileURLWithPath: path))
            return true
        }
        revalidate()
    }

    override func present() {
        super.present()
        textView.grabFocus()
    }

    // MARK: Input

    /// Puts a chosen or dropped file's licence in the text view, or says why it cannot be used.
    func load(fileAt url: URL) {
        switch check.read(fileAt: url) {
        case .success(let text):
            textView.text = text
        case .failure(let error):
            showFileProblem(error.localizedDescription)
        }
    }

    private func chooseFile() {
        let chooser = FileChooser(title: tr("Choose a Licence File"), parent: self, acceptLabel: tr("_Open"), filters: [
            FileFilter(name: tr("Billfold licences"), suffixes: [LicenseVerifier.fileExtension]),
            FileFilter(name: tr("All files"), patterns: ["*"]),
        ])
        fileChooser = chooser
        chooser.open { [weak self] path in
            guard let self else { return }
            self.fileChooser = nil
            if let path { self.load(fileAt: URL(fileURLWithPath: path)) }
        }
    }

    /// A file that could not be read replaces what was entered, so the message and the
    /// Activate button speak of the same thing.
    private func showFileProblem(_ message: String) {
        isLoadingFile = true
        textView.text = ""
        isLoadingFile = false
        revalidate()
        showFeedback(message, kind: .error)
    }

    private func revalidate() {
        guard !isLoadingFile else { return }
        outcome = check.check(text: textView.text)
        activateButton.isSensitive = outcome.isValid
        switch outcome {
        case .empty:
            showFeedback(tr("A licence starts with -----BEGIN BILLFOLD LICENSE-----."), kind: .hint)
        case .valid(let summary, let standing):
            showFeedback(LicenseInputCheck.description(of: summary, standing: standing), kind: .valid)
        case .invalid(let error):
            showFeedback(error.localizedDescription, kind: .error)
        }
    }

    private enum FeedbackKind { case hint, valid, error }

    private func showFeedback(_ message: String, kind: FeedbackKind) {
        feedbackLabel.text = message
        textView.accessibleDescription = message
        feedbackIcon.iconName = switch kind {
        case .hint: "dialog-information-symbolic"
        case .valid: "object-select-symbolic"
        case .error: "dialog-error-symbolic"
        }
        for widget in [feedbackLabel, feedbackIcon] as [Widget] {
            widget.setCssClass("dim-label", enabled: kind == .hint)
            widget.setCssClass("success", enabled: kind == .valid)
            widget.setCssClass("error", enabled: kind == .error)
        }
    }

    // MARK: Activation

    private func activateLicense() {
        guard outcome.isValid else { return }
        do throws(LicenseError) {
            try activate(textView.text)
            closeAfterSubmitting()
        } catch {
            activateButton.isSensitive = false
            showFeedback(error.localizedDescription, kind: .error)
        }
    }
}
