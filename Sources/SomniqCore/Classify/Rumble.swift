/// Thunder: a loud low-frequency sound that fills the windows for longer than a snore
/// lasts (≥ 2.5 s: four full windows in a row), then a rumble that decays for seconds
/// while staying above the floor below 300 Hz. The rumble is held until it sinks into
/// the floor or gives way to another sound (at most 20 s), so one thunderclap is one event.
///
/// Thunder arrives: the sound of the nearest part of the channel reaches the ear first, so
/// its level rises by 7 dB or more within one 0.5 s hop (26–37 dB for a near clap), then
/// rolls and decays. A gust of wind, or of rain on a roof, swells as the air speeds up,
/// over one to three seconds (a gust is reckoned over 3 s, WMO No. 8), a few dB per hop:
/// however long and low it is, a sound that never rose faster is no thunder.
struct Rumble: Sendable {
    private var run = 0
    private(set) var storming = false
    private var held = 0
    private var quiet = 0
    /// The rises of the loudest frame's level over the floor from one window to the next,
    /// newest first (the last 4 s), and the last window's level.
    private var rises = SIMD8<Float>(repeating: 0)
    private var lastPeakDb: Float = 0

    /// Longer than a snore lasts: 2.5 s, four full windows in a row.
    static let confirmWindows = 4
    /// A storm's rumble is held at most 20 s: a thunderclap's roll lasts seconds, rarely
    /// 20 or more, so one clap is one event and a long storm several.
    static let maxWindows = 40
    /// Before it is confirmed, a window counts toward it when its thunder rule, weighed by
    /// its arrival, scores over 0.4; its score rises over the first two such windows, so
    /// the event starts near the crack.
    static let countsFrom: Float = 0.4
    static let riseWindows: Float = 2
    /// The rumble has sunk into the floor when the band below 300 Hz stands less than
    /// 8 dB above its floor (`Cues.audibleDb`'s lower edge), or given way when another
    /// sound is loud and the thunder rule scores under 0.2, for two windows (1 s) in a row.
    static let sunkDb = Cues.audibleDb.lowerBound
    static let givenWay: Float = 0.2
    static let quietWindows = 2
    /// A confirmed storm scores at least 0.9, over every built-in profile's `on`.
    static let storm: Float = 0.9
    /// Its arrival: a rise of 5–7 dB within one hop, in the last 4 s (a rumble may take
    /// seconds to fill the windows after its crack). Thunder rose 7–37 dB in a hop in the corpus's folds 0–2; gusts
    /// of rain and wind 4–5 dB.
    static let arrivalRiseDb: ClosedRange<Float> = 5...7

    /// `instant`: the window's thunder rule; `full`: the window is continuously active;
    /// `lowExcessDb`: how far the band below 300 Hz stands above its floor.
    /// `otherSound`: the window is loud enough to be judged, so a low `instant` means
    /// another sound has taken over (speech after the thunder), not a fading rumble.
    /// `peakDb`: how far the window's loudest frame stands above the floor.
    mutating func update(instant: Float, full: Bool, lowExcessDb: Float, otherSound: Bool, peakDb: Float) -> Float {
        rises = SIMD8(peakDb - lastPeakDb, rises[0], rises[1], rises[2], rises[3], rises[4], rises[5], rises[6])
        lastPeakDb = peakDb
        let arrived = instant * ramp(rises.max(), up: Self.arrivalRiseDb)
        run = arrived > Self.countsFrom && full ? run + 1 : 0
        if !storming, run >= Self.confirmWindows {
            storming = true
            held = 0
            quiet = 0
        }
        guard storming else {
            // Before confirmation: a rising score, so the event starts near the crack.
            return arrived * ramp(Float(run), 0, Self.riseWindows)
        }
        held += 1
        quiet = lowExcessDb < Self.sunkDb || (instant < Self.givenWay && otherSound) ? quiet + 1 : 0
        if quiet >= Self.quietWindows || held > Self.maxWindows { storming = false; run = 0; return 0 }
        return max(instant, Self.storm)
    }
}
