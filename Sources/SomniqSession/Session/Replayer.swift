import FoundationEssentials
import Glibc
import SomniqAudio
import SomniqCore
import SomniqLog
import SomniqSinks

/// Replays audio files through the pipeline live capture uses, to the same kind of
/// sinks, as fast as the machine allows: `FileSource` → `Session` (the `Pipeline`) →
/// sinks.
public final class Replayer {
    /// What each file's session is made of: profile, rules, clips, … (`SessionFactory`).
    public var factory: SessionFactory
    /// When the recording began (Unix time): records get wall-clock times, and event ids
    /// name the session, so they stay unique in a log of many sessions.
    public var start: Double?
    /// After a replay with `factory.compared` profiles: what each of them would have raised.
    public private(set) var comparison: ProfileComparison?

    /// 1: decode, resample and analyse on the calling thread. 2: decode and resample on a
    /// thread of their own, which also analyses windows ahead when it has time
    /// (`ReadAhead`). The outputs are the same.
    public var threads = Replayer.defaultThreads
    /// 2 where the machine has two cores or more, else 1.
    public static var defaultThreads: Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 ? 2 : 1 }
    /// Times the reader thread's stages when `threads` is 2 (the benchmark does); called on
    /// that thread.
    public var readerMeasure: ((Stage, () -> Void) -> Void)?
    /// After a replay on two threads: the CPU time its reader's thread took, seconds.
    public private(set) var readerCPUSeconds: Double?

    public init(profile: Profile, watch: InputWatch.Limits = .init()) {
        factory = SessionFactory(profile: profile, watch: watch)
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
                       progress: ((Double) -> Void)? = nil) async throws -> Session.Summary {
        let file = try FileSource(path: path)
        let session = factory.session(sinks: sinks, idPrefix: start.map { "r\(Int($0))-e" } ?? "e",
                                      times: start.map(Session.WallTimes.recording(startingAt:)))
        // Whatever ends the replay, the other profiles' tallies are what it heard.
        defer { comparison = session.pipeline.comparison }
        try session.start(file.source)
        // The reader stays the pipeline's until the session is over: the last windows (at the
        // end, `finish`) may be analysed by it.
        let reader = threads >= 2 ? ReadAhead(file: file, extractor: session.pipeline.extractor,
                                              measure: readerMeasure ?? { $1() }) : nil
        session.pipeline.ahead = reader
        reader?.start()
        defer {
            reader?.stop()
            readerCPUSeconds = reader?.readerCPUSeconds
        }
        var reported: Int64 = 0
        func heard(_ samples: UnsafeBufferPointer<Float>, framesRead: Int64, fraction: @autoclosure () -> Double) throws {
            try session.push(samples)
            if let progress, framesRead - reported >= Int64(file.sampleRate) * 60 {
                reported = framesRead
                progress(fraction())
            }
        }
        do {
            if let reader {
                while let block = try reader.next() {
                    try heard(block.samples, framesRead: block.framesRead, fraction: block.fraction)
                }
            } else {
                if let measure = factory.measure { file.measure = measure }
                // A file yields only samples (`AudioEvent`'s other cases are a device's).
                for try await case let .samples(block) in file {
                    try heard(block.samples, framesRead: file.framesRead, fraction: file.fraction)
                }
            }
        } catch let error as AudioFileError {
            // The file broke off mid-stream: what was heard is decided and every open event
            // is closed, and the session ends saying why, before the error is reported.
            try session.finish()
            try beforeEnd?(session)
            try session.end(reason: .decodeError, error: error.problem)
            throw error
        }
        progress?(1)
        if let problem = file.lengthProblem {
            try session.status(.lengthMismatch, details: [.headerSeconds(file.lengthUnknown ? nil : file.headerSeconds.asLogged()),
                                                            .audioSeconds(file.audioSeconds.asLogged())])
            warning?(problem)
        }
        if file.nonFinite > 0, let first = file.firstNonFinite {
            try session.status(.badSamples, details: [.samples(Int(file.nonFinite)), .firstSeconds(first.asLogged())])
            warning?(String(cFormat: "%lld samples were not numbers (NaN or infinite), the first at %.2f s; they were analysed as silence",
                            file.nonFinite, first))
        }
        try session.finish()
        try beforeEnd?(session)
        try session.end(reason: .endOfFile)
        return session.summary
    }
}
