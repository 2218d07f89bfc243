import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqCore
import SomniqSession
import SomniqSupport

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure throughput and memory on a synthetic night (use a release build).",
        discussion: """
        Synthesises HOURS of quiet bedroom (pink-ish noise and a fan hum) with events \
        (snore trains, coughs, T3 smoke alarms) every few minutes and writes it three ways: \
        a 16 kHz WAV, a 16 kHz FLAC and a 48 kHz FLAC, as recorders and phones make them. \
        Each is replayed from disk through the whole pipeline, as `somniq replay` does (on \
        --threads threads), timing each stage. Prints the speed of each as a multiple of real time, by the wall clock and \
        by the CPU time the replay took (which holds on a machine busy with other work), \
        the wall-clock time per stage, and the process's peak RSS.
        """)

    @Option(help: "Hours of audio to synthesise and replay.")
    var hours = 8.0

    @Option(help: "1: decode and analyse on one thread. 2: decode and resample on a thread of their own (the default where the machine has two cores).")
    var threads = Replayer.defaultThreads

    @Option(help: "Directory for the synthetic recordings (deleted afterwards).")
    var directory = temporaryDirectoryPath()

    @OptionGroup var learned: RulesOptions

    func run() async throws {
        guard hours > 0, hours <= 24 else { throw ValidationError("--hours must be in (0, 24]") }
        guard threads == 1 || threads == 2 else { throw ValidationError("--threads must be 1 or 2") }
        // A new directory only this process can enter (mkdtemp): nothing planted in a
        // shared /tmp can be followed or overwritten.
        var template = Array((PathText.appending(directory, "somniq-bench-XXXXXX")).utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw fail("\(directory): cannot create a directory for the recording: \(String(cString: strerror(errno)))", Exit.ioError)
        }
        let scratch = String(cString: made)
        defer { rmdir(scratch) }
        let seconds = hours * 3600
        let inputs: [(name: String, file: String, rate: Int, format: SyntheticNight.Format)] = [
            ("16 kHz WAV", "night-16k.wav", 16_000, .wav),
            ("16 kHz FLAC", "night-16k.flac", 16_000, .flac),
            ("48 kHz FLAC", "night-48k.flac", 48_000, .flac),
        ]
        var speeds: [(name: String, wall: Double, cpu: Double)] = []
        for input in inputs {
            let path = PathText.appending(scratch, input.file)
            defer { unlink(path) }
            print(String(cFormat: "synthesising %.1f h of %@ …", hours, input.name))
            let t0 = Date()   // the machine's clock: a benchmark measures the machine
            do { try SyntheticNight.write(to: path, seconds: seconds, sampleRate: input.rate, format: input.format) } catch {
                throw fail("\(error)", Exit.ioError)
            }
            print(String(cFormat: "  written in %.1f s", Date().timeIntervalSince(t0)))
            let report = try await Benchmark.replay(path: path, learned: try learned.load(), threads: threads)
            let rt = seconds / report.total, cpuRT = seconds / report.cpu
            speeds.append((input.name, rt, cpuRT))
            print(String(cFormat: "replayed %.1f h of %@ in %.2f s: %.0f× real time (%@)", hours, input.name, report.total, rt,
                         report.threads == 1 ? "one thread" : "two threads"))
            print(String(cFormat: "  CPU time %.2f s: %.0f× real time by CPU", report.cpu, cpuRT))
            if let reader = report.readerCPU {
                print(String(cFormat: "  of which the reader's thread %.2f s, the analysis's %.2f s", reader, max(0, report.cpu - reader)))
            }
            for (name, t) in report.stages {
                print("  " + name.padded(toLength: 40)
                      + String(cFormat: "%7.2f s  %5.1f %%", t, 100 * t / report.total))
            }
            print(String(cFormat: "  events: %d (%d alerts)", report.events, report.alerts))
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print()
        for s in speeds {
            print(s.name.padded(toLength: 14) + String(cFormat: "%6.0f× real time, %6.0f× by CPU", s.wall, s.cpu))
        }
        print(String(cFormat: "peak RSS: %.1f MB", Double(usage.ru_maxrss) / 1024))
    }
}
