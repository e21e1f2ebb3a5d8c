import GObjectCore
import GtkKit
import Testing

/// Opens a window, lets `use` type into it, closes it as Cancel does, and requires the window,
/// its wrapper and every handler it connected to be gone once nothing but GTK held them.
@MainActor
public func expectFreedAfterUse(_ open: () throws -> Window?, use: (Window) -> Void,
                                close: (Window) -> Void = { $0.close() },
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
    // What earlier steps left pending (a closed window's last events) is dispatched first, so
    // the count before holds only what outlives this window.
    for _ in 0..<1_000 { guard MainLoop.iterate() else { break } }
    let handlersBefore = SignalClosureCounter.live
    var probe: FinalizationProbe?
    weak var opened: Window?
    do {
        let window = try #require(try open(), sourceLocation: sourceLocation)
        #expect(window.isVisible, sourceLocation: sourceLocation)
        use(window)
        probe = FinalizationProbe(watching: window)
        opened = window
        close(window)
    }
    let finalized = MainLoop.run(until: { probe?.isFinalized == true }, timeout: 5)
    #expect(finalized, sourceLocation: sourceLocation)
    #expect(probe?.wasFinalizedOnMainActor == true, sourceLocation: sourceLocation)
    #expect(opened == nil, sourceLocation: sourceLocation)
    #expect(SignalClosureCounter.live == handlersBefore, sourceLocation: sourceLocation)
}
