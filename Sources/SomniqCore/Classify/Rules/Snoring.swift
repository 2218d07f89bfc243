/// Snore: a burst of low-frequency (< 300 Hz) energy standing well out of the floor, from
/// the vibrating soft palate: rough and aperiodic or with a very low, jittery pulse rate
/// (20–80 Hz, below the pitch range), so harmonicity stays low (Pevernagie et al. 2010).
/// When nearly all of it lies below 300 Hz (`Cues.allLow`), harmonicity means nothing. Cartoon
/// and real snores add broadband flutter noise, so only a part of the excess needs to be
/// low; the flutter also chops the envelope into pulses at 30–150 Hz, which a small
/// microphone that does not pass the pulse rate itself still hears.
///
/// Across windows `SnoreTrain` follows snores one per breath and holds the score between
/// them. In the arbitration a thunderstorm, an impact, music and a gasp suppress it.
enum Snoring {
    /// The band below 150 Hz or 150–300 Hz stands 11–16 dB above its floor.
    static let lowRiseDb: ClosedRange<Float> = 11...16
    /// Rough: harmonicity at most 0.55–0.72.
    static let harmonicity: ClosedRange<Float> = 0.55...0.72
    /// 12–30 % of the energy above the floor below 300 Hz …
    static let shareBelow300: ClosedRange<Float> = 0.12...0.3
    /// … or a flutter (envelope periodicity at 30–150 Hz) of 0.22–0.32.
    static let flutter: ClosedRange<Float> = 0.22...0.32
    /// Sound in at least 10–25 % of the window.
    static let activeFraction: ClosedRange<Float> = 0.1...0.25
    /// Flapping tissue draws no steady spectral line: a line in at most 15–35 % of the frames.
    static let lineFraction: ClosedRange<Float> = 0.15...0.35

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        ramp(f.highestRise(.low), up: lowRiseDb) * max(ramp(f.harmonicity, down: harmonicity), cue.allLow)
            * max(ramp(f.share(.low), up: shareBelow300), ramp(f.flutter, up: flutter)) * ramp(f.activeFraction, up: activeFraction)
            * ramp(f.tonalFraction, down: lineFraction)
    }
}
