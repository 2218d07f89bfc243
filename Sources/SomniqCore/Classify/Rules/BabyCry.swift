/// Infant cry: sustained, strongly harmonic phonation with f0 300–700 Hz and energy in the
/// cry formants (Zeskind & Lester 2001; LaGasse et al. 2005). A cry's pitch moves; a
/// ringer's does not.
///
/// Across windows a `Hold` of `hold` windows bridges the breaths of a cry bout while the
/// cry resumes. In the arbitration an alarm and a short, abrupt burst (a bark) suppress it;
/// it suppresses a scream just before or after it and a bark.
enum BabyCry {
    /// Windows the Classifier's `Hold` bridges between the cries of a bout.
    static let hold = 3
    /// Voiced in 60–85 % of the active frames …
    static let voicedFraction: ClosedRange<Float> = 0.6...0.85
    /// … strongly harmonic: harmonicity 0.6–0.8 …
    static let harmonicity: ClosedRange<Float> = 0.6...0.8
    /// … with f0 320–700 Hz …
    static let f0: ClosedRange<Float> = 320...700
    /// … give or take 40 Hz.
    static let f0SoftHz: Float = 40
    /// Sustained: a run of sound of at least 0.2–0.4 s.
    static let longestRunSeconds: ClosedRange<Float> = 0.2...0.4
    /// 50–70 % of the energy above the floor at 300–2400 Hz, the cry formants.
    static let cryShare: ClosedRange<Float> = 0.5...0.7
    /// The pitch moves: at most 45–65 % of the lines within 3 % of the median line.
    static let lineStability: ClosedRange<Float> = 0.45...0.65
    /// It holds its full strength (within 10 dB of its peak) for 0.15–0.25 s at a stretch;
    /// a bark does not.
    static let loudRunSeconds: ClosedRange<Float> = 0.15...0.25

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        cue.audible * ramp(f.voicedFraction, up: voicedFraction) * ramp(f.harmonicity, up: harmonicity)
            * band(f.f0Hz, f0, soft: f0SoftHz) * ramp(f.longestRunSeconds, up: longestRunSeconds) * ramp(f.share(.cry), up: cryShare)
            * ramp(f.tonalStability, down: lineStability)
            * ramp(f.loudRunSeconds, up: loudRunSeconds)
    }
}
