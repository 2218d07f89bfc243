/// Habituation across minutes: how often windows like this one were heard in the last two
/// minutes. A clock's tick, an air handler's cycle, rain's gusts, insects or a dripping tap
/// come back again and again with the same band shape, attack and level; hearing stops
/// attending to a stimulus that repeats (habituation, Thompson & Spencer 1966), and so
/// does the classifier: a familiar sound does not open an event (`Classifier.score`).
/// A one-off sound, or one that stands well above everything like it, is not familiar.
///
/// `RecentPeaks` (the novelty cue) compares only levels over 30 s; this compares what the
/// windows sound like, over long enough to hold several cycles of a slow background (rain
/// gusts, a thermostat's air handler). Pure and allocation-free after `init`: a fixed ring
/// of one small trace per window.
struct Familiarity: Sendable {
    /// Windows remembered: 2 min at the 0.5 s hop, several cycles of the slowest recurring
    /// backgrounds (gusts of wind and rain every 10–40 s, an air handler's on/off cycle).
    static let memory = 240
    /// The newest windows, the last 10 s, are left out: they hold the sound's own start (a
    /// slam rings, a gust swells for seconds, a roll of thunder builds for up to 10 s), which
    /// is no earlier occurrence of it.
    static let own = 20
    /// A window is heard when its loudest frame stands at least 6 dB over the floor, the
    /// extractor's own line for an active frame.
    static let heardDb: Float = 6
    /// Like it in band shape: the shares of the above-floor power per band (each summing to
    /// 1) differ by at most 0.5 in all (L1): at most a quarter of the power lies in other
    /// bands, as between two gusts of one rain or two ticks of one clock, while a voice, a
    /// crash or a slam moves most of it.
    static let shapeDistance: Float = 0.5
    /// … no quieter than it by more than 6 dB: a sound 6 dB or more above anything like it
    /// before is new (the novelty cue's 3–6 dB, `Cues.noveltyDb`) …
    static let louderDb: Float = 6
    /// … and with an attack within 5 dB of its own (a rise within 47 ms): a tick is no
    /// swell, a crash is no gust.
    static let attackDb: Float = 5
    /// Familiar: 4–10 s of windows like it (8–20 windows) in the last two minutes. A cough
    /// bout, a few barks or a slam fill fewer; a clock, insects or a few gusts of rain more.
    static let familiarWindows: ClosedRange<Float> = 8...20

    private struct Trace: Sendable {
        var shape = BandVector()
        var peakDb: Float = 0
        var attackDb: Float = 0
        var heard = false
    }

    private var traces: [Trace]
    private var next = 0
    private var count = 0
    /// Familiarity of the last window heard: one that hears nothing is the tail of it.
    private var lastHeard: Float = 0

    init() { traces = [Trace](repeating: Trace(), count: Self.memory) }

    /// How familiar the window is (0: new, 1: heard often in the last two minutes), judged
    /// against the windows remembered before it. A window with nothing over the floor is
    /// as familiar as the last one heard: what rings on in it is that sound's tail.
    func judge(_ f: WindowFeatures) -> Float {
        let now = Self.trace(f)
        guard now.heard else { return lastHeard }
        var alike = 0
        if count > Self.own {
            // The windows `own` to `memory` back, newest first.
            for k in Self.own..<count {
                let t = traces[(next - 1 - k + 2 * Self.memory) % Self.memory]
                guard t.heard, t.peakDb >= now.peakDb - Self.louderDb, abs(t.attackDb - now.attackDb) <= Self.attackDb
                else { continue }
                let d = (t.shape - now.shape)
                if d.replacing(with: -d, where: d .< 0).sum() <= Self.shapeDistance { alike += 1 }
            }
        }
        return ramp(Float(alike), up: Self.familiarWindows)
    }

    /// Remembers a window after it is judged (`judged`: what `judge` said of it). `sleeper`:
    /// it is the sleeper's own (a snore or breathing train under way, a cough, a gasp, a
    /// scream), not the room's background; a rumble after a snore train is not the train
    /// come back, nor is a third bout of coughing familiar.
    mutating func remember(_ f: WindowFeatures, judged: Float, sleeper: Bool = false) {
        var t = Self.trace(f)
        if t.heard { lastHeard = judged }
        t.heard = t.heard && !sleeper
        traces[next] = t
        next = (next + 1) % Self.memory
        count = min(count + 1, Self.memory)
    }

    private static func trace(_ f: WindowFeatures) -> Trace {
        Trace(shape: f.excessShare, peakDb: f.peakSnrDb, attackDb: f.onsetDb,
              heard: f.peakSnrDb >= heardDb && f.excessShare.sum() > 0.5)
    }
}
