import Foundation

enum TestSupport {
    struct ProcessFailed: Error, CustomStringConvertible {
        let status: Int32
        let output: String
        var description: String { "exit \(status): \(output)" }
    }

    /// Runs an executable built beside the test bundle and returns what it printed.
    static func run(executable name: String, arguments: [String] = []) throws -> String {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let process = Process()
        process.executableURL = directory.appendingPathComponent(name)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw ProcessFailed(status: process.terminationStatus, output: output) }
        return output
    }
}
