import Foundation

let status = LicenseToolCommand().run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
