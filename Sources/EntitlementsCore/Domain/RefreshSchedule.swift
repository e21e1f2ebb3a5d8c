import Foundation

/// When to look at the licence again so the status changes on time (expiry, each day of
/// grace, end of grace) while Billfold stays open.
public enum RefreshSchedule {
    /// GLib timeouts run on the monotonic clock, which stops while the computer sleeps, so a
    /// far-off change is approached in steps of at most an hour rather than one long wait.
    public static let longestWait: TimeInterval = 3600
    /// Never wake sooner than this, even if the change is due now.
    public static let shortestWait: TimeInterval = 1

    /// Milliseconds to wait from `now` before refreshing for a change due at `next`, or `nil`
    /// when nothing will change by itself.
    public static func delay(from now: Date, until next: Date?) -> UInt32? {
        guard let next else { return nil }
        let seconds = min(max(next.timeIntervalSince(now), shortestWait), longestWait)
        // Round up so the refresh lands at or after the change, not a moment before it.
        return UInt32((seconds * 1000).rounded(.up))
    }
}
