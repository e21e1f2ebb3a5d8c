import Foundation

/// Reads PDFs back with tools independent of Billfold's writer: pikepdf (in the tests' venv,
/// see `build-aux/dev venv`), Poppler's `pdftoppm` and zbar's `zbarimg`.
public enum PDFInspection {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The repository's root, found from this file's place in it.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The tests' venv's Python: `BILLFOLD_EINVOICE_PYTHON`, or `.build/einvoice-venv` in the repository.
    public static var python: URL {
        get throws {
            if let path = ProcessInfo.processInfo.environment["BILLFOLD_EINVOICE_PYTHON"], !path.isEmpty {
                return URL(fileURLWithPath: path)
            }
            let venv = repository.appendingPathComponent(".build/einvoice-venv/bin/python3")
            guard FileManager.default.isExecutableFile(atPath: venv.path) else {
                throw Failure(description: "No Python with the tests' packages: run build-aux/dev venv (build-aux/dev test does it).")
            }
            return venv
        }
    }

    /// What `inspect_pdf.py` reports about the PDF at `url`, as parsed JSON.
    public static func inspect(_ url: URL) throws -> [String: Any] {
        let script = repository.appendingPathComponent("Tests/Support/PDFInspection/inspect_pdf.py")
        let output = try run(try python, [script.path, url.path])
        guard let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] else {
            throw Failure(description: "inspect_pdf.py printed no JSON object: \(output)")
        }
        return object
    }

    /// The payloads of the QR codes zbar finds on page `page` (1-based) rendered at `dpi`.
    public static func qrCodes(in url: URL, page: Int = 1, dpi: Int = 200) throws -> [String] {
        let prefix = url.deletingPathExtension().path + "-page"
        _ = try run(URL(fileURLWithPath: "/usr/bin/pdftoppm"),
                    ["-png", "-r", "\(dpi)", "-f", "\(page)", "-l", "\(page)", "-singlefile", url.path, prefix])
        // zbarimg exits 4 when it finds no code; that is an answer, not a failure.
        let output = try run(URL(fileURLWithPath: "/usr/bin/zbarimg"), ["--quiet", "--raw", "-Sbinary", prefix + ".png"],
                             acceptedStatuses: [0, 4])
        return output.isEmpty ? [] : [output.hasSuffix("\n") ? String(output.dropLast()) : output]
    }

    private static func run(_ executable: URL, _ arguments: [String], acceptedStatuses: Set<Int32> = [0]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard acceptedStatuses.contains(process.terminationStatus) else {
            throw Failure(description: "\(executable.lastPathComponent) exited \(process.terminationStatus): "
                + String(decoding: errorData + data, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self)
    }
}
