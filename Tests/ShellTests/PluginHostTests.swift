import GObjectCore
import GtkKit
import PluginAPI
import Storage
import Testing
import TestSupport
@testable import BillfoldApp

@MainActor protocol Greeting: AnyObject { func greet() -> String }

@MainActor final class Greeter: Greeting { func greet() -> String { "hello" } }

@MainActor final class PublisherPlugin: Plugin {
    var info: PluginInfo { PluginInfo(id: "publisher", name: "Publisher", summary: "", iconName: "a") }
    private(set) var page: PluginPage?
    func activate(in context: PluginContext) throws {
        context.services.register(Greeter(), as: (any Greeting).self)
        page = PluginPage(title: "Publisher", iconName: "a", widget: Label("publisher"))
    }
}

@MainActor final class ConsumerPlugin: Plugin {
    var info: PluginInfo { PluginInfo(id: "consumer", name: "Consumer", summary: "", iconName: "b") }
    private(set) var page: PluginPage?
    private var services: ServiceRegistry?
    func activate(in context: PluginContext) throws {
        services = context.services
        page = PluginPage(title: "Consumer", iconName: "b", widget: Label("consumer"))
    }
    /// Looks the service up when needed, so activation order does not matter.
    func greeting() -> String { services?.resolve((any Greeting).self)?.greet() ?? "no greeter" }
}

struct BrokenDatabase: Error, CustomStringConvertible {
    var description: String { "the database is locked" }
}

@MainActor final class FailingPlugin: Plugin {
    var info: PluginInfo { PluginInfo(id: "failing", name: "Failing", summary: "", iconName: "c") }
    var page: PluginPage? { nil }
    func activate(in context: PluginContext) throws { throw BrokenDatabase() }
}

@Suite(.serialized, needsDisplay) @MainActor
struct PluginHostTests {
    /// The host keeps its shell weakly, as the window owns both; the test keeps the shell alive.
    private let shell = TestHost()

    private func makeHost(_ types: [any Plugin.Type], disabled: [String] = []) -> (PluginHost, TestHost) {
        let settings = TestSettings.make()
        settings?.set("disabled-plugins", disabled)
        let host = PluginHost(pluginTypes: types, settings: settings, database: Result { try Database.inMemory() })
        host.hosting = shell
        host.activateEnabledPlugins()
        return (host, shell)
    }

    @Test func registersEveryEnabledPluginsPageInOrder() {
        let (host, _) = makeHost([ConsumerPlugin.self, PublisherPlugin.self])
        #expect(host.pages.map(\.id) == ["consumer", "publisher"])
        #expect(host.pages.allSatisfy { !$0.failed })
    }

    @Test func aServiceIsFoundWhateverTheActivationOrder() throws {
        let (host, _) = makeHost([ConsumerPlugin.self, PublisherPlugin.self])
        let consumer = try #require(host.plugins.first as? ConsumerPlugin)
        #expect(consumer.greeting() == "hello")
    }

    @Test func aMissingServiceIsNilNotACrash() throws {
        let (host, _) = makeHost([ConsumerPlugin.self])
        let consumer = try #require(host.plugins.first as? ConsumerPlugin)
        #expect(consumer.greeting() == "no greeter")
        #expect(host.services.resolve((any Greeting).self) == nil)
    }

    @Test func aDisabledPluginIsNotActivatedAndItsServiceIsGone() throws {
        let (host, _) = makeHost([ConsumerPlugin.self, PublisherPlugin.self], disabled: ["publisher"])
        #expect(host.pages.map(\.id) == ["consumer"])
        let consumer = try #require(host.plugins.first as? ConsumerPlugin)
        #expect(consumer.greeting() == "no greeter")
        host.setEnabled("publisher", true)
        #expect(host.pages.map(\.id) == ["consumer", "publisher"])
        #expect(consumer.greeting() == "hello")
        host.setEnabled("publisher", false)
        #expect(consumer.greeting() == "no greeter")
        #expect(!host.isEnabled("publisher"))
    }

    @Test func aFailingPluginIsShownAsFailedAndTheOthersWork() {
        let (host, _) = makeHost([FailingPlugin.self, PublisherPlugin.self])
        #expect(host.pages.map(\.id) == ["failing", "publisher"])
        #expect(host.pages.first?.failed == true)
        #expect(host.failures["failing"] != nil)
        #expect(host.services.resolve((any Greeting).self) != nil)
    }

    @Test func shortcutsGoToThePluginWhosePageIsShown() {
        let (host, _) = makeHost([ConsumerPlugin.self, PublisherPlugin.self])
        var calls: [String] = []
        #expect(host.route("<Control>n", title: "New", pluginID: "consumer") { calls.append("consumer") })
        #expect(!host.route("<Control>n", title: "New", pluginID: "publisher") { calls.append("publisher") })
        host.currentPageID = "publisher"
        host.dispatchShortcut("<Control>n")
        host.currentPageID = "consumer"
        host.dispatchShortcut("<Control>n")
        #expect(calls == ["publisher", "consumer"])
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct PluginPageTests {
    @Test func aLazyPageIsBuiltOnceOnFirstUse() {
        var builds = 0
        let page = PluginPage(title: "Lazy", iconName: "x") {
            builds += 1
            return Label("built")
        }
        #expect(!page.isBuilt)
        #expect(builds == 0)
        let first = page.widget
        let second = page.widget
        #expect(builds == 1)
        #expect(first.isSameObject(as: second))
        #expect(page.isBuilt)
    }
}
