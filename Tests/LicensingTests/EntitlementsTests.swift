import BillfoldCore
import Foundation
import Plans
import Testing

/// Counts calls; a class so `@Sendable` handlers can share it on the main actor.
@MainActor
final class Counter {
    var value = 0
    var log: [String] = []
    var token: ObservationToken?
}

@MainActor
@Suite("Entitlements service")
struct EntitlementsTests {
    @Test("FreeTier is the free tier: five invoices, no PDF export")
    func freeTier() {
        let free: any Entitlements = FreeTier()
        #expect(free.tier == .free)
        #expect(free.status == .free)
        #expect(free.status.condition == .unlicensed)
        #expect(free.status.license == nil)
        #expect(!free.allows(.exportInvoicePDF))
        #expect(!free.allows(.unlimitedInvoices))
        #expect(free.invoiceLimit == 5)
        #expect(!free.status.isInGracePeriod)
        #expect(free.status.graceDaysLeft == nil)
        let counter = Counter()
        let token = free.observe { counter.value += 1 }
        token.cancel()
        #expect(counter.value == 0)
    }

    @Test("a free status never carries features")
    func freeStatusHasNoFeatures() {
        let status = EntitlementStatus(tier: .free, features: Set(Feature.allCases), license: nil,
                                       condition: .unlicensed)
        #expect(status.features.isEmpty)
    }

    @Test("a Pro status without unlimited invoices keeps the limit")
    func partialPro() {
        final class Fixed: Entitlements {
            let status: EntitlementStatus
            init(_ status: EntitlementStatus) { self.status = status }
            func observe(_ handler: @escaping @MainActor @Sendable () -> Void) -> ObservationToken { .inert() }
        }
        let service = Fixed(EntitlementStatus(tier: .pro, features: [.exportInvoicePDF], license: nil,
                                              condition: .active))
        #expect(service.allows(.exportInvoicePDF))
        #expect(!service.allows(.unlimitedInvoices))
        #expect(service.invoiceLimit == 5)
    }

    @Test("observers run in order; cancelled and released tokens stop them")
    func observerList() {
        let observers = EntitlementObservers()
        let counter = Counter()
        let a = observers.add { counter.log.append("a") }
        var b: ObservationToken? = observers.add { counter.log.append("b") }
        let c = observers.add { counter.log.append("c") }
        #expect(observers.count == 3)
        observers.notifyAll()
        #expect(counter.log == ["a", "b", "c"])
        b = nil
        a.cancel()
        a.cancel() // twice is harmless
        #expect(observers.count == 1)
        observers.notifyAll()
        #expect(counter.log == ["a", "b", "c", "c"])
        _ = (b, c)
    }

    @Test("a handler may cancel a later handler while being notified")
    func cancelDuringNotification() {
        let observers = EntitlementObservers()
        let counter = Counter()
        let first = observers.add {
            counter.log.append("first")
            counter.token?.cancel()
        }
        counter.token = observers.add { counter.log.append("later") }
        observers.notifyAll()
        #expect(counter.log == ["first"])
        _ = first
    }

    @Test("a token released on another thread unregisters its handler")
    func releaseOffMainActor() async {
        let observers = EntitlementObservers()
        let counter = Counter()
        let token = observers.add { counter.value += 1 }
        await Task.detached { [token] in token.cancel() }.value
        #expect(observers.count == 0)
        observers.notifyAll()
        #expect(counter.value == 0)
    }

    @Test("titles are there for every tier, feature and plan")
    func titles() {
        #expect(Tier.allCases.allSatisfy { !$0.title.isEmpty })
        #expect(Feature.allCases.allSatisfy { !$0.title.isEmpty })
        #expect(LicensePlan.allCases.allSatisfy { !$0.title.isEmpty })
        #expect(Feature(rawValue: "export-invoice-pdf") == .exportInvoicePDF)
        #expect(Feature(rawValue: "unlimited-invoices") == .unlimitedInvoices)
    }
}
