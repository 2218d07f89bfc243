/// Gasp: a sudden, loud inhalation through an open glottis. It starts abruptly (what tells
/// it from a calm breath) and is breathy, turbulent noise with at most a weak voice in it,
/// for 0.3–1.5 s. The open vocal tract shapes it: its centroid lies among the low formants
/// (1–1.7 kHz), below a plain breath's hiss or the shards of breaking glass, which have
/// most of their energy above 2 kHz; nor is there much of it below the first formant.
///
/// Across windows a `Hold` of `hold` windows carries it through the rest of the inhalation.
/// In the arbitration a snore train (where a burst is the next snore), a breathing rhythm,
/// breaking glass and music suppress it; it suppresses a snore.
enum Gasp {
    /// Windows the Classifier's `Hold` carries a gasp on while sound goes on without a new attack.
    static let hold = 2
    /// Loud: its loudest frame 14–20 dB above the floor.
    static let levelDb: ClosedRange<Float> = 14...20
    /// An abrupt start: a rise of 5–8 dB within 47 ms (a quiet or distant gasp rises less
    /// than a near one, and still starts at once, where a calm breath swells).
    static let riseDb: ClosedRange<Float> = 5...8
    /// Breathy: a spectral flatness of at least 0.12–0.18 (turbulent noise).
    static let flatness: ClosedRange<Float> = 0.12...0.18
    /// At most a weak voice: harmonicity 0.3–0.66 …
    static let harmonicity: ClosedRange<Float> = 0.3...0.66
    /// … give or take 0.1.
    static let harmonicitySoft: Float = 0.1
    /// A run of sound of at least 0.3–0.45 s.
    static let longestRunSeconds: ClosedRange<Float> = 0.3...0.45
    /// The centroid among the low formants, 1–1.7 kHz …
    static let centroidHz: ClosedRange<Float> = 1000...1700
    /// … give or take 250 Hz.
    static let centroidSoftHz: Float = 250
    /// At most 25–40 % of the energy above 4 kHz: less hiss than a breath, fewer shards than glass.
    static let shareAbove4k: ClosedRange<Float> = 0.25...0.4
    /// At full strength for 0.12–0.18 s at a stretch: it holds its strength, where a slam or
    /// a drum hit dies at once.
    static let loudRunSeconds: ClosedRange<Float> = 0.12...0.18
    /// The vocal tract shapes the turbulence by its formants, F1 at 300 Hz or more (Peterson
    /// & Barney 1952), and a gasp's weak voice has its fundamental at 85 Hz or more: at most
    /// 40–60 % of the energy lies below 150 Hz, where a kick drum, a bass line and a rumble
    /// put most of theirs.
    static let shareBelow150: ClosedRange<Float> = 0.4...0.6
    /// Its centroid among the low formants leaves at most 30–45 % of the energy above
    /// 2.4 kHz, where breaking glass puts most of its own (`GlassBreak.shareAbove2k4`).
    static let shareAbove2k4: ClosedRange<Float> = 0.3...0.45

    /// A gasp is drawn through one larynx: what voice it has is one voice, and the middle half
    /// of its voiced frames' pitches spans at most 700–850 Hz, even where the pitch track
    /// jumps an octave (tune/'s gasps: 231 Hz at most in the windows the rule hears, 512 Hz
    /// in any window of one; a word of speech in the fixtures, 694 Hz). A struck panel rings
    /// in several inharmonic modes at once, and the pitch read in the few frames its ring
    /// makes voiced jumps between them: a steel door's close, heard as a gasp at up to 0.94 on
    /// check/ and the fold 3–4 nights, reads 720–910 Hz in every window heard at 0.6 or more.
    static let f0SpreadHz: ClosedRange<Float> = 700...850

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        cue.novel * ramp(f.peakSnrDb, up: levelDb) * ramp(f.onsetDb, up: riseDb) * ramp(f.flatness, up: flatness)
            * band(f.harmonicity, harmonicity, soft: harmonicitySoft) * ramp(f.longestRunSeconds, up: longestRunSeconds)
            * band(f.centroidHz, centroidHz, soft: centroidSoftHz) * ramp(f.share(.hiss), down: shareAbove4k)
            * ramp(f.loudRunSeconds, up: loudRunSeconds) * ramp(f.share(.hum), down: shareBelow150) * ramp(f.share(.bright), down: shareAbove2k4)
            * ramp(f.f0SpreadHz, down: f0SpreadHz)
    }
}
