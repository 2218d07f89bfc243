/// Breathing: a calm breath is a soft, aperiodic (noisy) burst of 0.3–2.5 s with most of its
/// excess at 0.6–6 kHz and no sharp onset; a heavy breath is loud, breathy and unhurried,
/// 0.2–1 s. One heavy breath alone could be a gasp.
///
/// Across windows two `BreathTrain`s turn a rhythm of them into breathing: one follows every
/// breath, one the heavy inhales, which mark a rhythm of their own that long exhales can hide.
/// In the arbitration a snore train takes its breaths (they belong to it).
enum Breathing {
    /// Calm breath: its loudest frame 6–10 dB above the floor …
    static let levelDb: ClosedRange<Float> = 6...10
    /// … aperiodic: harmonicity at most 0.45–0.65 …
    static let harmonicity: ClosedRange<Float> = 0.45...0.65
    /// … noisy: spectral flatness of at least 0.05–0.09 …
    static let flatness: ClosedRange<Float> = 0.05...0.09
    /// … 40–60 % of the energy above the floor at 0.6–6 kHz …
    static let shareOf600To6k: ClosedRange<Float> = 0.4...0.6
    /// … a run of sound of 0.3–2.5 s …
    static let runSeconds: ClosedRange<Float> = 0.3...2.5
    /// … give or take 0.15 s …
    static let runSoftSeconds: Float = 0.15
    /// … no sharp onset: a rise within 47 ms of at most 8–12 dB …
    static let riseDb: ClosedRange<Float> = 8...12
    /// … and no rumble: at most 12–25 % of the energy below 300 Hz (airflow noise has none) …
    static let shareBelow300: ClosedRange<Float> = 0.12...0.25
    // … nor a snore's flutter (`Snoring.flutter`).

    /// Heavy breath: its loudest frame 14–20 dB above the floor …
    static let heavyLevelDb: ClosedRange<Float> = 14...20
    /// … breathy: spectral flatness of at least 0.1–0.16 …
    static let heavyFlatness: ClosedRange<Float> = 0.1...0.16
    /// … harmonicity at most 0.55–0.75 …
    static let heavyHarmonicity: ClosedRange<Float> = 0.55...0.75
    /// … a run of sound of 0.2–0.9 s …
    static let heavyRunSeconds: ClosedRange<Float> = 0.2...0.9
    /// … give or take 0.2 s …
    static let heavyRunSoftSeconds: Float = 0.2
    /// … unhurried: a rise within 47 ms of at most 8–14 dB.
    static let heavyRiseDb: ClosedRange<Float> = 8...14

    /// A calm breath.
    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        ramp(f.peakSnrDb, up: levelDb) * ramp(f.harmonicity, down: harmonicity) * ramp(f.flatness, up: flatness)
            * ramp(f.share(.breath), up: shareOf600To6k) * band(f.longestRunSeconds, runSeconds, soft: runSoftSeconds)
            * ramp(f.onsetDb, down: riseDb) * ramp(f.share(.low), down: shareBelow300)
            * ramp(f.flutter, down: Snoring.flutter)
    }

    /// A heavy breath.
    static func heavy(_ f: WindowFeatures, _ cue: Cues) -> Float {
        ramp(f.peakSnrDb, up: heavyLevelDb) * ramp(f.flatness, up: heavyFlatness) * ramp(f.harmonicity, down: heavyHarmonicity)
            * band(f.longestRunSeconds, heavyRunSeconds, soft: heavyRunSoftSeconds) * ramp(f.onsetDb, down: heavyRiseDb)
    }
}
