/// Thunder: loud noise with no pitch or tonal lines (which music has), its energy low: a
/// distant rumble below 300 Hz, a near clap spread over 150 Hz–1.2 kHz (with more at
/// 0.3–1.2 kHz than a snore has) and little above 2.4 kHz, as air absorbs the highs.
/// Below ~200 Hz (`Cues.deep`) a 32 ms frame holds only a few cycles, so band-limited noise
/// looks periodic to the autocorrelation: a deep rumble (or one with nearly all of it below
/// 300 Hz, `Cues.allLow`, as through a small microphone that passes nothing below 120 Hz)
/// may seem "harmonic" and still be noise. What a bass note has and a rumble lacks is a
/// stable line among its harmonics above 300 Hz.
///
/// Across windows `Rumble` judges its duration and decay, which tell it from a thump, and
/// holds it while it rolls on. In the arbitration a snore train takes a burst unless it
/// fills the whole lookahead; a storm suppresses a snore and, as a train, the short sounds.
enum Thunder {
    /// A distant rumble: 60–80 % of the energy above the floor below 300 Hz.
    static let shareBelow300: ClosedRange<Float> = 0.6...0.8
    /// A near clap: 75–85 % of it below 1.2 kHz …
    static let clapShareBelow1k2: ClosedRange<Float> = 0.75...0.85
    /// … 30–40 % at 0.3–1.2 kHz …
    static let clapShareOf300To1k2: ClosedRange<Float> = 0.3...0.4
    /// … and a centroid below 0.9–1.1 kHz.
    static let clapCentroidHz: ClosedRange<Float> = 900...1100
    /// No pitch: harmonicity at most 0.45–0.65.
    static let harmonicity: ClosedRange<Float> = 0.45...0.65
    /// No tonal lines: a line in at most 10–30 % of the frames.
    static let lineFraction: ClosedRange<Float> = 0.1...0.3

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        let rumbling = max(ramp(f.share(.low), up: shareBelow300),
                           ramp(f.share(.belowHarmonics), up: clapShareBelow1k2) * ramp(f.share(.formants), up: clapShareOf300To1k2)
                               * ramp(f.centroidHz, down: clapCentroidHz))
        return cue.loud * rumbling
            * max(ramp(f.harmonicity, down: harmonicity), cue.deep, cue.allLow) * ramp(f.tonalFraction, down: lineFraction)
    }
}
