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

    static let confirmWindows = 4
    static let maxWindows = 40
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
        run = arrived > 0.4 && full ? run + 1 : 0
        if !storming, run >= Self.confirmWindows {
            storming = true
            held = 0
            quiet = 0
        }
        guard storming else {
            // Before confirmation: a rising score, so the event starts near the crack.
            return arrived * ramp(Float(run), 0, 2)
        }
        held += 1
        quiet = lowExcessDb < 8 || (instant < 0.2 && otherSound) ? quiet + 1 : 0
        if quiet >= 2 || held > Self.maxWindows { storming = false; run = 0; return 0 }
        return max(instant, 0.9)
    }
}
