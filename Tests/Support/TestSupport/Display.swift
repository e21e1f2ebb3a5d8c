import Foundation
import GObjectCore
import GtkKit
import Testing

/// GTK needs a display; without one a suite with this trait is skipped, saying why.
/// The app's schema is made available first: GLib reads the schema folders once, when settings
/// are first used, and GTK may use them as it starts. Under Xvfb GL is software-emulated and
/// slow, so GTK draws with Cairo unless the environment chose a renderer.
public let needsDisplay = Testing.ConditionTrait.enabled("needs a display (run under xvfb-run)") {
    await MainActor.run {
        TestSettings.prepare()
        setenv("GSK_RENDERER", "cairo", 0)
        return Display.open()
    }
}

public enum TestSettings {
    /// The app's settings in memory, from the schema in `data/`: tests never touch the user's
    /// settings, and run without an installed schema. A schema that cannot be compiled or loaded
    /// fails the calling test, saying why.
    @MainActor
    public static func make() -> Settings? {
        prepare()
        guard let settings = Settings(schemaID: schemaID) else {
            Issue.record("The settings schema \(schemaID) is not in GSETTINGS_SCHEMA_DIR")
            return nil
        }
        return settings
    }

    private static let schemaID = "io.github.billfold.Billfold"

    /// Settings in memory, and the app's schema where GLib looks (compiled from `data/` unless
    /// the environment names a folder already). Idempotent.
    @MainActor
    public static func prepare() {
        setenv("GSETTINGS_BACKEND", "memory", 1)
        guard ProcessInfo.processInfo.environment["GSETTINGS_SCHEMA_DIR"] == nil else { return }
        do {
            setenv("GSETTINGS_SCHEMA_DIR", try compiledSchemaDirectory().path, 1)
        } catch {
            Issue.record("The settings schema could not be compiled: \(error)")
        }
    }

    /// `data/`'s schema compiled into a folder of this process's own.
    private static func compiledSchemaDirectory() throws -> URL {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("billfold-schemas-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let schema = schemaID + ".gschema.xml"
        let target = directory.appendingPathComponent(schema)
        if FileManager.default.fileExists(atPath: target.path) { try FileManager.default.removeItem(at: target) }
        try FileManager.default.copyItem(at: repository.appendingPathComponent("data/\(schema)"), to: target)
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: "/usr/bin/glib-compile-schemas")
        compile.arguments = ["--strict", directory.path]
        try compile.run()
        compile.waitUntilExit()
        guard compile.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "glib-compile-schemas exited with \(compile.terminationStatus)"])
        }
        return directory
    }
}
