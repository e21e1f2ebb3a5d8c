// swift-tools-version:6.0
import PackageDescription

// Link inputs by absolute path, whichever folder the build runs from.
let packageDirectory = String(#filePath.dropLast("/Package.swift".count))

// lld packs the static Swift runtime's relative relocations as RELR (glibc 2.36+): 2 MB less
// for the loader to read and keep mapped at every start of either executable.
let packedRelocations = LinkerSetting.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])

// Billfold depends only on the Swift toolchain and Debian's C libraries (found by pkg-config).
let package = Package(
    name: "Billfold",
    platforms: [.macOS(.v14)],
    products: [
        // The command line: it loads no GTK, and starts the window (`billfold-app`) when given no command.
        .executable(name: "billfold", targets: ["Billfold"]),
        .executable(name: "billfold-app", targets: ["BillfoldApp"]),
        .executable(name: "billfold-license", targets: ["LicenseTool"]),
        .executable(name: "storage-benchmark", targets: ["StorageBenchmark"]),
        .executable(name: "documents-benchmark", targets: ["DocumentsBenchmark"]),
        .executable(name: "invoices-benchmark", targets: ["InvoicesBenchmark"]),
        .executable(name: "expenses-benchmark", targets: ["ExpensesBenchmark"]),
        .executable(name: "preview-benchmark", targets: ["PreviewBenchmark"]),
        .executable(name: "invoices-ui-benchmark", targets: ["InvoicesUIBenchmark"]),
        .executable(name: "command-line-benchmark", targets: ["CommandLineBenchmark"]),
        .executable(name: "backup-benchmark", targets: ["BackupBenchmark"]),
    ],
    targets: [
        // C modules: one per library family, each with a shim for macros and variadics.
        .systemLibrary(name: "CGLib", path: "Sources/CGLib", pkgConfig: "gio-unix-2.0",
                       providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CGtk", path: "Sources/CGtk", pkgConfig: "libadwaita-1",
                       providers: [.apt(["libgtk-4-dev", "libadwaita-1-dev"])]),
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "pangocairo",
                       providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]),
        // No pkgConfig: its flags would link libpoppler-glib (and NSS, lcms2, openjpeg through it)
        // into every app. Graphics opens it with dlopen on first use; the shim finds the header.
        .systemLibrary(name: "CPoppler", path: "Sources/CPoppler"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CGdkPixbuf", path: "Sources/CGdkPixbuf", pkgConfig: "gdk-pixbuf-2.0",
                       providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        // libjpeg itself, for decoding receipt photos at any n/8 of their size.
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG", pkgConfig: "libjpeg",
                       providers: [.apt(["libjpeg-dev"])]),
        // Expat for e-invoice XML: Foundation's XMLParser would link libxml2 and a second ICU.
        .systemLibrary(name: "CExpat", path: "Sources/CExpat", pkgConfig: "expat",
                       providers: [.apt(["libexpat1-dev"])]),
        .systemLibrary(name: "CIntl", path: "Sources/CIntl"),
        .systemLibrary(name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium",
                       providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CQREncode", path: "Sources/CQREncode", pkgConfig: "libqrencode",
                       providers: [.apt(["libqrencode-dev"])]),

        // Bindings.
        .target(name: "GObjectCore", dependencies: ["CGLib"]),
        .target(name: "GtkKit", dependencies: ["GObjectCore", "CGtk"]),
        .target(name: "Graphics", dependencies: ["CCairo", "CPoppler", "CGdkPixbuf", "CIntl", "CZlib", "CQREncode"]),

        // Services (no GTK).
        .target(name: "Storage", dependencies: ["BillfoldCore", "CSQLite"]),
        .target(name: "BillfoldCore", dependencies: ["CIntl"]),
        .target(name: "Documents", dependencies: ["Graphics", "BillfoldCore", "CIntl"]),
        .target(name: "Licensing", dependencies: ["CSodium", "BillfoldCore", "Plans"]),
        // The free and Pro plans: tiers, the features Pro unlocks, the Entitlements service.
        .target(name: "Plans", dependencies: ["BillfoldCore"]),

        // The plugin contract: the command line's half needs no display; the rest is the UI's.
        .target(name: "CommandLineAPI", dependencies: ["BillfoldCore", "Storage", "Plans"]),
        .target(name: "PluginAPI", dependencies: ["BillfoldCore", "Storage", "GtkKit", "Plans", "GObjectCore", "CommandLineAPI"]),
        .target(name: "BillfoldUI", dependencies: ["PluginAPI", "Documents", "GtkKit", "BillfoldCore", "Plans", "Graphics", "GObjectCore"]),

        // Plugins: they know the layers above, never each other nor the shell. Each one's core
        // (domain, documents, command line) imports no GTK, so `billfold` runs without loading it.
        .target(name: "TipSplitPlugin", dependencies: ["BillfoldUI", "PluginAPI", "BillfoldCore", "GtkKit", "GObjectCore"]),
        .target(name: "EntitlementsCore", dependencies: ["BillfoldCore", "Licensing", "Plans", "CommandLineAPI"]),
        .target(name: "EntitlementsPlugin", dependencies: [
            "EntitlementsCore", "BillfoldUI", "PluginAPI", "BillfoldCore", "GtkKit", "GObjectCore", "Licensing", "Plans",
        ]),
        .target(name: "InvoicesCore", dependencies: ["BillfoldCore", "Storage", "Documents", "Graphics", "Plans", "CommandLineAPI"]),
        .target(name: "InvoicesPlugin", dependencies: [
            "InvoicesCore", "BillfoldCore", "Storage", "Documents", "Graphics", "PluginAPI", "GtkKit", "BillfoldUI", "Plans",
            "GObjectCore",
        ]),
        .target(name: "ExpensesCore", dependencies: [
            "BillfoldCore", "Storage", "Documents", "Graphics", "CGdkPixbuf", "CJPEG", "CExpat", "CommandLineAPI",
        ]),
        .target(name: "ExpensesPlugin", dependencies: [
            "ExpensesCore", "BillfoldCore", "Storage", "PluginAPI", "GtkKit", "BillfoldUI", "Documents", "Graphics", "CGdkPixbuf",
            "GObjectCore",
        ]),

        // The user's library on disk: the one database, its backups and restore.
        .target(name: "AppLibrary", dependencies: ["BillfoldCore", "Storage"]),
        // The command line.
        .executableTarget(name: "Billfold", dependencies: [
            "CommandLineAPI", "AppLibrary", "BillfoldCore", "Storage", "Plans", "InvoicesCore", "ExpensesCore", "EntitlementsCore",
        ], linkerSettings: [packedRelocations]),
        // The window: the shell and its plugins.
        .executableTarget(name: "BillfoldApp", dependencies: [
            "AppLibrary", "PluginAPI", "BillfoldUI", "BillfoldCore", "GtkKit", "GObjectCore", "Storage",
            "InvoicesPlugin", "ExpensesPlugin", "TipSplitPlugin", "EntitlementsPlugin", "Plans",
        ], exclude: ["startup-order.txt"], linkerSettings: [
            packedRelocations,
            // The functions a start runs, side by side: 5–7 MiB less of the binary resident
            // (build-aux/startup-order writes the list and says why).
            .unsafeFlags(["-Xlinker", "--symbol-ordering-file=\(packageDirectory)/Sources/BillfoldApp/startup-order.txt",
                          "-Xlinker", "--no-warn-symbol-ordering"]),
        ]),

        // Vendor tool: makes the signing key pair and issues licences.
        .executableTarget(name: "LicenseTool", dependencies: ["Licensing", "BillfoldCore", "Plans"]),

        // Benchmarks: commands that print a table (never timed tests).
        .executableTarget(name: "DocumentsBenchmark", dependencies: ["Documents", "Graphics"],
                          path: "Benchmarks/DocumentsBenchmark"),

        // Tests.
        .executableTarget(name: "MainLoopProbe", dependencies: ["GObjectCore"], path: "Tests/Support/MainLoopProbe"),
        .target(name: "SeededRandom", path: "Tests/Support/SeededRandom"),
        // Reads PDFs back with pikepdf, pdftoppm and zbarimg.
        .target(name: "PDFInspection", path: "Tests/Support/PDFInspection", exclude: ["inspect_pdf.py"]),
        .target(name: "TestSupport", dependencies: ["GtkKit", "GObjectCore", "PluginAPI", "Storage"], path: "Tests/Support/TestSupport"),
        .testTarget(name: "GObjectCoreTests", dependencies: ["GObjectCore", "CGLib", "MainLoopProbe", "TestSupport"]),
        .testTarget(name: "GtkKitTests", dependencies: ["GtkKit", "GObjectCore", "TestSupport", "CGtk"]),
        .testTarget(name: "CommandLineTests", dependencies: ["Billfold", "CommandLineAPI"]),
        .testTarget(name: "ShellTests", dependencies: ["BillfoldApp", "AppLibrary", "PluginAPI", "Storage", "GtkKit", "GObjectCore", "TestSupport"]),
        .testTarget(name: "TipSplitPluginTests", dependencies: ["TipSplitPlugin", "BillfoldCore", "GtkKit", "GObjectCore", "TestSupport", "SeededRandom"]),
        .testTarget(name: "LicensingTests", dependencies: ["Licensing", "BillfoldCore", "LicenseTool", "SeededRandom", "Plans"]),
        .testTarget(name: "EntitlementsPluginTests", dependencies: [
            "EntitlementsPlugin", "EntitlementsCore", "BillfoldUI", "PluginAPI", "BillfoldCore", "Licensing", "GtkKit", "GObjectCore",
            "TestSupport", "Plans",
        ]),

        // Data core: tests, the child process the crash test kills, and the benchmark.
        .testTarget(name: "StorageTests", dependencies: ["Storage", "StorageCrashWriter", "SeededRandom", "CSQLite"]),
        .executableTarget(name: "StorageCrashWriter", dependencies: ["Storage"],
                          path: "Tests/Support/StorageCrashWriter"),
        .testTarget(name: "BillfoldCoreTests", dependencies: ["BillfoldCore", "SeededRandom"]),
        // Faults, damage and hostile files, driven through the real binary and the storage layer.
        .testTarget(name: "FaultInjectionTests", dependencies: [
            "Billfold", "Storage", "BillfoldCore", "InvoicesCore", "InvoicesBenchmarkData", "ExpensesCore",
            "Licensing", "Graphics", "CGdkPixbuf", "CSQLite", "Plans",
        ]),
        .executableTarget(name: "StorageBenchmark", dependencies: ["Storage"],
                          path: "Benchmarks/StorageBenchmark"),
        .executableTarget(name: "BackupBenchmark", dependencies: ["Storage"],
                          path: "Benchmarks/BackupBenchmark"),

        // Documents: the Graphics bindings and the layout engine.
        .testTarget(name: "GraphicsTests", dependencies: ["Graphics"]),
        .testTarget(name: "DocumentsTests", dependencies: ["Documents", "Graphics", "BillfoldCore", "PDFInspection"]),
        // Invoices: domain tests and the benchmark over 100 000 invoices.
        .testTarget(name: "InvoicesPluginTests", dependencies: ["InvoicesPlugin", "InvoicesCore", "BillfoldCore", "Storage", "Documents", "Graphics", "SeededRandom", "GtkKit", "GObjectCore", "PluginAPI", "TestSupport", "PDFInspection", "Plans", "ExpensesPlugin", "ExpensesCore"]),
        .executableTarget(name: "InvoicesBenchmark", dependencies: ["InvoicesCore", "BillfoldCore", "Storage", "Documents", "InvoicesBenchmarkData", "Plans"],
                          path: "Benchmarks/InvoicesBenchmark"),
        // The fill both invoices benchmarks use, and the one that times the page in a real window.
        .target(name: "InvoicesBenchmarkData", dependencies: ["InvoicesCore", "BillfoldCore", "Storage"],
                path: "Benchmarks/InvoicesBenchmarkData"),
        .executableTarget(name: "InvoicesUIBenchmark", dependencies: [
            "InvoicesBenchmarkData", "InvoicesPlugin", "InvoicesCore", "BillfoldUI", "BillfoldCore", "Storage", "GtkKit", "GObjectCore", "PluginAPI",
            "TestSupport",
        ], path: "Benchmarks/InvoicesUIBenchmark"),
        // The release binary's commands as whole processes: lists, and invoice PDFs next to Typst.
        .executableTarget(name: "CommandLineBenchmark", dependencies: [
            "InvoicesBenchmarkData", "InvoicesCore", "ExpensesCore", "BillfoldCore", "Storage", "Licensing", "Plans", "Graphics",
        ], path: "Benchmarks/CommandLineBenchmark"),
        // Expenses: domain tests and the receipts/report benchmark.
        .testTarget(name: "ExpensesPluginTests", dependencies: [
            "ExpensesPlugin", "ExpensesCore", "BillfoldCore", "Storage", "Documents", "Graphics", "GtkKit", "GObjectCore", "PluginAPI",
            "TestSupport",
        ]),
        .executableTarget(name: "ExpensesBenchmark", dependencies: ["ExpensesCore", "BillfoldCore", "Storage", "CGdkPixbuf", "Graphics"],
                          path: "Benchmarks/ExpensesBenchmark"),

        // The shared UI: document preview, document actions, chart view; and the preview's benchmark.
        .testTarget(name: "BillfoldUITests", dependencies: [
            "BillfoldUI", "Documents", "Graphics", "BillfoldCore", "GtkKit", "GObjectCore", "TestSupport",
        ]),
        .executableTarget(name: "PreviewBenchmark", dependencies: ["BillfoldUI", "Documents", "Graphics", "GtkKit", "GObjectCore"],
                          path: "Benchmarks/PreviewBenchmark"),
    ],
    swiftLanguageModes: [.v6]
)

// Release code asks for generic types' metadata through accessors that carry the conformances,
// not by mangled name: the runtime otherwise looks each `Hashable` key type up by scanning
// every conformance record of the static Swift runtime and Foundation, 0.1 ms each, about 3 %
// of a short invoice export.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release)),
    ]
}
