import BillfoldCore
import Foundation
import Licensing
import Plans

/// Exit statuses, listed in `--help`.
enum ExitStatus: Int32 {
    case success = 0
    /// The licence was checked and refused.
    case refused = 1
    /// The command line was wrong.
    case usage = 2
    /// A file or key could not be read or written.
    case failure = 3
}

/// Where the tool writes; the tests capture it.
struct ToolIO: Sendable {
    var standardOutput: @Sendable (String) -> Void
    var standardError: @Sendable (String) -> Void
    var readStandardInput: @Sendable (Int) -> Data

    static let standard = ToolIO(
        standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
        standardError: { FileHandle.standardError.write(Data($0.utf8)) },
        readStandardInput: { limit in (try? FileHandle.standardInput.read(upToCount: limit)) ?? Data() }
    )
}

enum ToolError: Error {
    case usage(String)
    case failure(String)
    case refused(String)

    var status: ExitStatus {
        switch self {
        case .usage: .usage
        case .failure: .failure
        case .refused: .refused
        }
    }

    var message: String {
        switch self {
        case .usage(let message), .failure(let message), .refused(let message): message
        }
    }
}

/// `billfold-license`: the vendor's tool to make the signing key pair, issue licences and
/// check them.
struct LicenseToolCommand {
    static let name = "billfold-license"

    static let usage = """
        Usage: \(name) <command> [options]

        Commands:
          keygen   Make a new signing key pair.
          issue    Sign a licence with the secret key.
          verify   Check a licence and show what it says.

        Run '\(name) <command> --help' for a command's options.

        Exit status: 0 success, 1 licence refused, 2 wrong command line,
        3 a file or key could not be read or written.

        """

    static let keygenUsage = """
        Usage: \(name) keygen --out DIR

        Writes a new Ed25519 key pair into DIR (created if needed):
          \(LicenseKeyFile.secretKeyFileName)  the secret key (mode 600): keep it private, never commit it
          \(LicenseKeyFile.publicKeyFileName)  the public key, to compile into Billfold (VendorKey.swift)
        Existing key files are never overwritten.

        """

    static let issueUsage = """
        Usage: \(name) issue --key SECRET_KEY_FILE --name NAME --email EMAIL --plan PLAN
                              [--expires DATE] [--issued DATE] [--features LIST] [--id ID] --out FILE

          --key       the secret key file written by keygen
          --name      the licensee's name
          --email     the licensee's email address
          --plan      monthly, annual or lifetime
          --expires   last day of the licence, YYYY-MM-DD (valid through that day, UTC), or an
                      instant such as 2026-01-31T12:00:00Z; default: one month (monthly) or one
                      year (annual) after the issue date; not allowed for lifetime
          --issued    issue date, YYYY-MM-DD or an ISO 8601 instant; default: now
          --features  comma-separated features; default: all (\(Feature.allCases.map(\.rawValue).joined(separator: ", ")))
          --id        licence number; default: a new UUID
          --out       the .\(LicenseVerifier.fileExtension) file to write ('-' for standard output);
                      an existing file is never overwritten

        """

    static let verifyUsage = """
        Usage: \(name) verify FILE [--public-key FILE] [--at DATE]

        Checks the licence in FILE ('-' for standard input) and prints what it says.
          --public-key  the public key file to check against; default: the key built into Billfold
          --at          check validity at this date (YYYY-MM-DD or ISO 8601) instead of now

        """

    let io: ToolIO
    let now: Date

    init(io: ToolIO = .standard, now: Date = Date()) {
        self.io = io
        self.now = now
    }

    /// Runs one command line (without the program name) and returns the exit status.
    func run(_ arguments: [String]) -> ExitStatus {
        do throws(ToolError) {
            try dispatch(arguments)
            return .success
        } catch {
            io.standardError("\(Self.name): \(error.message)\n")
            if case .usage = error {
                io.standardError("Run '\(Self.name) --help' for usage.\n")
            }
            return error.status
        }
    }

    private func dispatch(_ arguments: [String]) throws(ToolError) {
        guard let command = arguments.first else {
            io.standardError(Self.usage)
            throw .usage("no command given")
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "-h", "--help", "help":
            io.standardOutput(helpText(for: rest.first))
        case "keygen":
            try keygen(ParsedArguments(rest, options: ["out"], usage: Self.keygenUsage, io: io))
        case "issue":
            try issue(ParsedArguments(rest, options: ["key", "name", "email", "plan", "expires", "issued",
                                                      "features", "id", "out"],
                                      usage: Self.issueUsage, io: io))
        case "verify":
            try verify(ParsedArguments(rest, options: ["public-key", "at"], positionals: 1,
                                       usage: Self.verifyUsage, io: io))
        default:
            throw .usage("unknown command '\(command)'")
        }
    }

    private func helpText(for command: String?) -> String {
        switch command {
        case "keygen": Self.keygenUsage
        case "issue": Self.issueUsage
        case "verify": Self.verifyUsage
        default: Self.usage
        }
    }

    // MARK: keygen

    private func keygen(_ arguments: ParsedArguments?) throws(ToolError) {
        guard let arguments else { return }
        let directory = URL(fileURLWithPath: try arguments.required("out"))
        let secretURL = directory.appendingPathComponent(LicenseKeyFile.secretKeyFileName)
        let publicURL = directory.appendingPathComponent(LicenseKeyFile.publicKeyFileName)
        for url in [secretURL, publicURL] where FileManager.default.fileExists(atPath: url.path) {
            throw .failure("\(url.path) already exists; keys are never overwritten. Choose another directory.")
        }
        let key: LicenseSigningKey
        do throws(LicenseKeyError) {
            key = try LicenseSigningKey.generate()
        } catch {
            throw .failure(error.errorDescription ?? "\(error)")
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .failure("cannot create \(directory.path): \(LicenseError.reason(for: error))")
        }
        try writeNewFile(LicenseKeyFile.secretKeyText(key), to: secretURL, mode: 0o600)
        try writeNewFile(LicenseKeyFile.publicKeyText(key.publicKey), to: publicURL, mode: 0o644)
        let swiftBytes = key.publicKey.bytes.map { String(format: "0x%02x", $0) }
        let swiftLines = stride(from: 0, to: swiftBytes.count, by: 8).map {
            "        " + swiftBytes[$0..<min($0 + 8, swiftBytes.count)].joined(separator: ", ") + ","
        }
        io.standardOutput("""
            Secret key: \(secretURL.path) (keep it private; never commit it)
            Public key: \(publicURL.path)
            Key id:     \(key.publicKey.keyIDHex)
            Public key (base64): \(key.publicKey.base64)
            Bytes for VendorKey.swift:
            \(swiftLines.joined(separator: "\n"))

            """)
    }

    // MARK: issue

    private func issue(_ arguments: ParsedArguments?) throws(ToolError) {
        guard let arguments else { return }
        let signingKey = try readSigningKey(at: try arguments.required("key"))
        let name = try arguments.required("name").trimmingCharacters(in: .whitespacesAndNewlines)
        let email = try arguments.required("email").trimmingCharacters(in: .whitespacesAndNewlines)
        let planName = try arguments.required("plan")
        guard let plan = LicensePlan(rawValue: planName.lowercased()) else {
            throw .usage("--plan must be monthly, annual or lifetime, not '\(planName)'")
        }
        let output = try arguments.required("out")
        let issuedAt = try arguments.value("issued").map { text throws(ToolError) in
            try DateArgument.parse(text, option: "issued", endOfDay: false)
        } ?? Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let expiresAt: Date?
        switch (plan, arguments.value("expires")) {
        case (.lifetime, .some):
            throw .usage("a lifetime licence does not expire; leave out --expires")
        case (.lifetime, nil):
            expiresAt = nil
        case (_, let text?):
            expiresAt = try DateArgument.parse(text, option: "expires", endOfDay: true)
        case (.monthly, nil):
            expiresAt = DateArgument.adding(month: 1, to: issuedAt)
        case (.annual, nil):
            expiresAt = DateArgument.adding(year: 1, to: issuedAt)
        }
        if let expiresAt, expiresAt <= issuedAt {
            throw .usage("--expires must be after the issue date")
        }
        let featureNames: [String]
        if let list = arguments.value("features") {
            featureNames = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let unknown = featureNames.filter { Feature(rawValue: $0) == nil }
            guard unknown.isEmpty, !featureNames.isEmpty else {
                throw .usage("unknown feature '\(unknown.first ?? "")'; known features: \(Feature.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        } else {
            featureNames = Feature.allCases.map(\.rawValue)
        }
        let license: License
        do throws(LicenseError) {
            license = try License(id: arguments.value("id") ?? UUID().uuidString.lowercased(),
                                  licenseeName: name, licenseeEmail: email, plan: plan,
                                  issuedAt: issuedAt, expiresAt: expiresAt, featureNames: featureNames)
        } catch {
            throw .usage(Self.describeInvalid(error))
        }
        let signed = SignedLicense(signing: license, with: signingKey)
        // Check the result with the public half before handing it out.
        do throws(LicenseError) {
            _ = try LicenseVerifier(publicKey: signingKey.publicKey).verify(text: signed.armoredText)
        } catch {
            throw .failure("the licence just signed does not verify: \(error.errorDescription ?? "\(error)")")
        }
        if output == "-" {
            io.standardOutput(signed.armoredText)
        } else {
            try writeNewFile(signed.armoredText, to: URL(fileURLWithPath: output), mode: 0o644)
            io.standardOutput("Wrote \(output)\n" + describe(license, keyID: signingKey.publicKey.keyIDHex))
        }
    }

    private static func describeInvalid(_ error: LicenseError) -> String {
        switch error {
        case .malformedContents(.licenseeName):
            "--name must not be empty, longer than \(License.maximumNameLength) characters or contain control characters"
        case .malformedContents(.licenseeEmail):
            "--email must be an email address (name@domain) of at most \(License.maximumEmailLength) bytes"
        case .malformedContents(.id):
            "--id must be 1 to \(License.maximumIDLength) letters, digits, '-', '_' or '.'"
        case .malformedContents(.issueDate), .malformedContents(.expiryDate):
            "dates must lie between 1970 and 9999, and the expiry after the issue date"
        default:
            error.errorDescription ?? "\(error)"
        }
    }

    // MARK: verify

    private func verify(_ arguments: ParsedArguments?) throws(ToolError) {
        guard let arguments else { return }
        let path = arguments.positionals[0]
        let publicKey = try arguments.value("public-key").map { path throws(ToolError) in
            try readPublicKey(at: path)
        } ?? VendorKey.publicKey
        let date = try arguments.value("at").map { text throws(ToolError) in
            try DateArgument.parse(text, option: "at", endOfDay: false)
        } ?? now
        let verifier = LicenseVerifier(publicKey: publicKey)
        let signed: SignedLicense
        do throws(LicenseError) {
            if path == "-" {
                let data = io.readStandardInput(LicenseArmor.maximumTextBytes + 1)
                guard data.count <= LicenseArmor.maximumTextBytes else {
                    throw LicenseError.tooLarge(byteCount: data.count, limit: LicenseArmor.maximumTextBytes)
                }
                signed = try verifier.verify(text: String(decoding: data, as: UTF8.self))
            } else {
                signed = try verifier.verify(fileAt: URL(fileURLWithPath: path))
            }
        } catch {
            if case .unreadableFile = error { throw .failure(error.errorDescription ?? "\(error)") }
            throw .refused("refused: \(error.errorDescription ?? "\(error)")")
        }
        io.standardOutput(describe(signed.license, keyID: publicKey.keyIDHex))
        do throws(LicenseError) {
            switch try signed.license.standing(at: date) {
            case .valid:
                io.standardOutput("Status:      valid\n")
            case .gracePeriod(let endsAt, let daysLeft):
                io.standardOutput("Status:      expired, in grace period (\(daysLeft) day(s) left, until \(DateArgument.format(endsAt)))\n")
            }
        } catch {
            io.standardOutput("Status:      not in force\n")
            throw .refused("refused: \(error.errorDescription ?? "\(error)")")
        }
    }

    private func describe(_ license: License, keyID: String) -> String {
        """
        Licence:     \(license.id)
        Licensed to: \(license.licenseeName) <\(license.licenseeEmail)>
        Plan:        \(license.plan.rawValue)
        Issued:      \(DateArgument.format(license.issuedAt))
        Expires:     \(license.expiresAt.map(DateArgument.format) ?? "never")
        Features:    \(license.featureNames.joined(separator: ", "))
        Signed by:   key \(keyID)

        """
    }

    // MARK: files

    private func readKeyLine(at path: String) throws(ToolError) -> String {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            data = try handle.read(upToCount: 4097) ?? Data()
        } catch {
            throw .failure("cannot read \(path): \(LicenseError.reason(for: error))")
        }
        guard data.count <= 4096, let text = String(data: data, encoding: .utf8) else {
            throw .failure("\(path) is not a key file written by keygen")
        }
        return LicenseKeyFile.keyLine(in: text)
    }

    private func readSigningKey(at path: String) throws(ToolError) -> LicenseSigningKey {
        do {
            return try LicenseSigningKey(base64: try readKeyLine(at: path))
        } catch let error as LicenseKeyError {
            throw .failure("\(path): \(error.errorDescription ?? "\(error)")")
        } catch {
            throw error as? ToolError ?? .failure("\(error)")
        }
    }

    private func readPublicKey(at path: String) throws(ToolError) -> LicensePublicKey {
        do {
            return try LicensePublicKey(base64: try readKeyLine(at: path))
        } catch let error as LicenseKeyError {
            throw .failure("\(path): \(error.errorDescription ?? "\(error)")")
        } catch {
            throw error as? ToolError ?? .failure("\(error)")
        }
    }

    /// Creates `url` with `mode`, refusing to replace an existing file.
    private func writeNewFile(_ text: String, to url: URL, mode: mode_t) throws(ToolError) {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            if errno == EEXIST {
                throw .failure("\(url.path) already exists; it is never overwritten. Choose another name.")
            }
            throw .failure("cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(text.utf8))
            try handle.synchronize()
            try handle.close()
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw .failure("cannot write \(url.path): \(LicenseError.reason(for: error))")
        }
    }
}

/// Parsed `--option value` / `--option=value` pairs and positional arguments. `nil` when
/// `--help` was asked for (the usage has then been printed).
struct ParsedArguments {
    private var values: [String: String] = [:]
    private(set) var positionals: [String] = []

    init?(_ arguments: [String], options: Set<String>, positionals expected: Int = 0,
          usage: String, io: ToolIO) throws(ToolError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" {
                io.standardOutput(usage)
                return nil
            }
            guard argument.hasPrefix("--") else {
                positionals.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard options.contains(name) else { throw .usage("unknown option '--\(name)'") }
            guard values[name] == nil else { throw .usage("--\(name) given twice") }
            if value == nil {
                guard index < arguments.count else { throw .usage("--\(name) needs a value") }
                value = arguments[index]
                index += 1
            }
            values[name] = value
        }
        guard positionals.count == expected else {
            if positionals.count < expected { throw .usage("missing FILE argument") }
            throw .usage("unexpected argument '\(positionals[expected])'")
        }
    }

    func value(_ name: String) -> String? { values[name] }

    func required(_ name: String) throws(ToolError) -> String {
        guard let value = values[name], !value.isEmpty else { throw .usage("--\(name) is required") }
        return value
    }
}

/// Dates on the command line: a calendar day (UTC) or an ISO 8601 instant.
enum DateArgument {
    private static var utcCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }

    /// A bare day means its start, or with `endOfDay` the start of the next day, so that
    /// "--expires 2026-01-31" keeps the licence valid through the 31st.
    static func parse(_ text: String, option: String, endOfDay: Bool) throws(ToolError) -> Date {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
           let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) {
            let components = DateComponents(year: year, month: month, day: day)
            guard components.isValidDate(in: utcCalendar), let start = utcCalendar.date(from: components) else {
                throw .usage("--\(option): \(text) is not a calendar date")
            }
            return endOfDay ? utcCalendar.date(byAdding: .day, value: 1, to: start) ?? start : start
        }
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw .usage("--\(option): '\(text)' is not a date; use YYYY-MM-DD or e.g. 2026-01-31T12:00:00Z")
        }
        return date
    }

    static func adding(month: Int = 0, year: Int = 0, to date: Date) -> Date? {
        utcCalendar.date(byAdding: DateComponents(year: year, month: month), to: date)
    }

    static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
