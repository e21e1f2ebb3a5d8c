import Foundation

public enum Processes {
    public struct Failed: Error, CustomStringConvertible {
        public let status: Int32
        public let output: String
        public var description: String { "exit \(status): \(output)" }
    }

    /// Runs an executable built beside the test bundle and returns what it printed.
    public static func run(builtProduct name: String, arguments: [String] = [],
                           environment: [String: String]? = nil) throws -> String {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let process = Process()
        process.executableURL = directory.appendingPathComponent(name)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw Failed(status: process.terminationStatus, output: output) }
        return output
    }
}
