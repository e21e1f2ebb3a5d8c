import CCairo
import Dispatch
import Foundation

/// Loads the system's font configuration for a process that is about to lay text out.
///
/// Fontconfig's own start (`FcInit`, which Pango calls) parses the configuration, then parses
/// every template in conf.avail a second time only to list their descriptions (for
/// `fc-conflist`): 10 of its 25 million instructions with Debian 12's fonts. Loading the same
/// configuration here skips that pass, and Pango then finds fontconfig ready. Fonts match
/// exactly as before: the templates are read, never applied.
enum FontConfiguration {
    private static let loading = DispatchGroup()

    /// Starts loading on a thread of its own, once per process. Call it before anything else
    /// uses fontconfig, or that other user starts fontconfig's own, slower load meanwhile.
    static func startLoading() {
        _ = started
    }

    private static let started: Void = {
        loading.enter()
        Thread.detachNewThread {
            if let configuration = makeSystemConfiguration() {
                FcConfigSetCurrent(configuration)
                FcConfigDestroy(configuration)
            }
            loading.leave()
        }
    }()

    /// Returns once the load `startLoading` began has finished; at once if none was begun.
    static func waitUntilLoaded() {
        loading.wait()
    }

    /// The system configuration with its fonts, as `FcInit` loads it minus the templates.
    /// Nil where fontconfig's own start should decide: a configuration that does not parse
    /// (it falls back to a built-in one) or that names no cache folder (it adds the defaults).
    static func makeSystemConfiguration() -> OpaquePointer? {
        guard let configuration = FcConfigCreate() else { return nil }
        guard FcConfigParseAndLoad(configuration, nil, FcTrue) == FcTrue,
              namesCacheFolder(configuration),
              FcConfigBuildFonts(configuration) == FcTrue else {
            FcConfigDestroy(configuration)
            return nil
        }
        return configuration
    }

    private static func namesCacheFolder(_ configuration: OpaquePointer) -> Bool {
        guard let folders = FcConfigGetCacheDirs(configuration) else { return false }
        defer { FcStrListDone(folders) }
        return FcStrListNext(folders) != nil
    }
}
