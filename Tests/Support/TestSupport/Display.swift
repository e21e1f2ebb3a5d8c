import Foundation
import GObjectCore
import GtkKit
import Testing

/// GTK needs a display; without one a suite with this trait is skipped, saying why.
public let needsDisplay = Testing.ConditionTrait.enabled("needs a display (run under xvfb-run)") {
    await MainActor.run { Display.open() }
}

public enum TestSettings {
    /// The app's settings in memory, from the schema in `data/`: tests never touch the user's
    /// settings, and run without an installed schema.
    @MainActor
    public static func make() -> Settings? {
        setenv("GSETTINGS_BACKEND", "memory", 1)
        if ProcessInfo.processInfo.environment["GSETTINGS_SCHEMA_DIR"] == nil {
            let repository = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("billfold-schemas-\(getpid())")
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let schema = "io.github.billfold.Billfold.gschema.xml"
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(schema))
            try? FileManager.default.copyItem(at: repository.appendingPathComponent("data/\(schema)"),
                                              to: directory.appendingPathComponent(schema))
            let compile = Process()
            compile.executableURL = URL(fileURLWithPath: "/usr/bin/glib-compile-schemas")
            compile.arguments = [directory.path]
            try? compile.run()
            compile.waitUntilExit()
            setenv("GSETTINGS_SCHEMA_DIR", directory.path, 1)
        }
        return Settings(schemaID: "io.github.billfold.Billfold")
    }
}
