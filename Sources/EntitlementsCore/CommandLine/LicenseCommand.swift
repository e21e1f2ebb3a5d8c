import BillfoldCore
import Foundation
import Licensing
import Plans
import CommandLineAPI

/// `billfold license status`: the plan the installed licence gives, in the Billfold Pro page's words.
enum LicenseCommand {
    static let command = CommandLineCommand(name: "license", usage: ["license status"]) { arguments, environment in
        guard arguments == ["status"] else {
            environment.complain(tr("Usage: billfold license status"))
            return 2
        }
        let licenceFile = AppPaths.configDirectory.appendingPathComponent("license." + LicenseVerifier.fileExtension)
        let presentation = ProStatusPresentation(status: environment.plan(),
                                                 hasLicenseFile: FileManager.default.fileExists(atPath: licenceFile.path))
        FileHandle.standardOutput.write(Data((text(of: presentation) + "\n").utf8))
        return 0
    }

    /// The plan's name on the first line, then what it means and the licence's facts.
    static func text(of presentation: ProStatusPresentation) -> String {
        var lines = [presentation.title, presentation.summary]
        if let problem = presentation.problem { lines.append(problem) }
        lines += presentation.facts.map { String(format: tr("%@: %@"), $0.title, $0.value) }
        return lines.joined(separator: "\n")
    }
}

/// `billfold license …`, and the plan every command obeys: Billfold Pro's part of the command
/// line, which runs without a display.
public enum LicenseCommands: CommandLineModule {
    public static var commands: [CommandLineCommand] { [LicenseCommand.command] }

    /// The installed licence's plan, checked against the trusted key as the window does.
    @MainActor public static func commandLinePlan() -> EntitlementStatus? {
        LicenseStore(directory: AppPaths.configDirectory, publicKey: TrustedKey.current, clock: { Date() }).status
    }
}
