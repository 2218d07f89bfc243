import SomniqAudio
import SomniqCore
import SomniqSupport
import Synchronization

/// A recording heard as a microphone would hear it (`somniq run --play FILE`): decoded,
/// downmixed and resampled to 16 kHz mono exactly as `somniq replay` reads it
/// (`FileSource`), and handed to the capture thread a period at a time at real time. The
/// pace comes from the samples given, on the monotonic clock it is given (the machine's; a
/// test's): the read that ends at sample n returns n / 16000 s after the first read began,
/// so a late wake-up is caught up and never accumulates, and a wall-clock step changes
/// nothing. Everything after the reader
/// — the capture thread, the session, its sinks, page, clips and stall watch — is the
/// daemon's own. The stream ends with the recording.
public final class PlayReader: PeriodReader {
    public let path: String
    public let periodFrames: Int
    private let file: FileSource
    /// The file's current block of 16 kHz samples, and how much of it has been handed out.
    private var block = UnsafeBufferPointer<Float>(start: nil, count: 0)
    private var used = 0
    private var ended = false
    /// When the first read began, and the samples handed out since.
    private var start: ContinuousClock.Instant?
    private var delivered: Int64 = 0
    private let clock: any IOClock
    /// What a read waits on for its time: nothing signals it, its deadline ends the wait.
    private let pace = PosixCondition()
    /// Told why the recording stopped before its end, if it does (a file that breaks off).
    private let failed: Failure?

    /// Why a recording stopped before its end, for whoever started it to say.
    public final class Failure: Sendable {
        private let said = Mutex<String?>(nil)
        public init() {}
        public var text: String? { said.withLock { $0 } }
        func set(_ text: String) { said.withLock { $0 = text } }
    }

    /// Opens `path` (any file libsndfile reads); an error names the file.
    public init(path: String, periodFrames: Int = 1600, failed: Failure? = nil, clock: any IOClock = SystemClock()) throws(AudioFileError) {
        self.path = path
        self.periodFrames = periodFrames
        self.failed = failed
        self.clock = clock
        file = try FileSource(path: path)
    }

    /// The seconds of the recording handed out so far.
    public var seconds: Double { Double(delivered) / Double(StreamClock.sampleRate) }

    /// Up to a period of the recording, returned when a microphone would have heard its last
    /// sample; fewer at the recording's end; nil once it is all played (or the file breaks
    /// off: `failed` is told how).
    public func readPeriod(into out: UnsafeMutableBufferPointer<Float>) throws(CaptureError) -> AlsaCapture.Read? {
        if start == nil { start = clock.now }
        let want = Swift.min(out.count, periodFrames)
        var n = 0
        while n < want {
            if used == block.count {
                guard !ended, fill() else { break }
                continue
            }
            let k = Swift.min(want - n, block.count - used)
            for i in 0..<k { out[n + i] = block[used + i] }
            n += k
            used += k
        }
        guard n > 0 else { return nil }
        delivered += Int64(n)
        sleep(untilSample: delivered)
        return AlsaCapture.Read(frames: n, overrunFrames: 0)
    }

    /// The file's next block; false at its end or when it cannot be read further.
    private func fill() -> Bool {
        do {
            guard let next = try file.nextBlock() else {
                ended = true
                return false
            }
            block = next.samples
            used = 0
            return true
        } catch {
            ended = true
            failed?.set("\(error); played \(JSONValue.format(seconds)) s of it")
            return false
        }
    }

    /// Waits until `sample` / 16000 s after the start, on the clock.
    private func sleep(untilSample sample: Int64) {
        guard let start else { return }
        let rate = Int64(StreamClock.sampleRate)
        let deadline = start + .seconds(sample / rate) + .nanoseconds((sample % rate) * 1_000_000_000 / rate)
        pace.lock()
        while clock.wait(pace, until: deadline) {}
        pace.unlock()
    }

    public func close() {}
}
