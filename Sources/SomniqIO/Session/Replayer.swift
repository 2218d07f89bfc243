import Foundation
import SomniqCore

/// Replays audio files through the pipeline live capture uses, to the same kind of
/// sinks, as fast as the machine allows: `FileSource` → `Session` (the `Pipeline`) →
/// sinks.
public final class Replayer {
    public var profile: Profile
    public var watch: InputWatch.Limits
    /// Also report every decided window (for `somniq features`).
    public var reportsWindows = false
    /// The learned rules and which classes they decide (`Classifier.init`).
    public var learned = LearnedRules.builtin
    /// Also report every window's learned inputs (for `somniq features --inputs`).
    public var reportsInputs = false
    /// Times each stage (the benchmark does); nil runs them untimed.
    public var measure: ((Stage, () -> Void) -> Void)?
    public var version = "0.1.0"
    /// When the recording began (Unix time): records get wall-clock times, and event ids
    /// name the session, so they stay unique in a log of many sessions.
    public var start: Double?
    /// Profiles to judge the same scores beside `profile` (`somniq compare`); their
    /// tallies are in `comparison` after a replay.
    public var compared: [Profile] = []
    /// Keep clips of the alerted events in this directory, within the
    /// policy's quota (`max_mb`, `max_age_days`), as the daemon does.
    public var clips: (policy: ClipPolicy, directory: String)?
    public private(set) var comparison: ProfileComparison?
    private let transform = FFTWTransform(size: 1024)

    public init(profile: Profile, watch: InputWatch.Limits = .init()) {
        self.profile = profile
        self.watch = watch
    }

    /// Called once a file's audio is all decided, before its `session_end`: the place for
    /// last records of the session (the sinks' `sink_dropped`).
    public var beforeEnd: ((Session) throws -> Void)?

    /// Told of what was wrong with a file but did not stop the replay.
    public var warning: ((String) -> Void)?

    /// Replays one file to `sinks`; `progress` receives the fraction done (once per
    /// minute of audio, and at the end).
    @discardableResult
    public func replay(path: String, to sinks: [RecordSink],
                       progress: ((Double) -> Void)? = nil) throws -> Session.Summary {
        let file = try FileSource(path: path)
        let pipeline = try Pipeline(transform: transform, profile: profile, idPrefix: start.map { "r\(Int($0))-e" } ?? "e",
                                    watch: watch, reportsWindows: reportsWindows, learned: learned, reportsInputs: reportsInputs)
        if !compared.isEmpty { pipeline.comparison = ProfileComparison(profiles: compared) }
        // Whatever ends the replay, the other profiles' tallies are what it heard.
        defer { comparison = pipeline.comparison }
        if let measure {
            file.measure = measure
            pipeline.measure = measure
        }
        let session = Session(pipeline: pipeline, sinks: sinks, version: version)
        if let start {
            // A recording's "now" is the wall-clock time of the stream time reached.
            session.times = .init(unix: { start + $0 }, now: { [unowned session] in session.times?.at(session.streamSeconds) ?? "" })
        }
        if let clips {
            session.clips = ClipCapture(policy: clips.policy, directory: clips.directory, profile: profile)
        }
        try session.start(file.source)
        var reported: Int64 = 0
        do {
            while try file.next({ try session.push($0) }) {
                if let progress, file.framesRead - reported >= Int64(file.sampleRate) * 60 {
                    reported = file.framesRead
                    progress(file.fraction)
                }
            }
        } catch let error as AudioFileError {
            // The file broke off mid-stream: what was heard is decided and every open event
            // is closed, and the session ends saying why, before the error is reported.
            try session.finish()
            try beforeEnd?(session)
            try session.end(reason: "decode_error", error: error.problem)
            throw error
        }
        progress?(1)
        if let problem = file.lengthProblem {
            try session.status("length_mismatch", details: [("header_s", .rounded(file.headerSeconds)),
                                                            ("audio_s", .rounded(file.audioSeconds))])
            warning?(problem)
        }
        if file.nonFinite > 0, let first = file.firstNonFinite {
            try session.status("bad_samples", details: [("samples", .number(Double(file.nonFinite))), ("first_s", .rounded(first))])
            warning?(String(format: "%lld samples were not numbers (NaN or infinite), the first at %.2f s; they were analysed as silence",
                            file.nonFinite, first))
        }
        try session.finish()
        try beforeEnd?(session)
        try session.end(reason: "end_of_file")
        return session.summary
    }
}
