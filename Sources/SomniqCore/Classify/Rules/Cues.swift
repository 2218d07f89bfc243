/// What several rules look for, judged once per window: how far the window stands out of
/// the floor, whether it starts abruptly, whether it is a short burst, a steady line or a
/// rumble. Each is a score in [0, 1].
struct Cues: Sendable {
    /// Audible: the loudest frame stands clearly out of the floor, 8–14 dB above it.
    static let audibleDb: ClosedRange<Float> = 8...14
    /// Loud: the loudest frame stands 12–18 dB above the floor.
    static let loudDb: ClosedRange<Float> = 12...18
    /// A sharp onset: a rise of 8–14 dB within 47 ms.
    static let sharpRiseDb: ClosedRange<Float> = 8...14
    /// An abrupt attack for a sound that stands only 12–20 dB out of the floor (a distant
    /// bark): its rise within 47 ms is 35–50 % of its level above the floor (most of it at
    /// once) …
    static let riseOfLevel: ClosedRange<Float> = 0.35...0.5
    /// … and at least 5–7 dB.
    static let smallRiseDb: ClosedRange<Float> = 5...7
    /// A short burst: its longest run of sound lasts 50 ms to 0.6 s (0.3 s soft edges).
    static let burstSeconds: ClosedRange<Float> = 0.05...0.6
    static let burstSoftSeconds: Float = 0.3
    /// Deep: a spectral centroid below 150–250 Hz, a rumble. A 32 ms frame holds only a
    /// few cycles of it, so band-limited noise there looks periodic (see `Thunder`).
    static let deepCentroidHz: ClosedRange<Float> = 150...250
    /// All low: 85–95 % of the above-floor energy lies below 300 Hz, where harmonicity
    /// means nothing (see `Thunder`), as through a small microphone that passes nothing
    /// below 120 Hz.
    static let allLowShare: ClosedRange<Float> = 0.85...0.95
    /// New: the loudest frame stands 3–6 dB above what the last 30 s usually reached
    /// (`RecentPeaks`, the 25th percentile of the windows' loudest frames).
    static let noveltyDb: ClosedRange<Float> = 3...6
    /// A steady spectral line: one in 30–60 % of the active frames …
    static let lineFraction: ClosedRange<Float> = 0.3...0.6
    /// … with 60–90 % of the lines within 3 % of the median line.
    static let lineStability: ClosedRange<Float> = 0.6...0.9

    /// Stands clearly out of the floor.
    let audible: Float
    /// Stands well out of the floor.
    let loud: Float
    /// A rise of 8–14 dB within 47 ms.
    let sharpOnset: Float
    /// An abrupt attack: a sharp onset, or, for a sound that stands only a little out of
    /// the floor, most of its level at once.
    let attack: Float
    /// A short, sharp burst: a sharp onset, loud, shorter than ~0.6 s.
    let impulsive: Float
    /// A rumble: the centroid lies below 150–250 Hz.
    let deep: Float
    /// Nearly all the energy lies below 300 Hz.
    let allLow: Float
    /// A steady tonal line (a beep, a ringer, a held note).
    let toneLine: Float
    /// A one-off sound stands out of what the room has been doing: a clock's tick, a
    /// cricket's chirp or a frog's croak, heard in most windows of the last 30 s, stands
    /// 40 dB over the floor between them and is background all the same (habituation).
    let novel: Float

    init(_ f: WindowFeatures) {
        audible = ramp(f.peakSnrDb, up: Self.audibleDb)
        loud = ramp(f.peakSnrDb, up: Self.loudDb)
        sharpOnset = ramp(f.onsetDb, up: Self.sharpRiseDb)
        deep = ramp(f.centroidHz, down: Self.deepCentroidHz)
        allLow = ramp(f.share(.low), up: Self.allLowShare)
        toneLine = ramp(f.tonalFraction, up: Self.lineFraction) * ramp(f.tonalStability, up: Self.lineStability)
        attack = max(sharpOnset, ramp(f.onsetDb / max(f.peakSnrDb, 1), up: Self.riseOfLevel) * ramp(f.onsetDb, up: Self.smallRiseDb))
        novel = ramp(f.noveltyDb, up: Self.noveltyDb)
        impulsive = sharpOnset * loud * band(f.longestRunSeconds, Self.burstSeconds, soft: Self.burstSoftSeconds)
    }
}

extension WindowFeatures {
    /// The share of the above-floor power in a run of bands, e.g. `share(.voice)`.
    func share(_ band: Band) -> Float {
        let b = band.indices
        var sum = excessShare[b.lowerBound]
        for i in b.dropFirst() { sum += excessShare[i] }          // lowest band first
        return sum
    }

    /// How far the active frames stand above the floor in one band, dB, e.g. `rise(.piezo)`.
    func rise(_ band: Band) -> Float {
        let b = band.indices
        precondition(b.count == 1, "\(band.hz) Hz spans more than one band: \(Bands.edgesHz)")
        return excessDb[b.lowerBound]
    }

    /// The highest `rise` of a run of bands.
    func highestRise(_ band: Band) -> Float {
        let b = band.indices
        var most = excessDb[b.lowerBound]
        for i in b.dropFirst() where excessDb[i] >= most { most = excessDb[i] }  // as `max` compares
        return most
    }
}
