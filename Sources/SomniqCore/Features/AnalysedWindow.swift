/// A window analysed up to the alarm detector (`FeatureExtractor.analyse`): its features but
/// their `alarm`, and the log spectrum of each frame analysed anew, which the detector follows
/// frame by frame (`AlarmFollower`). The two halves hold no state in common, so a window can
/// be analysed on one thread while the one before it is followed on another: a replay's reader
/// analyses windows ahead of the alarm detector and the classifier (`Pipeline.ahead`).
public final class AnalysedWindow {
    public internal(set) var features = WindowFeatures()
    /// The first frame analysed anew: 0 for a stream's first window (or after a gap),
    /// `SubFrame.shared` for each after it.
    public internal(set) var first = 0
    let bins: Int
    private let logs: UnsafeMutablePointer<Float>

    /// `bins`: the spectrum's length (`FeatureExtractor.bins`).
    public init(bins: Int) {
        self.bins = bins
        logs = .allocate(capacity: SubFrame.perWindow * bins)
        logs.initialize(repeating: Decibels.silence, count: SubFrame.perWindow * bins)
    }

    deinit { logs.deallocate() }

    /// Frame `i`'s log power spectrum, dB.
    func log(_ i: Int) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(start: logs + i * bins, count: bins)
    }
}

/// The alarm detector's side of the feature extraction: each new frame's narrow lines
/// (`ToneLines`), the detector that follows them frame by frame (`AlarmDetector`), and the
/// low-battery chirps among its beeps (`ChirpTrain`).
public struct AlarmFollower {
    private var toneLines: ToneLines
    private var alarms = AlarmDetector()
    private var chirps = ChirpTrain()

    /// `bins`, `binHz`: the spectrum's (`FeatureExtractor`).
    init(bins: Int, binHz: Float) {
        toneLines = ToneLines(bins: bins, binHz: binHz)
    }

    public init(for extractor: FeatureExtractor) {
        self.init(bins: extractor.bins, binHz: extractor.binHz)
    }

    /// Follows the frames `window` analysed anew; returns the alarm the detector holds now
    /// (`WindowFeatures.alarm`).
    public mutating func follow(_ window: AnalysedWindow) -> AlarmDetector.Span? {
        let step = SubFrame.perWindow - SubFrame.shared
        for i in window.first..<SubFrame.perWindow {
            toneLines.find(in: UnsafeBufferPointer(window.log(i)))
            alarms.push(toneLines, frame: window.features.index * step + i)
            chirps.follow(alarms, frame: window.features.index * step + i)
        }
        return alarms.span
    }

    /// The chirps' train as known after the last window followed (`WindowFeatures.lowBattery`).
    public var lowBattery: ChirpTrain.Span? { chirps.span }
}
