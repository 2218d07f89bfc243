import FoundationEssentials
import Glibc
import SomniqConfig
import SomniqCore
import SomniqLog
import SomniqReports
import SomniqSupport

/// The night's audio as the daemon's session keeps it (`Session.nightAudio`): exactly the
/// samples the pipeline gets, as 16-bit FLAC, in parts cut at each multiple of `part_s` on
/// the local clock (each hour), at noon (a night's end) and wherever the stream's
/// wall-clock time jumps (a device back after a loss, audio dropped), so that every part's
/// audio runs on from one known time: the `night_audio` status record that names it.
///
/// On the audio path it only copies samples into the writer's ring (`NightAudioWriter`),
/// allocating nothing per block; a thread of its own writes the files, so a slow or full
/// disk never holds up listening or the log. What could not be kept is said.
public final class NightAudio {
    public let config: NightAudioConfig
    public let store: NightStore
    private let writer: NightAudioWriter

    /// The part being filled: where it began and the frame at which it ends.
    private struct Part {
        var start: NightAudioWriter.Start
        var end: Int64
    }
    private var part: Part?
    /// The time axis of the parts: the last part's start. A part that follows without a
    /// gap goes on on it, so that parts are cut on the clock however the stream is timed.
    private var axis: NightAudioWriter.Start?
    /// Samples the ring had no room for, since `from`: said when a part begins again.
    private var dropped: (from: NightAudioWriter.Start, frames: Int64)?
    /// The stream's wall-clock time more than this past the parts' is a new part at the
    /// stream's time: the stream stood still while the wall clock ran on (a device back
    /// after a loss, a stalled capture). A stream timed back (`LiveClock`: audio that came in
    /// a burst faster than real time is timed no later than it arrived) goes on on the
    /// parts' axis: its audio has no gap, and its parts are cut on the clock as ever.
    static let jumpSeconds = 0.01

    /// `queueSeconds`: the audio the ring holds while the disk is slow (30 s of 16-bit
    /// samples, 0.96 MB, allocated once). `clock`: the writer's, for how long `finish` waits.
    public init(config: NightAudioConfig, directory: String, queueSeconds: Double = 30, clock: any IOClock = SystemClock()) {
        self.config = config
        store = NightStore(directory: directory)
        writer = NightAudioWriter(store: store, maxBytes: config.maxBytes, keepNights: config.keepNights, queueSeconds: queueSeconds,
                                  clock: clock)
    }

    /// Before the session's first record: the directory is made ready (`NightStore.prepare`).
    public func prepare() throws(StoreFailure) { try store.prepare() }

    /// The next samples of the stream, the first at stream frame `frame`; `unix` gives the
    /// wall-clock time of a stream time (`Session.WallTimes.unix`).
    public func append(_ samples: UnsafeBufferPointer<Float>, at frame: Int64, unix: (Double) -> Double) {
        var done = 0
        while done < samples.count {
            let f = frame + Int64(done)
            if let p = part, f >= p.end || unix(StreamClock.seconds(f)) - (p.start.unix + StreamClock.seconds(f - p.start.frame)) > Self.jumpSeconds {
                part = nil
            }
            if part == nil {
                let now = unix(StreamClock.seconds(f))
                let onAxis = axis.map { $0.unix + StreamClock.seconds(f - $0.frame) }
                let start = NightAudioWriter.Start(frame: f, unix: onAxis.map { now - $0 > Self.jumpSeconds ? now : $0 } ?? now)
                // Half a sample on: a part that starts on a cut, a hair before it in floating
                // point, runs to the next.
                let cut = WallClock.nextCut(after: start.unix + 0.5 / Double(StreamClock.sampleRate), every: config.partSeconds)
                let next = Part(start: start, end: f + max(1, Int64(((cut - start.unix) * Double(StreamClock.sampleRate)).rounded())))
                // A part begins only with samples the ring has room for: never an empty file.
                let wanted = samples.count - done
                guard writer.room() >= min(wanted, Int(next.end - f)), writer.mark(start) else {
                    drop(wanted, at: f, unix: unix)
                    return
                }
                part = next
                axis = start
                if let d = dropped { said.append(Self.lost(from: d.from, frames: d.frames)) }
                dropped = nil
            }
            let take = min(samples.count - done, Int(part!.end - f))
            let slice = UnsafeBufferPointer(rebasing: samples[done..<done + take])
            if !writer.push(slice) {
                drop(take, at: f, unix: unix)
                part = nil
            }
            done += take
        }
    }

    private func drop(_ count: Int, at frame: Int64, unix: (Double) -> Double) {
        if dropped == nil { dropped = (.init(frame: frame, unix: unix(StreamClock.seconds(frame))), 0) }
        dropped!.frames += Int64(count)
    }

    /// The stream ended: the part under way is finished, waiting up to `timeout` for the
    /// disk.
    public func finish(within timeout: Duration) {
        if let d = dropped { said.append(Self.lost(from: d.from, frames: d.frames)) }
        dropped = nil
        part = nil
        let unwritten = writer.finish(within: timeout)
        if unwritten > 0 {
            said.append((.nightAudioDropped, [
                .reason("shutdown"), .seconds(StreamClock.seconds(unwritten).asLogged()),
                .error("the disk had not taken the last \(JSONValue.format(StreamClock.seconds(unwritten))) s when the session ended"),
            ]))
        }
    }

    /// What the session has to say in `status` records, since the last call: each part
    /// started (`night_audio`), a disk that refuses (`night_audio_failed`), audio not kept
    /// (`night_audio_dropped`), nights deleted (`night_audio_deleted`).
    public func takeSaid() -> [(status: LogStatus, details: [LogRecord.Status.Detail])] {
        for n in writer.takeNews() { said.append(Self.record(n)) }
        guard !said.isEmpty else { return [] }
        defer { said.removeAll() }
        return said
    }
    private var said: [(status: LogStatus, details: [LogRecord.Status.Detail])] = []

    static func time(_ unix: Double) -> String { WallClock.iso8601(Date(timeIntervalSince1970: unix)) }

    /// The ring was full: the disk is slower than the audio.
    static func lost(from: NightAudioWriter.Start, frames: Int64) -> (LogStatus, [LogRecord.Status.Detail]) {
        (.nightAudioDropped, [
            .reason("queue_full"), .fromSeconds(StreamClock.seconds(from.frame).asLogged()), .fromTime(time(from.unix)),
            .seconds(StreamClock.seconds(frames).asLogged()),
            .error("the disk was too slow: the audio waiting to be written filled its queue"),
        ])
    }

    static func record(_ n: NightAudioWriter.News) -> (LogStatus, [LogRecord.Status.Detail]) {
        switch n {
        case let .started(path, night, frame, unix):
            (.nightAudio, [.path(path), .night(night), .startSeconds(StreamClock.seconds(frame).asLogged()), .startTime(time(unix))])
        case let .failed(path, reason, problem):
            (.nightAudioFailed, [.path(path), .reason(reason), .error(problem)])
        case let .lost(path, reason, problem, frame, unix, frames):
            (.nightAudioDropped, [.path(path), .reason(reason), .fromSeconds(StreamClock.seconds(frame).asLogged()),
                                  .fromTime(time(unix)), .seconds(StreamClock.seconds(frames).asLogged()), .error(problem)])
        case let .deleted(d):
            (.nightAudioDeleted, [.night(d.night), .reason(d.reason), .megabytes((Double(d.bytes) / 1_000_000).asLogged(1))])
        }
    }
}
