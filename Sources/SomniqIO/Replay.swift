import SomniqCore

/// Replays audio files through the same pipeline live capture uses, as fast as the
/// machine allows: decode (libsndfile) → downmix → resample to 16 kHz (libsamplerate)
/// → `Pipeline`.
public final class Replayer {
    /// What a replay reports, in order: the session, its events, its end.
    public enum Record {
        case sessionStart(Records.Source)
        case output(AlertOutput)
        case sessionEnd(Summary)
    }

    public struct Summary: Sendable {
        public var streamSeconds: Double
        public var events: Int
        public var alerts: Int
    }

    public private(set) var profile: Profile
    private let transform = FFTWTransform(size: 1024)
    private var block = [Float](repeating: 0, count: 8192)

    public init(profile: Profile) {
        self.profile = profile
    }

    /// Replays one file. `record` receives every record; `progress` the fraction done
    /// (once per minute of audio, and at the end); `onWindow` every window's features and scores.
    public func replay(path: String,
                       record: (Record) throws -> Void,
                       progress: ((Double) -> Void)? = nil,
                       onWindow: ((WindowFeatures, ClassScores) -> Void)? = nil) throws -> Summary {
        let reader = try AudioFileReader(path: path)
        let resampler: Resampler
        do { resampler = try Resampler(inputRate: reader.sampleRate, maxBlock: block.count) } catch {
            throw AudioFileError(path: path, problem: error.description)
        }
        let pipeline = try Pipeline(transform: transform, profile: profile)
        pipeline.onWindow = onWindow
        try record(.sessionStart(.file(path: path, sampleRate: reader.sampleRate, channels: reader.channels,
                                       format: reader.formatName)))
        var summary = Summary(streamSeconds: 0, events: 0, alerts: 0)
        var pending: [AlertOutput] = []
        func collect(_ o: AlertOutput) {
            if case let .start(e) = o {
                summary.events += 1
                if e.alert { summary.alerts += 1 }
            }
            pending.append(o)
        }
        var lastProgress: Int64 = 0
        while true {
            let n = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            let last = n == 0
            do {
                try block.withUnsafeBufferPointer { b in
                    try resampler.process(UnsafeBufferPointer(rebasing: b[0..<n]), last: last) { samples in
                        pipeline.push(samples, emit: collect)
                    }
                }
            } catch let failure as Resampler.Failure {
                throw AudioFileError(path: path, problem: failure.description)
            }
            for o in pending { try record(.output(o)) }
            pending.removeAll(keepingCapacity: true)
            if let progress, reader.framesRead - lastProgress >= Int64(reader.sampleRate) * 60 || last {
                lastProgress = reader.framesRead
                progress(Double(reader.framesRead) / Double(max(1, reader.frames)))
            }
            if last { break }
        }
        pipeline.finish(emit: collect)
        for o in pending { try record(.output(o)) }
        summary.streamSeconds = StreamClock.seconds(pipeline.streamFrames)
        try record(.sessionEnd(summary))
        return summary
    }
}
