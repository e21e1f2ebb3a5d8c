import BillfoldCore
import Foundation

/// Why a licence was refused, or why the licence file could not be kept. Each case says what
/// happened and what the person can do about it.
public enum LicenseError: Error, Sendable, Hashable {
    /// The text or file is far larger than any licence; it was not read.
    case tooLarge(byteCount: Int, limit: Int)
    /// Nothing was entered.
    case empty
    /// No licence block was found.
    case notALicense
    /// The block starts but its end (or its content) is missing.
    case truncated
    /// The block holds characters that are not licence data.
    case badEncoding
    /// The licence was written in a format this Billfold does not know.
    case unsupportedVersion(Int)
    /// The licence was signed by a key other than the one it is checked against.
    case unknownSigner
    /// The signature does not match the contents: altered or incomplete.
    case signatureMismatch
    /// The signature is good but a field is missing or out of range.
    case malformedContents(LicenseField)
    /// The licence and its grace period are over.
    case expired(expiredAt: Date, graceEndedAt: Date)
    /// The licence starts later than now.
    case notYetValid(startsAt: Date)
    /// The licence file could not be read.
    case unreadableFile(path: String, reason: String)
    /// The licence could not be saved in the configuration folder.
    case cannotSave(reason: String)
    /// The installed licence could not be removed.
    case cannotRemove(reason: String)
    /// libsodium could not start (no usable random source, for example).
    case cryptoUnavailable
}

/// A part of a licence's contents, named in `LicenseError.malformedContents`.
public enum LicenseField: String, Sendable, Hashable, CaseIterable {
    case structure
    case id
    case licenseeName
    case licenseeEmail
    case plan
    case issueDate
    case expiryDate
    case features

    public var title: String {
        switch self {
        case .structure: tr("structure")
        case .id: tr("licence number")
        case .licenseeName: tr("licensee name")
        case .licenseeEmail: tr("licensee email")
        case .plan: tr("plan")
        case .issueDate: tr("issue date")
        case .expiryDate: tr("expiry date")
        case .features: tr("feature list")
        }
    }
}

extension LicenseError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .tooLarge(let byteCount, let limit):
            String(format: tr("This is %@, far more than a licence (at most %@). Paste only the licence block or choose the licence file."),
                   ByteCountFormatter.string(fromByteCount: Int64(byteCount), countStyle: .file),
                   ByteCountFormatter.string(fromByteCount: Int64(limit), countStyle: .file))
        case .empty:
            tr("No licence was entered. Paste the licence block you received, or choose the licence file.")
        case .notALicense:
            tr("This is not a Billfold licence: no BEGIN BILLFOLD LICENSE block was found. Paste the whole block you received, including its first and last lines.")
        case .truncated:
            tr("This licence is incomplete: part of it is missing. Paste the whole block again, from its BEGIN line to its END line.")
        case .badEncoding:
            tr("This licence contains characters that do not belong in it. Paste the block again exactly as you received it, or use the licence file.")
        case .unsupportedVersion(let version):
            if version > Int(LicenseEnvelope.currentVersion) {
                tr("This licence was made for a newer version of Billfold. Update Billfold, then enter the licence again.")
            } else {
                tr("This licence uses a format that Billfold does not support. Contact support for a new licence.")
            }
        case .unknownSigner:
            tr("This licence was not issued for Billfold: it is signed by an unknown key. Contact the seller who issued it.")
        case .signatureMismatch:
            tr("This licence has been changed or is incomplete, so its signature does not match. Enter it again exactly as you received it.")
        case .malformedContents(let field):
            String(format: tr("This licence cannot be used: its %@ is missing or invalid. Contact support for a corrected licence."), field.title)
        case .expired(let expiredAt, let graceEndedAt):
            String(format: tr("This licence expired on %@ and its grace period ended on %@. Renew it to use Billfold Pro again; everything you made stays available."),
                   Self.format(expiredAt), Self.format(graceEndedAt))
        case .notYetValid(let startsAt):
            String(format: tr("This licence is valid from %@. If that date has passed, check your computer's date and time."),
                   Self.format(startsAt))
        case .unreadableFile(let path, let reason):
            String(format: tr("The licence file “%@” could not be read: %@"), path, reason)
        case .cannotSave(let reason):
            String(format: tr("The licence could not be saved: %@"), reason)
        case .cannotRemove(let reason):
            String(format: tr("The licence could not be removed: %@"), reason)
        case .cryptoUnavailable:
            tr("Licences cannot be checked because the cryptography library failed to start. Restart Billfold; if this persists, reinstall it.")
        }
    }

    /// The system's short reason for a file error ("No such file or directory"), rather than
    /// Foundation's generic "The operation could not be completed".
    public static func reason(for error: any Error) -> String {
        var nsError = error as NSError
        if nsError.domain != NSPOSIXErrorDomain,
           let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError {
            nsError = underlying
        }
        if nsError.domain == NSPOSIXErrorDomain, let message = strerror(Int32(nsError.code)) {
            return String(cString: message)
        }
        return error.localizedDescription
    }

    private static func format(_ date: Date) -> String {
        date.formatted(date: .long, time: .omitted)
    }
}
