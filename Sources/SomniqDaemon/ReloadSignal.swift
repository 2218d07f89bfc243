import Dispatch
import Glibc

/// SIGHUP as a `reload` control message to the session (`SessionService.Control`), until
/// cancelled: a Dispatch signal source on a serial queue of its own (a libdispatch thread,
/// not one of Swift's cooperative pool) yields it into the session's control stream, as
/// swift-service-lifecycle's `UnixSignalsSequence` hears it. Hearing the signal takes no
/// task, and the daemon's stop has nothing of it to wait for: the session's listening ends
/// its own reading of the stream. (`somniq run` ignores SIGHUP from its start, so that one
/// that comes before this is in place does not end it.)
public final class ReloadSignal {
    private let source: any DispatchSourceSignal

    public init(control: AsyncStream<SessionService.Control>.Continuation) {
        source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "somniq-sighup"))
        source.setEventHandler { control.yield(.reload) }
        source.activate()
    }

    /// SIGHUP is heard no more (and stays ignored).
    public func cancel() { source.cancel() }
}
