import BillfoldCore
import Foundation

/// Keeps the active licence file in the configuration folder and turns it into the current
/// entitlement. The Entitlements plugin publishes it as the `Entitlements` service.
///
/// Nothing here deletes a licence on its own: an expired, not-yet-valid or unreadable file
/// stays where it is (the clock may be wrong, a renewal may follow) until the user removes it.
@MainActor
public final class LicenseStore: Entitlements {
    /// What is in the configuration folder.
    public enum Installed: Sendable, Hashable {
        case none
        case license(SignedLicense)
        /// A file is there but cannot be used (damaged, or signed for another build).
        case unusable(LicenseError)
    }

    public static let fileName = "license." + LicenseVerifier.fileExtension

    public let directory: URL
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }
    public private(set) var installed: Installed = .none
    public private(set) var status: EntitlementStatus = .free

    private let verifier: LicenseVerifier
    private let clock: @MainActor () -> Date
    private let observers = EntitlementObservers()

    /// Loads the licence in `directory` (the app's configuration folder, created on first
    /// install). Only tests pass another key or clock.
    public init(directory: URL, publicKey: LicensePublicKey = VendorKey.publicKey,
                clock: @escaping @MainActor () -> Date = { Date() }) {
        self.directory = directory
        self.verifier = LicenseVerifier(publicKey: publicKey)
        self.clock = clock
        installed = readInstalled()
        status = status(at: clock())
    }

    public func observe(_ handler: @escaping @MainActor @Sendable () -> Void) -> ObservationToken {
        observers.add(handler)
    }

    /// Reads the file again (for example after another copy of the app changed it).
    public func reload() {
        installed = readInstalled()
        refresh()
    }

    /// Recomputes the status for the clock's current time and tells observers if it changed.
    /// The plugin calls this when `nextStatusChange(after:)` comes.
    public func refresh() {
        let newStatus = status(at: clock())
        guard newStatus != status else { return }
        status = newStatus
        observers.notifyAll()
    }

    /// The entitlement the installed licence gives at `date`.
    public func status(at date: Date) -> EntitlementStatus {
        switch installed {
        case .none:
            return .free
        case .unusable(let error):
            return EntitlementStatus(tier: .free, features: [], license: nil,
                                     condition: .unusable(reason: error.localizedDescription))
        case .license(let signed):
            let license = signed.license
            do throws(LicenseError) {
                switch try license.standing(at: date) {
                case .valid:
                    return EntitlementStatus(tier: .pro, features: license.features,
                                             license: license.summary, condition: .active)
                case .gracePeriod(let endsAt, let daysLeft):
                    return EntitlementStatus(tier: .pro, features: license.features, license: license.summary,
                                             condition: .gracePeriod(endsAt: endsAt, daysLeft: daysLeft))
                }
            } catch .expired(_, let graceEndedAt) {
                return EntitlementStatus(tier: .free, features: [], license: license.summary,
                                         condition: .expired(graceEndedAt: graceEndedAt))
            } catch .notYetValid(let startsAt) {
                return EntitlementStatus(tier: .free, features: [], license: license.summary,
                                         condition: .notYetValid(startsAt: startsAt))
            } catch {
                return EntitlementStatus(tier: .free, features: [], license: license.summary,
                                         condition: .unusable(reason: error.localizedDescription))
            }
        }
    }

    /// When the status will next change by itself (expiry, end of grace, each grace day),
    /// or `nil` if it never will.
    public func nextStatusChange(after date: Date) -> Date? {
        guard case .license(let signed) = installed else { return nil }
        return signed.license.nextStandingChange(after: date)
    }

    /// Installs a pasted licence, replacing any other. A licence that is not in force now
    /// (past its grace period, or not yet valid) is refused and nothing changes.
    @discardableResult
    public func install(text: String) throws(LicenseError) -> SignedLicense {
        let (signed, _) = try verifier.validate(text: text, at: clock())
        try save(signed)
        return signed
    }

    /// Installs a licence from a `.billfold-license` file the user chose or dropped.
    @discardableResult
    public func install(fileAt url: URL) throws(LicenseError) -> SignedLicense {
        try install(text: LicenseVerifier.readLicenseText(at: url))
    }

    /// Removes the installed licence, if any; the free tier applies again at once.
    public func remove() throws(LicenseError) {
        do {
            try FileManager.default.removeItem(at: fileURL)
        } catch {
            if FileManager.default.fileExists(atPath: fileURL.path) {
                throw .cannotRemove(reason: LicenseError.reason(for: error))
            }
        }
        installed = .none
        refresh()
    }

    private func readInstalled() -> Installed {
        var info = stat()
        guard lstat(fileURL.path, &info) == 0 else { return .none }
        do {
            return .license(try verifier.verify(fileAt: fileURL))
        } catch {
            return .unusable(error)
        }
    }

    /// Writes the canonical armoured form to a temporary file in the same folder, flushes
    /// it, then renames it over the old one, so a crash never leaves half a licence.
    private func save(_ signed: SignedLicense) throws(LicenseError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotSave(reason: LicenseError.reason(for: error))
        }
        // Private (0600), whole or not at all, and never in place of something that is not a file.
        do {
            try AtomicWrite.write(Data(signed.armoredText.utf8), to: fileURL, mode: 0o600)
        } catch {
            throw .cannotSave(reason: error.code.map { FileProblem.reason(errno: $0) } ?? error.localizedDescription)
        }
        installed = .license(signed)
        refresh()
    }

    private static func lastErrorDescription() -> String {
        String(cString: strerror(errno))
    }
}
