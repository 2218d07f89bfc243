/// Cough: an explosive burst of 0.2–0.8 s whose energy sits at 150–1200 Hz: an explosive
/// phase of noise, then (often) a voiced phase with f0 below about 400 Hz (Korpáš et al.
/// 1996). Only the explosive phase, 30–100 ms, is at full strength; the voiced phase trails
/// off, where a bark or a word holds its level.
///
/// Across windows a `Hold` of `hold` windows bridges the gaps of a bout while coughs resume.
/// In the arbitration running speech (a voiced onset there is a syllable), an alarm, a
/// ringer, a snore train or breathing rhythm, and a door suppress it.
enum Cough {
    /// Windows the Classifier's `Hold` bridges between the coughs of a bout.
    static let hold = 2
    /// The burst lasts 50 ms to 0.8 s …
    static let burstSeconds: ClosedRange<Float> = 0.05...0.8
    /// … give or take 0.3 s.
    static let burstSoftSeconds: Float = 0.3
    /// 60–80 % of the energy above the floor at 150 Hz–4 kHz: the explosive phase is
    /// turbulence shaped by the vocal tract's formants (F1 0.4–0.9, F2 1.2–2.5, F3 2.5–3.5 kHz).
    static let tractShare: ClosedRange<Float> = 0.6...0.8
    /// The voiced phase may be pitched from a man's 100 Hz up to a child's 900 Hz: 1 below
    /// 850 Hz, 0 above 950 Hz.
    static let f0Hz: ClosedRange<Float> = 850...950
    /// Its lines wander: at most 40–70 % within 3 % of the median line.
    static let lineStability: ClosedRange<Float> = 0.4...0.7
    /// Mostly noise: harmonicity at most 0.76–0.84.
    static let harmonicity: ClosedRange<Float> = 0.76...0.84
    /// At full strength (within 10 dB of its peak) for at most 0.11–0.16 s at a stretch:
    /// only the explosive phase.
    static let loudRunSeconds: ClosedRange<Float> = 0.11...0.16

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        cue.novel * cue.attack * cue.loud * band(f.longestRunSeconds, burstSeconds, soft: burstSoftSeconds)
            * ramp(f.share(.tract), up: tractShare) * ramp(f.f0Hz, down: f0Hz) * ramp(f.tonalStability, down: lineStability)
            * ramp(f.harmonicity, down: harmonicity) * ramp(f.loudRunSeconds, down: loudRunSeconds)
    }
}
