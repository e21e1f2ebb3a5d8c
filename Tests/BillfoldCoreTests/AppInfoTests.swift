import BillfoldCore
import Foundation
import Testing

@Suite struct AppInfoTests {
    /// `billfold` finds `billfold-app` and its data beside itself, through any symbolic link.
    @Test func theExecutableDirectoryHoldsTheRunningProgramWithoutLinks() throws {
        let name = try #require(CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent })
        let directory = AppInfo.executableDirectory
        #expect(directory.hasPrefix("/"))
        #expect(FileManager.default.isExecutableFile(atPath: directory + "/" + name))
        #expect(URL(fileURLWithPath: directory).resolvingSymlinksInPath().path == directory)
    }
}
