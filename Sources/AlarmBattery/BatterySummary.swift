import RealModule

/// The battery's score: how many required alarms were found (and as one event), broken
/// down by family, in-band SNR, level and background, the look-alikes that raised a
/// smoke alarm, the low-battery chirps logged as what they are, and the worst cases with all
/// their parameters.
public struct BatterySummary: Sendable {
    public var seed: UInt64
    public var profile: String
    public private(set) var runs: [CaseRun] = []

    public init(seed: UInt64, profile: String) {
        self.seed = seed
        self.profile = profile
    }

    public mutating func add(_ run: CaseRun) { runs.append(run) }

    public var alarms: [CaseRun] { runs.filter(\.isAlarm) }
    public var required: [CaseRun] { runs.filter(\.isRequired) }
    public var lookalikes: [CaseRun] { runs.filter { !$0.isAlarm } }
    /// Every case that breaks what the battery requires: a required alarm missed or split,
    /// a look-alike that raised a smoke alarm, a low-battery chirp not logged as `low_battery`.
    public var failures: [CaseRun] { runs.filter { !$0.passed } }

    /// SNR bands of the breakdown, dB.
    public static let snrBands: [(String, Range<Double>)] = [("6-10 dB", 6..<10), ("10-20", 10..<20), ("20-40", 20..<40.001)]
    /// Level bands of the alarm's peak in the recording, dBFS (a case turned down so its
    /// background stays below full scale can fall under the -60 dBFS it was drawn at).
    public static let levelBands: [(String, @Sendable (CaseRun) -> Bool)] = [
        ("below -40 dBFS", { !$0.clipped && $0.peakDbfs < -40 }),
        ("-40..-20", { !$0.clipped && $0.peakDbfs >= -40 && $0.peakDbfs < -20 }),
        ("-20..-1", { !$0.clipped && $0.peakDbfs >= -20 }),
        ("clipped", { $0.clipped }),
    ]

    private static func percent(_ k: Int, _ n: Int) -> String {
        n == 0 ? "-" : "\(fixed(100 * Double(k) / Double(n), 1)) %"
    }

    /// "found/total" of the required alarms in `group` (found once, within the latency rule).
    private static func tally(_ group: [CaseRun]) -> String {
        "\(group.filter(\.foundOnce).count)/\(group.count)"
    }

    private static func grouped(_ runs: [CaseRun], by key: (CaseRun) -> String, order: [String]) -> String {
        let groups = Dictionary(grouping: runs, by: key)
        return order.compactMap { k in groups[k].map { "\(k) \(tally($0))" } }.joined(separator: "  ")
    }

    /// The report printed by `somniq-battery`.
    public var text: String {
        let req = required, below = alarms.filter { !$0.isRequired }
        let found = req.filter(\.found), split = found.filter { $0.overlapping > 1 }
        let latencies = found.compactMap(\.latency).sorted()
        let median = latencies.isEmpty ? "-" : "\(fixed(latencies[latencies.count / 2], 1)) s"
        var lines = ["alarm battery: seed \(seed), \(alarms.count) alarms, \(lookalikes.count) look-alikes, profile \(profile)"]
        lines.append("alarms      found \(found.count)/\(req.count) (\(Self.percent(found.count, req.count))) within 4 s / by the 2nd T4 group;"
            + " split \(split.count); found once \(req.filter(\.foundOnce).count)/\(req.count); median latency \(median);"
            + " below-spec SNR (3-6 dB, not required) \(below.filter(\.found).count)/\(below.count)")
        let errors = found.compactMap(\.onsetError).map(abs).sorted()
        if !errors.isEmpty {
            lines.append("  onsets: \(errors.filter { $0 <= 0.5 }.count)/\(errors.count) of the found open within 0.5 s of their first beep;"
                + " median \(fixed(errors[errors.count / 2], 2)) s, worst \(fixed(errors.last!, 2)) s")
        }
        lines.append("  (k/n below: required alarms found as one event)")
        lines.append("  by family  " + Self.grouped(req, by: \.family, order: ["t3", "t4", "t3-520", "continuous", "steady-beep"]))
        lines.append("  by in-band SNR  " + Self.snrBands.map { name, r in
            "\(name) \(Self.tally(req.filter { r.contains($0.inBandSnrDb) }))" }.joined(separator: "  "))
        lines.append("  by level  " + Self.levelBands.map { name, test in "\(name) \(Self.tally(req.filter(test)))" }.joined(separator: "  "))
        lines.append("  by timing  inside the accept-ranges \(Self.tally(req.filter { $0.edgeDraws == 0 }))"
            + "  one or more at an edge \(Self.tally(req.filter { $0.edgeDraws > 0 }))")
        let kinds = Set(runs.map(\.background)).sorted()
        lines.append("  by background kind  " + Self.grouped(req, by: \.background, order: kinds))
        let stray = alarms.reduce(0) { $0 + $1.stray }
        if stray > 0 { lines.append("  smoke_alarm events outside the alarm's span in alarm cases: \(stray)") }
        let raised = lookalikes.filter { !$0.events.isEmpty }
        let byKind = Dictionary(grouping: raised, by: \.family).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.count)" }
        lines.append("look-alikes raised \(raised.count)/\(lookalikes.count)" + (byKind.isEmpty ? "" : ": " + byKind.joined(separator: ", ")))
        let chirps = lookalikes.filter(\.isChirp), unlogged = chirps.filter(\.lowBattery.isEmpty)
        let elsewhere = runs.filter { !$0.isChirp && !$0.lowBattery.isEmpty }.count
        if !chirps.isEmpty || elsewhere > 0 {
            lines.append("low-battery chirps logged as low_battery \(chirps.count - unlogged.count)/\(chirps.count);"
                + " low_battery logged in \(elsewhere) other case\(elsewhere == 1 ? "" : "s")")
        }
        let worst = req.filter { !$0.found }.sorted { $0.inBandSnrDb > $1.inBandSnrDb }
            + split.sorted { $0.overlapping > $1.overlapping } + raised + unlogged.filter(\.events.isEmpty)
        if !worst.isEmpty {
            lines.append("worst cases (missed at the highest SNR first, then split, then look-alikes raised"
                + (unlogged.isEmpty ? "" : ", then chirps not logged") + "), up to 15:")
            lines += worst.prefix(15).map { "  " + $0.verdict }
        }
        return lines.joined(separator: "\n")
    }
}
