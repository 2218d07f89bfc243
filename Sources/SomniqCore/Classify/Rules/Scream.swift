/// Scream: loud, voiced but rough, with its energy concentrated at 600–4000 Hz where the
/// ear is most sensitive (Hansen et al. 2017, "The acoustics of screams").
///
/// Across windows a `Hold` of `hold` windows carries it while the shout goes on, with no
/// tail: a scream is cut off, not dying away. In the arbitration a cry just before or
/// after it, an alarm and a ringer suppress it (a scream that opens on a steady vowel is
/// not taken for a ringer when the scream follows).
enum Scream {
    /// Windows the Classifier's `Hold` carries a scream on while the shout goes on …
    static let hold = 2
    /// … and none after it stops.
    static let holdsTail = false
    /// 55–80 % of the energy above the floor at 600–4000 Hz.
    static let shareOf600To4k: ClosedRange<Float> = 0.55...0.8
    /// Voiced (a clear pitch) in 40–60 % of the active frames: voiced but rough.
    static let voicedFraction: ClosedRange<Float> = 0.4...0.6
    /// A run of sound of at least 0.2–0.35 s.
    static let longestRunSeconds: ClosedRange<Float> = 0.2...0.35
    /// A spectral centroid above 650–800 Hz: shriller than speech.
    static let centroidHz: ClosedRange<Float> = 650...800
    /// Harmonicity of at least 0.5–0.6.
    static let harmonicity: ClosedRange<Float> = 0.5...0.6
    /// At full strength (within 10 dB of its peak) for 0.2–0.3 s at a stretch: one
    /// sustained shout, not a laugh's "ha"s.
    static let loudRunSeconds: ClosedRange<Float> = 0.2...0.3
    /// A voice, however shrill, has at most 15–20 % of its energy above 4 kHz; a ringtone's
    /// partials go on up.
    static let shareAbove4k: ClosedRange<Float> = 0.15...0.2

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        cue.novel * cue.loud * ramp(f.share(600...4000), up: shareOf600To4k) * ramp(f.voicedFraction, up: voicedFraction)
            * ramp(f.longestRunSeconds, up: longestRunSeconds) * ramp(f.centroidHz, up: centroidHz) * ramp(f.harmonicity, up: harmonicity)
            * ramp(f.loudRunSeconds, up: loudRunSeconds)
            * ramp(f.share(4000...8000), down: shareAbove4k)
    }
}
