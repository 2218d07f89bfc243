import CSndFile
import FoundationEssentials
import Glibc
import SomniqCore

/// Times the replay pipeline stage by stage, on one thread or two (`Replayer.threads`).
public enum Benchmark {
    public struct Report {
        /// Wall-clock seconds of the replay.
        public var total: Double
        /// CPU seconds the process spent in the replay (user and system, every thread): on a
        /// machine busy with other work this holds where the wall clock does not.
        public var cpu: Double
        public var stages: [(String, Double)]
        public var events: Int
        public var alerts: Int
        public var threads: Int
        /// With two threads: the CPU seconds of the reader's thread (the rest is the analysis's).
        public var readerCPU: Double?
    }

    /// Replays `path` through `Replayer` — the path `somniq replay` takes — to no sink
    /// (the session's summary counts the events), timing each stage. With two threads the
    /// reader's stages (decoding, resampling, the windows it analyses ahead) are timed
    /// on its thread, apart from the analysis's, and the rest is the analysis thread's.
    public static func replay(path: String, profile: Profile = .balanced, learned: LearnedRules? = LearnedRules.builtin,
                              threads: Int = Replayer.defaultThreads) async throws -> Report {
        let replayer = Replayer(profile: profile)
        replayer.factory.learned = learned
        replayer.threads = threads
        let time = Times(), readerTime = Times()
        replayer.factory.measure = time.measure
        replayer.readerMeasure = readerTime.measure
        let start = now(), startCPU = cpuSeconds()
        let summary = try await replayer.replay(path: path, to: [])
        let total = now() - start, cpu = cpuSeconds() - startCPU
        let analysis: [(Stage, String)] = [(.features, "features (FFTW and the per-bin loops)"),
                                           (.network, "spectrogram network (heard windows)"), (.classify, "classify (rules, learned rules)"), (.alerts, "alerts")]
        let reading: [(Stage, String)] = [(.decode, "decode (libsndfile)"), (.resample, "resample (libsoxr)")]
        var stages: [(String, Double)]
        let rest: Double
        if threads >= 2 {
            let reader = (reading + [(.features, "windows analysed ahead")]).map { ("reader: " + $0.1, readerTime.seconds[$0.0, default: 0]) }
            let analysed = analysis.map { ($0.1, time.seconds[$0.0, default: 0]) }
            stages = reader + analysed
            rest = max(0, total - analysed.reduce(0) { $0 + $1.1 })
        } else {
            stages = (reading + analysis).map { ($0.1, time.seconds[$0.0, default: 0]) }
            rest = max(0, total - stages.reduce(0) { $0 + $1.1 })
        }
        return Report(total: total, cpu: cpu, stages: stages + [("windowing, sinks, the rest", rest)],
                      events: summary.events, alerts: summary.alerts, threads: threads >= 2 ? 2 : 1,
                      readerCPU: replayer.readerCPUSeconds)
    }

    /// Seconds per stage, added up by one thread.
    private final class Times {
        var seconds: [Stage: Double] = [:]
        func measure(_ stage: Stage, _ body: () -> Void) {
            let t = now()
            body()
            seconds[stage, default: 0] += now() - t
        }
    }

    /// The process's user and system time so far (getrusage), in seconds.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The machine's monotonic clock, read directly: a benchmark measures the machine.
    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// A long synthetic night for the benchmark: a quiet room with sounds now and then.
public enum SyntheticNight {
    public struct WriteError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The files the benchmark replays: what a recorder or a phone makes.
    public enum Format: Sendable {
        case wav, flac
        var sndfile: Int32 {
            switch self {
            case .wav: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
            case .flac: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
            }
        }
    }

    /// Writes `seconds` of mono 16-bit audio at `sampleRate` to `path`, streamed in blocks.
    public static func write(to path: String, seconds: Double, sampleRate: Int = StreamClock.sampleRate,
                             format: Format = .wav) throws {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        info.format = format.sndfile
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw WriteError(description: "\(path): cannot create: \(String(cString: sf_strerror(nil)))")
        }
        defer { sf_close(file) }
        let rate = Double(sampleRate)
        let total = Int(seconds * rate)
        var block = [Float](repeating: 0, count: 16_000)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var pink: Float = 0
        var written = 0
        while written < total {
            let n = min(block.count, total - written)
            for i in 0..<n {
                let s = written + i
                let t = Double(s) / rate
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                let white = Float(Int64(bitPattern: state >> 1) % 2_000_000) / 1_000_000 - 1
                pink = 0.97 * pink + 0.03 * white
                var x = 0.01 * pink + 0.003 * Float(sin(2 * Double.pi * 100 * t))
                let cycle = t.truncatingRemainder(dividingBy: 300)       // every 5 minutes:
                if cycle >= 60, cycle < 90, cycle.truncatingRemainder(dividingBy: 4) < 1.2 {   // a snore train
                    x += 0.15 * Float(sin(2 * Double.pi * 70 * t) * sin(Double.pi * cycle.truncatingRemainder(dividingBy: 4) / 1.2))
                }
                if cycle >= 150, cycle < 150.3 { x += 0.3 * white }                              // a cough
                if cycle >= 200, cycle < 212 {                                                   // a T3 alarm
                    let c = (cycle - 200).truncatingRemainder(dividingBy: 4)
                    if c < 3, c.truncatingRemainder(dividingBy: 1) < 0.5 { x += 0.2 * Float(sin(2 * Double.pi * 3100 * t)) }
                }
                block[i] = x
            }
            let w = block.withUnsafeBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t(n)) }
            guard w == n else { throw WriteError(description: "\(path): write failed: \(String(cString: sf_strerror(file)))") }
            written += n
        }
    }
}
