import AlarmBattery
import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqAudio
import SomniqConfig
import SomniqCore
import SomniqSupport

/// `somniq-battery`: makes the alarm battery's cases, pushes each through somniq's
/// pipeline as `somniq replay` would, and prints the score.
struct SomniqBattery: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "somniq-battery",
        abstract: "Score somniq's smoke/CO alarm detection on a deterministic battery of synthetic alarms and look-alikes.",
        discussion: """
            Alarms: T3, T4, the 520 Hz T3, continuous horns and steady beeping, over every \
            background kind, at in-band SNRs of 3-40 dB. Look-alikes: alarm clocks, phones, \
            microwaves, washers, low-battery chirps, music, whistling wind, hum, voices, ticking \
            clocks, compressors, reversing beepers and beating fans. \
            Exits 0 whatever the score; the last line says how many cases failed.
            """)

    @Option(help: "Alarm cases to run.")
    var alarms = 600
    @Option(help: "Look-alike cases to run.")
    var lookalikes = 200
    @Option(help: "Seed of the battery: the same seed gives the same cases.")
    var seed: UInt64 = 1
    @Option(help: "Corpus whose backgrounds/<kind>/*.wav loops are used as backgrounds.")
    var corpus = "../shared/corpus"
    @Option(help: "Profile name or path to a profile JSON file.")
    var profile = "balanced"
    @Option(name: .customLong("profile-dir"), help: ArgumentHelp("Directory searched for named profiles.", visibility: .hidden))
    var profileDirectory = "/etc/somniq/profiles"
    @Option(help: "Also write each case here: WAV (32-bit float, about 2 MB a case), .tsv labels and .json parameters; `somniq eval DIR` scores the lot.")
    var write: String?
    @Option(name: .customLong("case"), help: "Run only alarm case N (with --write, also write it).")
    var alarmCase: Int?
    @Option(name: .customLong("lookalike-case"), help: "Run only look-alike case N.")
    var lookalikeCase: Int?

    @Flag(name: .customLong("each"), help: "Print every case's verdict and parameters, one line each.")
    var printsEach = false

    func validate() throws {
        guard alarms >= 0, lookalikes >= 0 else { throw ValidationError("--alarms and --lookalikes cannot be negative") }
        if let n = alarmCase ?? lookalikeCase, n < 0 { throw ValidationError("a case number cannot be negative") }
        if alarmCase != nil, lookalikeCase != nil { throw ValidationError("give --case or --lookalike-case, not both") }
    }

    func run() throws {
        let started = Date()   // the machine's clock: the run's time, as a benchmark's
        let profile: Profile
        do { profile = try ProfileLoader(directory: profileDirectory).load(self.profile) } catch {
            throw ValidationError("\(error)")
        }
        let battery = Battery(backgrounds: try loadBackgrounds())
        if let write { try FileManager.default.createDirectory(atPath: write, withIntermediateDirectories: true) }
        let transform = FFTWTransform(size: 1024)
        var summary = BatterySummary(seed: seed, profile: profile.name)
        let single = alarmCase != nil || lookalikeCase != nil
        let work: [(Bool, Int)] = single ? [(alarmCase != nil, alarmCase ?? lookalikeCase!)]
            : (0..<alarms).map { (true, $0) } + (0..<lookalikes).map { (false, $0) }
        for (isAlarm, i) in work {
            let item = isAlarm ? battery.alarmCase(i, seed: seed) : battery.lookalikeCase(i, seed: seed)
            if let write { try CaseFiles.write(item, to: write) }
            let run = try CaseRun(item, transform: transform, profile: profile)
            if single || printsEach { print(run.verdict) }
            summary.add(run)
        }
        print(summary.text)
        StandardError.write(String(cFormat: "battery: %d cases in %.1f s\n", work.count, Date().timeIntervalSince(started)))
        print("battery: \(summary.failures.count) failures")
    }

    /// The corpus's loops, or none (with a note) when it has no backgrounds folder.
    func loadBackgrounds() throws -> [String: [[Float]]] {
        if let loops = try BackgroundLoops.load(corpus: corpus) { return loops }
        StandardError.write("battery: no \(corpus)/backgrounds; only the synthetic backgrounds (pink, fan, hum) are used\n")
        return [:]
    }
}

/// A case on disk: `<name>.wav` (16 kHz mono, 32-bit float, so the samples are exact),
/// `<name>.tsv` in the corpus's label format and `<name>.json` with its parameters.
enum CaseFiles {
    struct Parameters: Encodable {
        var name: String, index: Int, seed: UInt64, isAlarm: Bool, family: String, background: String
        var inBandSnrDb: Double, peakDbfs: Double, clipped: Bool, belowSpec: Bool, required: Bool
        var groupPeriodS: Double?
        var labels: [[Double]]
        var parameters: String
    }

    static func write(_ item: BatteryCase, to directory: String) throws {
        let base = directory + "/" + String(cFormat: "%@%04d", item.isAlarm ? "alarm" : "lookalike", item.index)
        try wav(item.samples).write(to: URL(fileURLWithPath: base + ".wav"))
        let tsv = item.labels.map { String(cFormat: "%.3f\t%.3f\tsmoke_alarm\n", $0.onset, $0.offset) }.joined()
        try tsv.write(toFile: base + ".tsv", atomically: true, encoding: .utf8)
        let p = Parameters(name: item.name, index: item.index, seed: item.seed, isAlarm: item.isAlarm, family: item.family,
                           background: item.background, inBandSnrDb: item.inBandSnrDb, peakDbfs: item.peakDbfs,
                           clipped: item.clipped, belowSpec: item.belowSpec, required: item.isRequired,
                           groupPeriodS: item.groupPeriod, labels: item.labels.map { [$0.onset, $0.offset] },
                           parameters: item.parameters)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(p).write(to: URL(fileURLWithPath: base + ".json"))
    }

    /// A RIFF/WAVE file of IEEE float samples (format tag 3), 16 kHz mono.
    static func wav(_ samples: [Float]) -> Data {
        var d = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        let rate = UInt32(Battery.sampleRate), bytes = UInt32(samples.count * 4)
        d.append(contentsOf: Array("RIFF".utf8)); u32(4 + 26 + 12 + 8 + bytes)
        d.append(contentsOf: Array("WAVE".utf8))
        d.append(contentsOf: Array("fmt ".utf8)); u32(18); u16(3); u16(1); u32(rate); u32(rate * 4); u16(4); u16(32); u16(0)
        d.append(contentsOf: Array("fact".utf8)); u32(4); u32(UInt32(samples.count))
        d.append(contentsOf: Array("data".utf8)); u32(bytes)
        for s in samples { u32(s.bitPattern) }
        return d
    }
}

SomniqBattery.main()
