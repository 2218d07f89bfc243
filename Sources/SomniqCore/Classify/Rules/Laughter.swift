/// Laughter: a run of short voiced bursts ("ha-ha-ha", ~4–5 per second) with f0 200–500 Hz
/// (Bachorowski et al. 2001). Much laughter is breathy, unvoiced snorts and pants between
/// the voiced calls, so a third of the window voiced will do. A near laugh may not dip into
/// the floor between its "ha"s, but it returns to its full strength at each.
///
/// Across windows a `Hold` of `hold` windows bridges the breaths of a laugh while it
/// resumes. In the arbitration music lowers it.
enum Laughter {
    /// Windows the Classifier's `Hold` bridges between bursts of laughter.
    static let hold = 2
    /// 2–4 bursts in the window, counting dips into the floor or returns to full strength.
    static let bursts: ClosedRange<Float> = 2...4
    /// Voiced in 30–55 % of the active frames.
    static let voicedFraction: ClosedRange<Float> = 0.3...0.55
    /// f0 200–500 Hz …
    static let f0: ClosedRange<Float> = 200...500
    /// … give or take 50 Hz.
    static let f0SoftHz: Float = 50
    /// 40–70 % of the energy above the floor at 600–2400 Hz.
    static let shareOf600To2k4: ClosedRange<Float> = 0.4...0.7

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        cue.novel * cue.audible * ramp(Float(max(f.bursts, f.loudBursts)), up: bursts) * ramp(f.voicedFraction, up: voicedFraction)
            * band(f.f0Hz, f0, soft: f0SoftHz) * ramp(f.share(.voiceHarmonics), up: shareOf600To2k4)
    }
}
