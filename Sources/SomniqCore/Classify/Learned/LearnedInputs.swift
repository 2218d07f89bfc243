/// The named inputs of the learned rules (`LearnedRules`): what one decided window, the two
/// before it and the two after it (±1 s at the 0.5 s hop) measured, what each class's own
/// rule said of them, and what the hand arbitration made of the decided window.
///
/// Only quantities that do not depend on the microphone's gain are inputs: levels relative
/// to the floor or to recent peaks, ratios and frequencies (no dBFS). Windows before the
/// stream's first or after its last are all zeros. The same code fills the vector the
/// models are fitted on (`somniq features --inputs`) and the one they are evaluated on, so
/// the two cannot drift apart.
public enum LearnedInputs {
    /// Windows either side of the decided one whose features are inputs: ±1 s.
    public static let context = 2
    /// The decided window's lookahead covers the windows after it (`Classifier.lookahead`).
    static let lookaheadNeeded = context

    /// Each window's features, in the order `fillWindow` writes them.
    static let featureNames: [String] = [
        "snr", "peak_snr", "novelty", "active", "run", "loud_run", "bursts", "loud_bursts", "onset", "onset_s",
        "centroid", "rolloff", "flat", "flux", "zcr", "harm", "voiced", "f0", "f0_iqr", "tonal", "tonal_hz",
        "tonal_stab", "two_tone", "mod", "flutter", "tone_runs", "tone_s",
    ] + Bands.names.map { "x" + $0 } + Bands.names.map { "s" + $0 }

    /// Each window's instantaneous rules (`Rules`), in the order `fillWindow` writes them.
    static let ruleNames: [String] = [
        "r_smoke_alarm", "r_phone_ring", "r_glass_break", "r_scream", "r_gasp", "r_cough", "r_dog_bark", "r_door",
        "r_slam_hit", "r_baby_cry", "r_speech", "r_laughter", "r_breathing", "r_heavy_breath", "r_snore",
        "r_thunder", "r_music", "r_beat", "r_impulsive",
    ]

    /// Each window's spectrogram network outputs (`SpectrogramNet`), per candidate class;
    /// zeros where the rules have no network or the window was not heard.
    static let netNames: [String] = LearnedRules.candidates.map { "n_" + $0.rawValue }

    static let perWindow = featureNames.count + ruleNames.count + netNames.count

    /// What the classifier knows of the decided window alone: the hand arbitration's score
    /// of every class a learned rule may replace, and the state around it.
    static let stateNames: [String] = LearnedRules.candidates.map { "h_" + $0.rawValue }
        + ["alarm", "familiar", "snore_train", "breath_rhythm"]

    /// Every input's name, in the model file's order: `centroid@-2` is the centroid two
    /// windows (1 s) before the decided one, `r_speech@0` the speech rule of the window itself.
    public static let names: [String] = (-context...context).flatMap { k in
        (featureNames + ruleNames + netNames).map { "\($0)@\(k)" }
    } + stateNames

    public static var count: Int { names.count }

    /// Writes one window's features and rules at `out[0..<perWindow]`.
    static func fillWindow(_ f: WindowFeatures, _ r: Rules, into out: UnsafeMutableBufferPointer<Float>, at start: Int) {
        var i = start
        func put(_ x: Float) { out[i] = x; i += 1 }
        put(f.snrDb); put(f.peakSnrDb); put(f.noveltyDb); put(f.activeFraction); put(f.longestRunSeconds)
        put(f.loudRunSeconds); put(Float(f.bursts)); put(Float(f.loudBursts)); put(f.onsetDb); put(f.onsetSeconds)
        put(f.centroidHz); put(f.rolloffHz); put(f.flatness); put(f.flux); put(f.zcr); put(f.harmonicity)
        put(f.voicedFraction); put(f.f0Hz); put(f.f0SpreadHz); put(f.tonalFraction); put(f.tonalHz)
        put(f.tonalStability); put(f.twoToneStability); put(f.modulation); put(f.flutter); put(Float(f.toneRuns))
        put(f.longestToneSeconds)
        for b in 0..<Bands.count { put(f.excessDb[b]) }
        for b in 0..<Bands.count { put(f.excessShare[b]) }
        put(r.smokeAlarm); put(r.phoneRing); put(r.glassBreak); put(r.scream); put(r.gasp); put(r.cough)
        put(r.dogBark); put(r.door); put(r.slamHit); put(r.babyCry); put(r.speech); put(r.laughter)
        put(r.breathing); put(r.heavyBreath); put(r.snore); put(r.thunder); put(r.music); put(r.beat); put(r.impulsive)
        for k in 0..<netNames.count { put(f.net[k]) }
        assert(i - start == perWindow, "fillWindow wrote \(i - start) inputs, not \(perWindow)")
    }

    /// Zeros for a window before the stream's start or after its end.
    static func clearWindow(_ out: UnsafeMutableBufferPointer<Float>, at start: Int) {
        for i in start..<(start + perWindow) { out[i] = 0 }
    }
}
