/// Speech: voiced segments with f0 85–320 Hz (adult and child voices), energy in
/// 150–1200 Hz, usually broken by pauses and consonants (syllable rate 2–8 Hz; Houtgast &
/// Steeneken 1985), though one window may hold a single long vowel. A low male voice has
/// its fundamental below 150 Hz, so all of 0–1200 Hz counts.
///
/// Across windows a `Persistence` needs `wordWindows` windows of voice (a single voiced
/// burst is a cough or a bark), then a `Hold` of `hold` windows bridges the pauses between
/// sentences; while a `Hold` of `runningHold` windows says someone is talking, voiced onsets
/// are syllables, not coughs or barks. In the arbitration music lowers it.
enum Speech {
    /// Windows of voice in a row before a word is speech.
    static let wordWindows = 2
    /// Windows the Classifier's `Hold` bridges between sentences.
    static let hold = 2
    /// Windows after speech during which a voiced onset is a syllable.
    static let runningHold = 4
    /// Voiced in 50–75 % of the active frames.
    static let voicedFraction: ClosedRange<Float> = 0.5...0.75
    /// f0 85–320 Hz, adult and child voices …
    static let f0: ClosedRange<Float> = 85...320
    /// … give or take 60 Hz.
    static let f0SoftHz: Float = 60
    /// 60–80 % of the energy above the floor below 1200 Hz.
    static let shareBelow1k2: ClosedRange<Float> = 0.6...0.8
    /// Broken by pauses: 1–2 separate bursts in the window …
    static let bursts: ClosedRange<Float> = 1...2
    /// … or 30–50 % of the level envelope's variance at the syllable rate, 2–8 Hz.
    static let modulation: ClosedRange<Float> = 0.3...0.5
    /// Harmonicity of at least 0.64–0.74.
    static let harmonicity: ClosedRange<Float> = 0.64...0.74
    /// A voice's energy lies mostly below 600 Hz: at most 45–65 % of it at 600–1200 Hz.
    static let shareOf600To1k2: ClosedRange<Float> = 0.45...0.65

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        // A window without pauses (a single long vowel) scores 0.6; pauses or a syllable rhythm 1.
        cue.audible * ramp(f.voicedFraction, up: voicedFraction) * band(f.f0Hz, f0, soft: f0SoftHz)
            * ramp(f.share(.hum) + f.share(.voice), up: shareBelow1k2)
            * (0.6 + 0.4 * max(ramp(Float(f.bursts), up: bursts), ramp(f.modulation, up: modulation)))
            * ramp(f.harmonicity, up: harmonicity) * (1 - cue.deep)
            * ramp(f.share(.openVowels), down: shareOf600To1k2)
    }
}
