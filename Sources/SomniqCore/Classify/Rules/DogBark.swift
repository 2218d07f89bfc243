/// Dog bark: an abrupt, harmonic burst (f0 ≈ 300–900 Hz) centred at 300–1200 Hz (Yin &
/// McCowan 2004), one or two a second.
///
/// Across windows a `Hold` of `hold` windows bridges the gaps between the barks of one dog.
/// In the arbitration running speech, a baby's cry (a short voiced burst within it is
/// part of the cry), an alarm, a ringer and a snore train or breathing rhythm suppress it.
enum DogBark {
    /// Windows the Classifier's `Hold` bridges between barks.
    static let hold = 2
    /// A bark heard across a yard comes with its onset smeared by the echoes: a rise of
    /// 5–8 dB within 47 ms is still a sudden start (a cry or a word swells).
    static let smearedRiseDb: ClosedRange<Float> = 5...8
    /// The burst lasts 50 ms to 0.9 s …
    static let burstSeconds: ClosedRange<Float> = 0.05...0.9
    /// … give or take 0.3 s.
    static let burstSoftSeconds: Float = 0.3
    /// Voiced in 40–60 % of the active frames.
    static let voicedFraction: ClosedRange<Float> = 0.4...0.6
    /// f0 340–900 Hz …
    static let f0: ClosedRange<Float> = 340...900
    /// … give or take 40 Hz.
    static let f0SoftHz: Float = 40
    /// 60–80 % of the energy above the floor at 300–1200 Hz.
    static let shareOf300To1k2: ClosedRange<Float> = 0.6...0.8
    /// At most 2.5–3.5 returns to full strength in the window: one or two barks a second,
    /// not a laugh's run of "ha"s.
    static let loudBursts: ClosedRange<Float> = 2.5...3.5

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        cue.novel * max(cue.attack, ramp(f.onsetDb, up: smearedRiseDb)) * cue.loud * band(f.longestRunSeconds, burstSeconds, soft: burstSoftSeconds)
            * ramp(f.voicedFraction, up: voicedFraction) * band(f.f0Hz, f0, soft: f0SoftHz)
            * ramp(f.share(.formants), up: shareOf300To1k2)
            * ramp(Float(f.loudBursts), down: loudBursts)
    }
}
