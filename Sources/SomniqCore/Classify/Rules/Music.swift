/// Music: continuous, tonal or harmonic sound with no pauses: it holds the whole window
/// without one dip to the floor, where running speech, however fluent, dips between words
/// (the longest unbroken run of a speech window is ~0.6 s). A deep rumble's apparent
/// harmonicity is no evidence of notes (see `Thunder`). A beat is continuous sound (a drum
/// loop dips between hits, but only for a few frames) with a sharp attack in it (drums, a
/// bass line), which only music keeps up for seconds on end; speech pauses, thunder rolls
/// without new attacks of this strength.
///
/// Across windows a `Persistence` needs `fullWindows` windows of held notes, and `Beat`
/// judges the beat over seconds. In the arbitration the alarm suppresses it, and a voice,
/// a cry or a ringer suppresses a beat; music lowers speech and laughter and suppresses a
/// snore and a gasp.
enum Music {
    /// Windows of music in a row before it scores in full.
    static let fullWindows = 2
    /// Sound in 75–95 % of the window …
    static let activeFraction: ClosedRange<Float> = 0.75...0.95
    /// … and a run of sound of 0.8–0.95 s: no pause in it.
    static let longestRunSeconds: ClosedRange<Float> = 0.8...0.95
    /// Harmonic: harmonicity of at least 0.55–0.7 …
    static let harmonicity: ClosedRange<Float> = 0.55...0.7
    /// … or tonal: a line in at least 30–60 % of the frames.
    static let lineFraction: ClosedRange<Float> = 0.3...0.6
    /// A beat: sound in 75–90 % of the window …
    static let beatActiveFraction: ClosedRange<Float> = 0.75...0.9
    /// … with a sharp attack in it, a rise of 7–10 dB within 47 ms.
    static let beatRiseDb: ClosedRange<Float> = 7...10

    /// Held notes.
    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        cue.audible * ramp(f.activeFraction, up: activeFraction) * ramp(f.longestRunSeconds, up: longestRunSeconds)
            * max(ramp(f.harmonicity, up: harmonicity) * (1 - cue.deep), ramp(f.tonalFraction, up: lineFraction))
    }

    /// A window of a beat.
    static func beat(_ f: WindowFeatures, _ cue: Cues) -> Float {
        cue.audible * ramp(f.activeFraction, up: beatActiveFraction) * ramp(f.onsetDb, up: beatRiseDb)
    }
}
