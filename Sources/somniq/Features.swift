import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqAudio
import SomniqConfig
import SomniqCore
import SomniqSession

/// Prints what the classifier sees: one row per window, for tuning rules.
struct Features: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "features",
        abstract: "Print every window's features and class scores as TSV (for tuning).")

    @Argument(help: "Audio file.", completion: .file())
    var file: String

    @Option(help: "Profile name or path.")
    var profile = "balanced"

    @Flag(help: "Also print what each class's own rule says of the window, before the arbitration (columns r_<class>).")
    var rules = false

    @Flag(help: "Print instead the inputs of the learned rules (`somniq rules inputs`) beside every class's score, in full precision: what tools/learn/train.py fits on.")
    var inputs = false

    @Option(help: ArgumentHelp("With --inputs, also write each printed window's log-mel rows (the spectrogram network's input: 16 rows of 32 bands, dB) to this file, as little-endian 32-bit floats, 512 per window in the rows' order: what tools/learn/train.py fits the network on.", valueName: "file"))
    var mel: String?

    @OptionGroup var learned: RulesOptions

    func run() async throws {
        if inputs { return try await printInputs() }
        if mel != nil { throw ValidationError("--mel goes with --inputs") }
        let p: Profile
        do { p = try ProfileLoader().load(profile) } catch { throw fail("\(error)", Exit.dataError) }
        let classes = SoundClass.allCases
        print((["t", "level", "floor", "snr", "peak_snr", "active", "run", "loud_run", "bursts", "loud_bursts", "onset", "onset_s", "centroid", "rolloff",
                "flat", "flux", "zcr", "harm", "voiced", "f0", "f0_iqr", "tonal", "tonal_hz", "tonal_stab", "two_tone", "mod", "flutter", "novelty", "tone_runs", "tone_s"]
               + Bands.names.map { "x" + $0 } + Bands.names.map { "s" + $0 } + classes.map(\.rawValue)
               + (rules ? classes.map { "r_" + $0.rawValue } : [])).joined(separator: "\t"))
        do {
            let replayer = Replayer(profile: p)
            replayer.factory.learned = try learned.load()
            replayer.factory.reportsWindows = true
            try await replayer.replay(path: file, to: [WindowPrinter { f, s in
                var row: [String] = [String(cFormat: "%.1f", f.startSeconds)]
                let values: [Float] = [f.levelDbfs, f.floorDbfs, f.snrDb, f.peakSnrDb, f.activeFraction, f.longestRunSeconds, f.loudRunSeconds,
                                       Float(f.bursts), Float(f.loudBursts), f.onsetDb, f.onsetSeconds, f.centroidHz, f.rolloffHz, f.flatness, f.flux, f.zcr,
                                       f.harmonicity, f.voicedFraction, f.f0Hz, f.f0SpreadHz, f.tonalFraction, f.tonalHz,
                                       f.tonalStability, f.twoToneStability, f.modulation, f.flutter, f.noveltyDb, Float(f.toneRuns), f.longestToneSeconds]
                row += values.map { String(cFormat: "%.2f", $0) }
                row += (0..<Bands.count).map { String(cFormat: "%.1f", f.excessDb[$0]) }
                row += (0..<Bands.count).map { String(cFormat: "%.2f", f.excessShare[$0]) }
                row += classes.map { String(cFormat: "%.2f", s[$0]) }
                if rules {
                    let r = ClassScores(rulesOf: f)
                    row += classes.map { String(cFormat: "%.2f", r[$0]) }
                }
                print(row.joined(separator: "\t"))
            }])
        } catch let error as AudioFileError {
            throw fail("\(error)", Exit.dataError)
        }
    }
}

extension Features {
    /// One row per window: its time, every class's score, then every learned input, each
    /// Float printed so that it reads back exactly (`%.9g`).
    private func printInputs() async throws {
        let classes = SoundClass.allCases
        print((["t"] + classes.map(\.rawValue) + LearnedInputs.names).joined(separator: "\t"))
        var waiting: [Int: [Float]] = [:]
        var melFile: UnsafeMutablePointer<FILE>?
        if let mel {
            guard let f = fopen(mel, "wb") else { throw fail("\(mel): cannot write: \(String(cString: strerror(errno)))", Exit.ioError) }
            melFile = f
        }
        defer { if let melFile { fclose(melFile) } }
        do {
            let replayer = Replayer(profile: try ProfileLoader().load(profile))
            replayer.factory.learned = try learned.load()
            replayer.factory.reportsWindows = true
            replayer.factory.reportsInputs = true
            try await replayer.replay(path: file, to: [WindowPrinter(inputs: { waiting[$0] = $1 }) { f, s in
                guard let x = waiting.removeValue(forKey: f.index) else { return }
                var row = String(cFormat: "%.1f", f.startSeconds)
                for c in classes { row += String(cFormat: "\t%.9g", s[c]) }
                for v in x { row += String(cFormat: "\t%.9g", v) }
                print(row)
                if let melFile {
                    var rows = f.mel
                    withUnsafeBytes(of: &rows) { _ = fwrite($0.baseAddress, 1, $0.count, melFile) }
                }
            }])
        } catch let error as AudioFileError {
            throw fail("\(error)", Exit.dataError)
        } catch let error as ProfileError {
            throw fail("\(error)", Exit.dataError)
        }
    }
}
