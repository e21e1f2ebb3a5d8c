import CommandLineAPI
import Testing
@testable import Billfold

@Suite struct CommandLineTests {
    private let echo = CommandLineCommand(name: "echo", usage: ["echo WORDS"]) { arguments, _ in
        arguments == ["a", "b"] ? 7 : 1
    }

    @Test func noArgumentsOpensTheWindow() {
        #expect(CommandLineInterface(commands: [echo]).run([]) == nil)
    }

    @Test func aPluginCommandGetsTheRestOfTheArguments() {
        #expect(CommandLineInterface(commands: [echo]).run(["echo", "a", "b"]) == 7)
    }

    @Test func helpListsEveryCommand() {
        let interface = CommandLineInterface(commands: [echo])
        #expect(interface.run(["--help"]) == 0)
        #expect(interface.usage.contains("billfold echo WORDS"))
        #expect(interface.usage.contains("--version"))
    }

    @Test func versionAndUnknownWords() {
        let interface = CommandLineInterface(commands: [])
        #expect(interface.run(["--version"]) == 0)
        #expect(interface.run(["frobnicate"]) == 2)
    }
}
