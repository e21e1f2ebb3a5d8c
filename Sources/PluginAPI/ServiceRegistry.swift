/// Services one plugin publishes for others (e.g. `Entitlements`), looked up by protocol type.
/// Plugins look services up when they need them, not at activation, so their order never matters.
@MainActor
public final class ServiceRegistry {
    private var services: [ObjectIdentifier: Any] = [:]
    private var observers: [ObjectIdentifier: [@MainActor () -> Void]] = [:]

    public init() {}

    public func register<Service>(_ service: Service, as type: Service.Type) {
        services[ObjectIdentifier(type)] = service
        notify(type)
    }

    public func unregister<Service>(_ type: Service.Type) {
        guard services.removeValue(forKey: ObjectIdentifier(type)) != nil else { return }
        notify(type)
    }

    public func resolve<Service>(_ type: Service.Type) -> Service? {
        services[ObjectIdentifier(type)] as? Service
    }

    /// Calls `handler` whenever a service of `type` is registered or removed.
    public func observe<Service>(_ type: Service.Type, _ handler: @escaping @MainActor () -> Void) {
        observers[ObjectIdentifier(type), default: []].append(handler)
    }

    public func removeAll() {
        let types = Array(services.keys)
        services.removeAll()
        for type in types { observers[type]?.forEach { $0() } }
    }

    private func notify<Service>(_ type: Service.Type) {
        observers[ObjectIdentifier(type)]?.forEach { $0() }
    }
}
