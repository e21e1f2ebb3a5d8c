import BillfoldCore
import Foundation
@testable import LicenseTool
import Licensing
import Plans
import Testing

/// The built `billfold-license` run as the vendor runs it. SwiftPM puts executables next to
/// the test bundle, so the tool is looked for beside (or above, for a macOS bundle) the
/// running test binary.
enum ToolBinary {
    static let url: URL? = {
        var starts: [URL] = []
        if let executable = Bundle.main.executableURL { starts.append(executable) }
        starts.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
        starts.append(URL(fileURLWithPath: CommandLine.arguments[0]))
        for start in starts {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("billfold-license")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        return nil
    }()
}

struct ToolRun {
    var status: Int32
    var output: String
    var errors: String
}

func runTool(_ arguments: [String], input: String? = nil) throws -> ToolRun {
    guard let url = ToolBinary.url else {
        Issue.record("billfold-license was not found next to the test binary; build it with `swift build`")
        return ToolRun(status: -1, output: "", errors: "")
    }
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    let output = Pipe(), errors = Pipe(), standardInput = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = standardInput
    try process.run()
    if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
    try standardInput.fileHandleForWriting.close()
    // Read before waiting so a full pipe cannot stall the tool.
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ToolRun(status: process.terminationStatus,
                   output: String(decoding: outputData, as: UTF8.self),
                   errors: String(decoding: errorData, as: UTF8.self))
}

@Suite("billfold-license tool", .serialized)
final class LicenseToolTests {
    let directory: TemporaryDirectory
    var keys: URL { directory.url.appendingPathComponent("keys") }
    var secretKey: String { keys.appendingPathComponent(LicenseKeyFile.secretKeyFileName).path }
    var publicKey: String { keys.appendingPathComponent(LicenseKeyFile.publicKeyFileName).path }

    init() throws {
        directory = try TemporaryDirectory()
    }

    deinit { directory.remove() }

    private func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    private func keygen() throws {
        let run = try runTool(["keygen", "--out", keys.path])
        #expect(run.status == 0, "\(run.errors)")
    }

    @Test("keygen, issue and verify round trip as a subprocess")
    func roundTrip() throws {
        try keygen()
        let secretMode = try FileManager.default.attributesOfItem(atPath: secretKey)[.posixPermissions] as? Int
        #expect(secretMode == 0o600)
        let publicText = try String(contentsOfFile: publicKey, encoding: .utf8)
        let key = try LicensePublicKey(base64: LicenseKeyFile.keyLine(in: publicText))

        let issue = try runTool(["issue", "--key", secretKey, "--name", "Ada Lovelace", "--email", "ada@example.com",
                                 "--plan", "annual", "--issued", "2025-01-01", "--expires", "2025-12-31",
                                 "--id", "order-42", "--out", path("ada.billfold-license")])
        #expect(issue.status == 0, "\(issue.errors)")
        #expect(issue.output.contains("Ada Lovelace <ada@example.com>"))

        // What the tool wrote is what the app accepts, with the vendor's fields intact.
        let signed = try LicenseVerifier(publicKey: key).verify(fileAt: URL(fileURLWithPath: path("ada.billfold-license")))
        #expect(signed.license.id == "order-42")
        #expect(signed.license.plan == .annual)
        #expect(signed.license.issuedAt == Instants.issued)
        #expect(signed.license.expiresAt == Instants.expires) // valid through 31 December
        #expect(signed.license.features == Set(Feature.allCases))

        let verify = try runTool(["verify", path("ada.billfold-license"), "--public-key", publicKey,
                                  "--at", "2025-06-01"])
        #expect(verify.status == 0, "\(verify.errors)")
        #expect(verify.output.contains("Licensed to: Ada Lovelace <ada@example.com>"))
        #expect(verify.output.contains("Status:      valid"))

        let grace = try runTool(["verify", path("ada.billfold-license"), "--public-key", publicKey,
                                 "--at", "2026-01-05"])
        #expect(grace.status == 0)
        #expect(grace.output.contains("grace period (10 day(s) left"))

        let expired = try runTool(["verify", path("ada.billfold-license"), "--public-key", publicKey,
                                   "--at", "2026-02-01"])
        #expect(expired.status == 1)
        #expect(expired.errors.contains("expired"))

        // The shipped Billfold does not accept a licence from this test key.
        let vendor = try runTool(["verify", path("ada.billfold-license")])
        #expect(vendor.status == 1)
        #expect(vendor.errors.contains(LicenseError.unknownSigner.errorDescription!))
    }

    @Test("issue to standard output and verify from standard input; plan defaults")
    func pipes() throws {
        try keygen()
        let issue = try runTool(["issue", "--key", secretKey, "--name", "Ada", "--email", "a@example.com",
                                 "--plan", "monthly", "--issued", "2025-01-31", "--features", "export-invoice-pdf",
                                 "--out", "-"])
        #expect(issue.status == 0, "\(issue.errors)")
        #expect(issue.output.hasPrefix(LicenseArmor.beginLine))
        let verify = try runTool(["verify", "-", "--public-key", publicKey, "--at", "2025-02-01"], input: issue.output)
        #expect(verify.status == 0, "\(verify.errors)")
        // One calendar month from 31 January is the end of February.
        #expect(verify.output.contains("Expires:     2025-02-28T00:00:00Z"))
        #expect(verify.output.contains("Features:    export-invoice-pdf\n"))

        let lifetime = try runTool(["issue", "--key", secretKey, "--name", "Ada", "--email", "a@example.com",
                                    "--plan", "lifetime", "--out", "-"])
        #expect(lifetime.status == 0)
        let check = try runTool(["verify", "-", "--public-key", publicKey], input: lifetime.output)
        #expect(check.output.contains("Expires:     never"))
    }

    @Test("a tampered licence file is refused with exit status 1")
    func tampered() throws {
        try keygen()
        let file = path("t.billfold-license")
        _ = try runTool(["issue", "--key", secretKey, "--name", "Ada", "--email", "a@example.com",
                         "--plan", "lifetime", "--out", file])
        var text = try String(contentsOfFile: file, encoding: .utf8)
        let lines = text.split(separator: "\n")
        text = text.replacingOccurrences(of: lines[3], with: String(lines[3].reversed()))
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let run = try runTool(["verify", file, "--public-key", publicKey])
        #expect(run.status == 1)
        #expect(run.errors.contains("refused"))
    }

    @Test("keys and licences are never overwritten")
    func noOverwrite() throws {
        try keygen()
        let before = try String(contentsOfFile: secretKey, encoding: .utf8)
        let again = try runTool(["keygen", "--out", keys.path])
        #expect(again.status == 3)
        #expect(again.errors.contains("already exists"))
        #expect(try String(contentsOfFile: secretKey, encoding: .utf8) == before)

        let file = path("once.billfold-license")
        let arguments = ["issue", "--key", secretKey, "--name", "Ada", "--email", "a@example.com",
                         "--plan", "lifetime", "--out", file]
        #expect(try runTool(arguments).status == 0)
        let second = try runTool(arguments)
        #expect(second.status == 3)
        #expect(second.errors.contains("already exists"))
    }

    @Test("wrong command lines exit with status 2 and say what is wrong", arguments: [
        ([], "no command"),
        (["frobnicate"], "unknown command"),
        (["issue", "--name", "A", "--email", "a@b", "--plan", "annual", "--out", "-"], "--key is required"),
        (["keygen", "--out", "x", "--colour", "red"], "unknown option '--colour'"),
        (["keygen", "--out"], "--out needs a value"),
        (["keygen", "--out", "a", "--out", "b"], "--out given twice"),
        (["verify"], "missing FILE"),
        (["verify", "a", "b"], "unexpected argument 'b'"),
    ] as [([String], String)])
    func usageErrors(arguments: [String], message: String) throws {
        let run = try runTool(arguments)
        #expect(run.status == 2)
        #expect(run.errors.contains(message), "\(run.errors)")
    }

    @Test("bad licence details exit with status 2")
    func badDetails() throws {
        try keygen()
        let base = ["issue", "--key", secretKey, "--name", "Ada", "--email", "a@example.com", "--out", "-"]
        let cases: [([String], String)] = [
            (["--plan", "weekly"], "--plan must be monthly, annual or lifetime"),
            (["--plan", "lifetime", "--expires", "2030-01-01"], "lifetime licence does not expire"),
            (["--plan", "annual", "--expires", "2025-02-30"], "not a calendar date"),
            (["--plan", "annual", "--expires", "soon"], "is not a date"),
            (["--plan", "annual", "--issued", "2025-06-01", "--expires", "2025-01-01"], "must be after the issue date"),
            (["--plan", "annual", "--features", "everything"], "unknown feature 'everything'"),
            (["--plan", "annual", "--id", "has spaces"], "--id must be"),
        ]
        for (extra, message) in cases {
            let run = try runTool(base + extra)
            #expect(run.status == 2, "\(extra)")
            #expect(run.errors.contains(message), "\(extra): \(run.errors)")
        }
        let badEmail = try runTool(["issue", "--key", secretKey, "--name", "Ada", "--email", "nobody",
                                    "--plan", "lifetime", "--out", "-"])
        #expect(badEmail.status == 2)
        #expect(badEmail.errors.contains("--email must be an email address"))
    }

    @Test("unreadable or damaged key files exit with status 3")
    func badKeys() throws {
        let missing = try runTool(["issue", "--key", path("nope.key"), "--name", "A", "--email", "a@b",
                                   "--plan", "lifetime", "--out", "-"])
        #expect(missing.status == 3)
        #expect(missing.errors.contains("No such file or directory"))

        try keygen()
        // The public key where the secret key belongs.
        let swapped = try runTool(["issue", "--key", publicKey, "--name", "A", "--email", "a@b",
                                   "--plan", "lifetime", "--out", "-"])
        #expect(swapped.status == 3)
        #expect(swapped.errors.contains("has 32 bytes"))

        let missingFile = try runTool(["verify", path("none.billfold-license"), "--public-key", publicKey])
        #expect(missingFile.status == 3)
    }

    @Test("--help prints usage and succeeds", arguments: [
        ["--help"], ["help"], ["help", "issue"], ["issue", "--help"], ["keygen", "-h"], ["verify", "--help"],
    ])
    func help(arguments: [String]) throws {
        let run = try runTool(arguments)
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("Usage: billfold-license"))
        #expect(run.errors.isEmpty)
    }
}

@Suite("billfold-license dates")
struct LicenseToolDateTests {
    @Test("a bare day is UTC midnight; as an expiry, the end of that day")
    func days() throws {
        #expect(try DateArgument.parse("2025-01-01", option: "issued", endOfDay: false) == Instants.issued)
        #expect(try DateArgument.parse("2025-12-31", option: "expires", endOfDay: true) == Instants.expires)
        #expect(try DateArgument.parse("2024-02-29", option: "x", endOfDay: false)
                == Date(timeIntervalSince1970: 1_709_164_800))
    }

    @Test("an ISO 8601 instant is taken as it is")
    func instants() throws {
        #expect(try DateArgument.parse("2025-01-01T12:00:00Z", option: "x", endOfDay: true)
                == Instants.issued.addingTimeInterval(12 * 3600))
        #expect(try DateArgument.parse("2025-01-01T12:00:00+02:00", option: "x", endOfDay: false)
                == Instants.issued.addingTimeInterval(10 * 3600))
        #expect(DateArgument.format(Instants.issued) == "2025-01-01T00:00:00Z")
    }

    @Test("impossible days and words are refused", arguments: ["2025-02-29", "2025-13-01", "2025-1-1", "tomorrow", ""])
    func invalid(text: String) {
        #expect(throws: ToolError.self) { try DateArgument.parse(text, option: "x", endOfDay: false) }
    }

    @Test("in process, output goes to the given streams")
    func capturedOutput() {
        final class Sink: @unchecked Sendable {
            let lock = NSLock()
            var text = ""
            func append(_ string: String) { lock.withLock { text += string } }
        }
        let out = Sink(), err = Sink()
        let io = ToolIO(standardOutput: out.append, standardError: err.append, readStandardInput: { _ in Data() })
        let status = LicenseToolCommand(io: io, now: Instants.issued).run(["verify", "-"])
        #expect(status == .refused)
        #expect(err.text.contains(LicenseError.empty.errorDescription!))
        #expect(out.text.isEmpty)
    }
}
