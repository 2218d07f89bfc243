/// Everything the classifier knows about one 1.0 s window. Levels in dBFS; every
/// other quantity is a ratio, a frequency, or relative to the background floor.
public struct WindowFeatures: Sendable {
    public var index = 0
    public var startSeconds = 0.0
    /// RMS level of the window.
    public var levelDbfs: Float = Decibels.silence
    /// Loudest short frame.
    public var peakDbfs: Float = Decibels.silence
    /// Background floor (all bands), as tracked before this window.
    public var floorDbfs: Float = Decibels.silence
    /// Per band: how far the active frames stand above the floor (dB, ≥ 0).
    public var excessDb = BandVector()
    /// Share of the above-floor power in each band (sums to 1, or all 0 when nothing stands out).
    public var excessShare = BandVector()
    /// Fraction of short frames more than 6 dB above the floor.
    public var activeFraction: Float = 0
    /// Longest run of active frames, in seconds, and the number of separate runs.
    public var longestRunSeconds: Float = 0
    public var bursts = 0
    /// Longest run of active sub-frames within 10 dB of the window's loudest, in seconds,
    /// and the number of such runs: a bark or a cough is at full strength only briefly, a
    /// cry or a held note for long; a laugh returns to it at every "ha".
    public var loudRunSeconds: Float = 0
    public var loudBursts = 0
    /// Means over active frames.
    public var centroidHz: Float = 0
    public var rolloffHz: Float = 0
    public var flatness: Float = 0
    public var flux: Float = 0
    public var zcr: Float = 0
    public var harmonicity: Float = 0
    /// Strongest rise of the short-frame level over the 47 ms before it, dB, and where
    /// in the window it happens (seconds from the window's start).
    public var onsetDb: Float = 0
    public var onsetSeconds: Float = 0
    /// From that onset to the first frame within 3 dB of the loudest frame at or after it
    /// (within the window), seconds: how long the sound takes to reach its full strength.
    public var attackSeconds: Float = 0
    /// Fraction of active frames with a clear pitch (harmonicity ≥ 0.5), their median f0
    /// and the spread (interquartile range) of f0.
    public var voicedFraction: Float = 0
    public var f0Hz: Float = 0
    public var f0SpreadHz: Float = 0
    /// How far the pitch moves from one voiced frame to the next: the median of
    /// |f0 / f0 before − 1| over pairs of consecutive active voiced frames, leaving out a pair
    /// more than a major third apart, a jump of the pitch track (an octave error) rather than
    /// of the pitch; −1, not measured, over fewer than `fewestWobblePairs` pairs. Frames
    /// overlap and each holds several cycles, so it measures a voice's drift and tremor and
    /// what of its jitter a frame's average leaves; a synthesiser's oscillator has none.
    public var f0Wobble: Float = -1
    /// The fewest pairs whose median is a measure: 8 pairs, an eighth of a second of held
    /// voicing; over one or two the median is the pitch estimate's own noise.
    public static let fewestWobblePairs = 8
    /// Fraction of active frames with a spectral line ≥ 15 dB above its neighbourhood,
    /// the median line frequency and the fraction of those lines within 3 % of it.
    public var tonalFraction: Float = 0
    public var tonalHz: Float = 0
    public var tonalStability: Float = 0
    /// The fraction of lines within 3 % of the median line or of the median of the rest:
    /// a warbling ringer alternates between two tones.
    public var twoToneStability: Float = 0
    /// Separate runs of short frames that carry the median line (≥ 15 dB out of its
    /// neighbourhood, within 3 % of it), whatever the broadband level, and the longest run
    /// in seconds: the beeps of an alarm, heard in their own band over a louder background.
    public var toneRuns = 0
    public var longestToneSeconds: Float = 0
    /// Share of the level envelope's variance at 2–8 Hz (syllables, laughter, cadence).
    public var modulation: Float = 0
    /// Periodicity of the amplitude envelope at 30–150 Hz (0 … 1): a snore's flutter.
    public var flutter: Float = 0
    /// Lower quartile of the loudest-frame levels of the last 30 s of windows (`RecentPeaks`):
    /// what the room's recurring sounds reach.
    public var recentPeakDbfs: Float = Decibels.silence
    /// The latest smoke, heat or CO alarm the detector has found by its pattern, as known at
    /// the end of this window (it may have ended; nil when there has been none).
    public var alarm: AlarmDetector.Span?
    /// The latest train of a smoke alarm's low-battery chirps (`ChirpTrain`), as known at the
    /// end of this window (nil when there has been none).
    public var lowBattery: ChirpTrain.Span?
    /// Samples at or beyond ±0.999 full scale.
    public var clippedSamples = 0
    /// The log-mel spectrogram of the window's last 0.5 s (the frames it does not share with
    /// the window before): `MelBands.steps` rows of `MelBands.count` bands, dB. The
    /// spectrogram network's input (`SpectrogramNet`).
    public var mel = InlineArray<512, Float>(repeating: Decibels.silence)
    /// The spectrogram network's output per learned candidate (`LearnedRules.candidates`
    /// order), set by `SpectrogramNet.Runner.listen`; zeros when no network heard the window.
    public var net = SIMD16<Float>()

    public init() {}

    /// How far the window stands above the floor, dB.
    public var snrDb: Float { levelDbfs - floorDbfs }
    /// How far its loudest frame stands above the floor, dB.
    public var peakSnrDb: Float { peakDbfs - floorDbfs }
    /// How far its loudest frame stands above what the last 30 s usually reached, dB: a
    /// one-off sound stands out; a clock's tick, a cricket's chirp do not.
    public var noveltyDb: Float { peakDbfs - recentPeakDbfs }
}
