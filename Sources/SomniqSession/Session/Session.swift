import FoundationEssentials
import Glibc
import SomniqCore
import SomniqLog
import SomniqSinks
import SomniqSupport

/// One stream through the pipeline to its sinks: an audio source (a file, a capture
/// device) pushes samples here; each output becomes one record, built once, and goes
/// to every sink in order — the event log first, the record of truth.
public final class Session {
    /// What a session heard (`SessionSummary`, which the sinks are given at its end).
    public typealias Summary = SessionSummary

    /// Wall-clock times, for live sessions and replays given a start: of a stream time
    /// (event onsets and offsets), and of now (session start and end, status records). Nil
    /// otherwise: a recording's records carry stream time only.
    public struct WallTimes {
        /// The Unix time of a stream time.
        public var unix: (Double) -> Double
        /// Now, when the stream has reached the given time.
        public var now: (Double) -> String
        public init(unix: @escaping (Double) -> Double, now: @escaping (Double) -> String) {
            self.unix = unix
            self.now = now
        }
        /// A recording that began at Unix time `start`: its "now" is the wall-clock time of
        /// the stream time reached.
        public static func recording(startingAt start: Double) -> WallTimes {
            let unix: (Double) -> Double = { start + $0 }
            return WallTimes(unix: unix, now: { WallClock.iso8601(Date(timeIntervalSince1970: unix($0))) })
        }
        /// The ISO 8601 time of a stream time, as records carry it.
        public func at(_ streamSeconds: Double) -> String {
            WallClock.iso8601(Date(timeIntervalSince1970: unix(streamSeconds)))
        }
    }

    public let pipeline: Pipeline
    private let sinks: [RecordSink]
    private let version: String
    public var times: WallTimes?
    /// Clips of alerted events (opt-in); nil keeps none.
    public var clips: ClipCapture?
    /// The audio itself, kept as FLAC night by night (opt-in, live sessions: it needs
    /// `times`); nil keeps none. Its owner makes its directory ready (`NightAudio.prepare`)
    /// before `start`, and keeps listening if that fails.
    public var nightAudio: NightAudio?
    public private(set) var summary = Summary()

    public init(pipeline: Pipeline, sinks: [RecordSink], version: String) {
        self.pipeline = pipeline
        self.sinks = sinks
        self.version = version
    }

    public var streamSeconds: Double { StreamClock.seconds(pipeline.streamFrames) }

    /// Starts the session: its clips directory is made ready first (a path that is not a
    /// directory, or cannot be written, throws `StoreFailure` before any record).
    public func start(_ source: LogRecord.SessionStart.Source) throws {
        try clips?.prepare()
        try send(.start(source, pipeline.profile),
                 .sessionStart(.init(source: source, profile: pipeline.profile, version: version, learned: pipeline.learned,
                                     startTime: times?.now(streamSeconds))))
    }

    /// Pushes 16 kHz mono samples through the pipeline and its outputs to the sinks.
    public func push(_ samples: UnsafeBufferPointer<Float>) throws {
        clips?.append(samples)
        if let nightAudio, let times { nightAudio.append(samples, at: pipeline.streamFrames, unix: times.unix) }
        for output in pipeline.push(samples) { try send(output) }
        try reportSkippedClips()
        try reportNightAudio()
    }

    /// Puts a new profile in force; events of classes it disables end now.
    public func reload(_ profile: Profile) throws {
        for output in pipeline.reload(profile) { try send(output) }
    }

    /// A condition of the daemon; `alert`: critical (the daemon cannot hear).
    public func status(_ status: LogStatus, alert: Bool = false, details: [LogRecord.Status.Detail] = []) throws {
        try send(.status(status, alert: alert),
                 .status(.init(status, streamSeconds: streamSeconds, alert: alert, details: details, time: times?.now(streamSeconds))))
    }

    /// After a session that ended uncleanly (`UncleanEnd`): says so, with the ids of the
    /// events it left open, and closes each of them, `truncated`, with no offset.
    public func closeUnclean(_ open: [UncleanEnd.OpenEvent]) throws {
        try status(.previousSessionUnclean, details: [.openIDs(open.map(\.id))])
        for e in open {
            try send(.closedUnseen(id: e.id, soundClass: e.soundClass), .eventEnd(.init(closingUnseen: e.id, soundClass: e.soundClass)))
        }
    }

    /// Ends the stream: what the pipeline still holds is decided, and open events close.
    /// Their clips are written (waiting up to `clipsWithin` for the disk), and the night
    /// audio's last part (up to `nightAudioWithin`).
    public func finish(clipsWithin: Duration = .seconds(10), nightAudioWithin: Duration = .seconds(10)) throws {
        for output in pipeline.finish() { try send(output) }
        clips?.finish(within: clipsWithin)
        try reportSkippedClips()
        nightAudio?.finish(within: nightAudioWithin)
        try reportNightAudio()
    }

    /// What the night audio has to say, as `status` records: each part started
    /// (`night_audio`, with its `path`, `night`, `start_s` and `start_time`), a disk that
    /// refuses (`night_audio_failed`), audio not kept (`night_audio_dropped`, with
    /// `from_s`, `from_time`, `seconds` and the `reason`), nights deleted (`night_audio_deleted`).
    private func reportNightAudio() throws {
        guard let nightAudio else { return }
        for s in nightAudio.takeSaid() { try status(s.status, details: s.details) }
    }

    /// A clip that could not be kept is a `clip_skipped` status: the event, the file, why
    /// (`reason`: `no_space`, `queue_full` or `failed`; `error`: in words).
    /// It follows the event's `event_end`, whose `clip` it withdraws (`LogRecord.EventEnd.clip`).
    private func reportSkippedClips() throws {
        guard let clips else { return }
        for s in clips.takeSkipped() {
            try status(.clipSkipped, details: [.id(s.id), .path(s.path), .reason(s.reason), .error(s.problem)])
        }
    }

    /// The last record: `session_end`, with the session's counts, and `error` when the
    /// stream broke off.
    public func end(reason: LogRecord.EndReason, error: String? = nil) throws {
        summary.streamSeconds = streamSeconds
        summary.reason = reason
        try send(.end(summary), .sessionEnd(.init(streamSeconds: summary.streamSeconds, events: summary.events,
                                                  alerts: summary.alerts, reason: reason, classes: summary.classes,
                                                  endTime: times?.now(streamSeconds), error: error)))
    }

    private func send(_ output: PipelineOutput) throws {
        let logged: LogRecord?
        switch output {
        case let .start(e):
            summary.classes[e.soundClass.index].count(e)
            logged = .eventStart(.init(e, time: times?.at))
            clips?.started(e, unix: times?.unix(e.onset))
        case let .end(e):
            summary.classes[e.soundClass.index].count(e)
            logged = .eventEnd(.init(e, time: times?.at, clip: clips?.ended(e)))
        case let .input(c):
            logged = .status(.init(c.kind.status, streamSeconds: c.streamSeconds, alert: true,
                                   details: [.seconds(c.seconds)], time: times?.now(streamSeconds)))
        case let .level(m):
            logged = .level(.init(m, time: times?.at(m.startSeconds)))
        case .window, .inputs:
            logged = nil
        }
        try send(.output(output), logged)
    }

    /// The record is built once, here, for every sink.
    private func send(_ record: SessionRecord, _ logged: LogRecord?) throws {
        for sink in sinks { try sink.write(record, logged: logged) }
    }
}
