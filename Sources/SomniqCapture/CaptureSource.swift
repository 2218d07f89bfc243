import SomniqAudio
import SomniqCore
import SomniqLog
import SomniqSupport

/// A capture device as an `AudioSource`. The blocking ALSA reads run on a thread of their
/// own (`CaptureThread`) and reach the session through a bounded queue. A device that
/// cannot be opened, or goes away, is said (`lost`) and reopened with backoff — 1, 2, 4 …
/// 30 s — until it answers (`listening`); a device that goes on failing to open is said
/// once. Only
/// a permission error ends the stream, thrown: waiting will not fix it. Cancelling the
/// iterating task ends the stream at once (a backoff wait too); `close` then lets the
/// device go. A source that ends by itself (a recording played by `PlayReader`) ends the
/// stream. The backoff waits, and the times its blocks are read, are on the clock it is
/// given (the daemon's).
public final class CaptureSource: DeviceSource, AsyncIteratorProtocol {
    public let device: String
    /// Opens the device (or the recording) the thread reads.
    private let opener: () throws(CaptureError) -> any PeriodReader
    /// The clock of the backoff waits and of the blocks' reads.
    private let clock: any IOClock
    private var capture: (any PeriodReader)?
    private var reader: CaptureThread?
    /// The wait before the next attempt to open, and the one after it.
    private var delay: Double?
    private var backoff = 1.0
    /// A failure to open was said (or a loss): later failures to open are not.
    private var lostSaid = false
    /// A device just opened says `listening` before its first block.
    private var saysListening = false
    /// A block read, handed out after the `overrun` or `listening` that precedes it.
    private var pending: AudioBlock?

    public init(device: String, clock: any IOClock = SystemClock()) {
        self.device = device
        self.clock = clock
        opener = { () throws(CaptureError) in try AlsaCapture(device: device) }
    }

    /// A source read through `open`'s reader, named `device` in records and messages:
    /// `somniq run --play FILE` gives a `PlayReader`.
    public init(device: String, clock: any IOClock = SystemClock(), open: @escaping () throws(CaptureError) -> any PeriodReader) {
        self.device = device
        self.clock = clock
        opener = open
    }

    public var source: LogRecord.SessionStart.Source { .device(name: device) }

    public func makeAsyncIterator() -> CaptureSource { self }

    public func next() async throws -> AudioEvent? { try await next(isolation: nil) }

    /// Runs on the iterating actor (the session's): the source is touched by it alone.
    public func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> AudioEvent? {
        if let event = takePending() { return event }
        while !Task.isCancelled {
            guard let reader else {
                if let wait = delay {
                    delay = nil
                    do { try await clock.sleep(until: clock.now + .seconds(wait)) } catch { return nil }
                }
                do throws(CaptureError) {
                    try open()
                } catch {
                    if error.kind == .permission { throw error }
                    let wait = backoff
                    backoff = Swift.min(30, backoff * 2)
                    delay = wait
                    if !lostSaid {
                        lostSaid = true
                        return .lost(error, retrySeconds: wait, wasListening: false)
                    }
                }
                continue
            }
            guard let item = await reader.next() else { return nil }
            switch item {
            case let .failed(error):
                close()
                lostSaid = true
                delay = 1
                backoff = 2
                return .lost(error, retrySeconds: 1, wasListening: true)
            case .ended:
                close()
                return nil
            case let .samples(slot, count, overrunFrames, read):
                pending = AudioBlock(reader.samples(slot: slot, count: count), read: read)
                if overrunFrames > 0 { return .overrun(frames: overrunFrames) }
                return takePending()
            }
        }
        return nil
    }

    /// A block read and not yet handed out, after `listening` when it is the device's first.
    private func takePending() -> AudioEvent? {
        guard let block = pending else { return nil }
        if saysListening {
            saysListening = false
            return .listening
        }
        pending = nil
        return .samples(block)
    }

    private func open() throws(CaptureError) {
        let capture = try opener()
        // What opening touched once (ALSA's configuration, a plugin's client, the libraries
        // it loaded) goes; reading maps back the code it runs (docs/ARCHITECTURE.md, "Lean").
        // What the kernel refuses stays resident, as `somniq run` said when it first let go
        // (this source has no log of its own; a refusal costs memory, nothing else).
        _ = StartupPages.release()
        // Its blocks are stamped on `clock`: the daemon measures a block's wait in the
        // queue on it (`SessionService.hear`).
        let reader = CaptureThread(capture: capture, clock: clock)
        reader.start()
        self.capture = capture
        self.reader = reader
        saysListening = true
    }

    /// Stops the reader and closes the device. A reader still blocked in a read after 1 s
    /// (a stalled device) keeps it: the process ends soon anyway.
    public func close() {
        guard let reader else { return }
        reader.requestStop()
        if reader.waitForExit(within: .seconds(1)) { capture?.close() }
        self.reader = nil
        capture = nil
    }
}
