import ArgumentParser
import Foundation
import SomniqCore
import SomniqIO

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure throughput and memory on a synthetic night (use a release build).",
        discussion: """
        Synthesises HOURS of quiet bedroom (pink-ish noise and a fan hum) with events \
        (snore trains, coughs, T3 smoke alarms) every few minutes, writes it as a 16 kHz \
        WAV file, then replays that file from disk through the whole pipeline on one \
        thread, timing each stage. Prints the speed as a multiple of real time, the time \
        per stage and peak RSS.
        """)

    @Option(help: "Hours of audio to synthesise and replay.")
    var hours = 8.0

    @Option(help: "Directory for the synthetic recording (deleted afterwards).")
    var directory = NSTemporaryDirectory()

    func run() throws {
        guard hours > 0, hours <= 24 else { throw ValidationError("--hours must be in (0, 24]") }
        // A new directory only this process can enter (mkdtemp): nothing planted in a
        // shared /tmp can be followed or overwritten.
        var template = Array(((directory as NSString).appendingPathComponent("somniq-bench-XXXXXX")).utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw fail("\(directory): cannot create a directory for the recording: \(String(cString: strerror(errno)))", Exit.ioError)
        }
        let scratch = String(cString: made)
        let path = (scratch as NSString).appendingPathComponent("night.wav")
        defer {
            unlink(path)
            rmdir(scratch)
        }
        let seconds = hours * 3600
        print(String(format: "synthesising %.1f h of 16 kHz audio to %@ …", hours, path))
        let t0 = Date()
        do { try SyntheticNight.write(to: path, seconds: seconds) } catch {
            throw fail("\(error)", Exit.ioError)
        }
        print(String(format: "  written in %.1f s", Date().timeIntervalSince(t0)))
        let report = try Benchmark.replay(path: path)
        let rt = seconds / report.total
        print(String(format: "replayed %.1f h in %.2f s: %.0f× real time (one core)", hours, report.total, rt))
        for (name, t) in report.stages {
            print("  " + name.padding(toLength: 28, withPad: " ", startingAt: 0)
                  + String(format: "%7.2f s  %5.1f %%", t, 100 * t / report.total))
        }
        print(String(format: "events: %d (%d alerts)", report.events, report.alerts))
        print(String(format: "peak RSS: %.1f MB", Double(report.peakRSSKB) / 1024))
    }
}
