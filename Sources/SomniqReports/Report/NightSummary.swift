import SomniqCore

/// The figures of a night: per class, snoring, disturbances per bin, the loudest minute.
public struct NightSummary: Sendable {
    public struct ClassLine: Sendable {
        public var soundClass: SoundClass
        /// The most urgent tier of the class's events that night.
        public var tier: Tier
        public var events = 0, alerts = 0
        public var seconds = 0.0
        public var first = 0.0, last = 0.0
    }

    public struct Bin: Sendable {
        public var start: Double
        /// Event starts per class in the bin.
        public var counts: [SoundClass: Int] = [:]
        /// Snore intensity, 0–100: the share of the bin spent snoring × how loud the
        /// snoring stood over the floor (30 dB over it counts as full).
        public var snoreIntensity = 0.0
    }

    public var classes: [ClassLine] = []
    public var snoringSeconds = 0.0
    /// Snoring seconds over seconds heard.
    public var snoringShare = 0.0
    /// Bin width: 15 min for a night of 2 h or more, 5 min from 30 min, else 1 min.
    public var binSeconds = 900.0
    public var bins: [Bin] = []
    /// The snoring events with the loudest peaks, loudest first (at most three).
    public var loudestSnoring: [Night.Event] = []
    /// The minute with the highest Leq.
    public var loudestMinute: Night.Minute?
    public var alerts: [Night.Event] = []
    public var breathingPauses: [Night.Event] = []

    public init(_ night: Night) {
        var lines: [SoundClass: ClassLine] = [:]
        for e in night.events {
            var l = lines[e.soundClass] ?? ClassLine(soundClass: e.soundClass, tier: e.tier, first: e.onset, last: e.onset)
            // The most urgent tier of the class's events: one a correction logged at the tier of
            // the class it was heard as (`LogRecord.Home.unheard`) does not lower the row's.
            l.tier = min(l.tier, e.tier)
            l.events += 1
            l.alerts += e.alert ? 1 : 0
            l.seconds += e.seconds
            l.first = min(l.first, e.onset)
            l.last = max(l.last, e.onset)
            lines[e.soundClass] = l
        }
        classes = SoundClass.allCases.compactMap { lines[$0] }
        snoringSeconds = lines[.snoring]?.seconds ?? 0
        snoringShare = night.heard > 0 ? min(1, snoringSeconds / night.heard) : 0
        let length = max(night.span, night.heard)
        binSeconds = length >= 2 * 3600 ? 900 : length >= 1800 ? 300 : 60
        let count = max(1, Int((length / binSeconds).rounded(.up)))
        bins = (0..<count).map { Bin(start: Double($0) * binSeconds) }
        for e in night.events {
            let i = min(count - 1, max(0, Int(e.onset / binSeconds)))
            bins[i].counts[e.soundClass, default: 0] += 1
        }
        // Snore intensity from the events (share of the bin) and the minute levels (loudness).
        let snores = night.events.filter { $0.soundClass == .snoring }
        for i in bins.indices {
            let a = bins[i].start, b = a + binSeconds
            let snoring = snores.reduce(0.0) { $0 + max(0, min($1.offset, b) - max($1.onset, a)) }
            guard snoring > 0 else { continue }
            let minutes = night.minutes.filter { $0.start < b && $0.start + $0.seconds > a && ($0.active[.snoring] ?? 0) > 0 }
            let loudness = minutes.isEmpty ? 0.5
                : minutes.map { min(1, max(0, ($0.leq - $0.floor) / 30)) }.reduce(0, +) / Double(minutes.count)
            bins[i].snoreIntensity = (100 * min(1, snoring / binSeconds) * loudness).rounded()
        }
        loudestSnoring = Array(snores.sorted { $0.peakDbfs > $1.peakDbfs }.prefix(3))
        loudestMinute = night.minutes.max { $0.leq < $1.leq }
        alerts = night.events.filter(\.alert).sorted { $0.onset < $1.onset }
        breathingPauses = night.events.filter { $0.soundClass == .breathingPause }
    }
}
