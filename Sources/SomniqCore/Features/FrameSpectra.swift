/// The part of a window's analysis that needs nothing but its samples: each new short
/// frame's power spectrum (Hann window, FFT). A replay's reader thread computes it ahead,
/// on a transform of its own, while the analysis works on an earlier window
/// (`FeatureExtractor.process(_:spectra:)`); the extractor computes whatever was not.
/// The same samples through the same transform give the same bits on either thread.
public final class FrameSpectra {
    public let bins: Int
    /// The window the spectra are of (-1: none yet), and its first frame computed: 0 for
    /// the first window of a stream, `SubFrame.shared` for each after it.
    public private(set) var window = -1
    public private(set) var first = 0
    private let transform: SpectrumTransform
    private let hann: [Float]
    private var frameBuffer: [Float]
    private let power: UnsafeMutablePointer<Float>

    /// `transform`: used by this object alone (an FFT plan runs on one thread at a time).
    public init(transform: SpectrumTransform) {
        self.transform = transform
        bins = transform.size / 2 + 1
        hann = FeatureExtractor.hann
        frameBuffer = [Float](repeating: 0, count: transform.size)
        power = .allocate(capacity: SubFrame.perWindow * bins)
        power.initialize(repeating: 0, count: SubFrame.perWindow * bins)
    }

    deinit { power.deallocate() }

    /// Computes the spectra of the frames of window `index` (its `samples`) from `first`
    /// on: those the extractor analyses anew, all of a stream's first window, the unshared
    /// ones of each after it.
    public func compute(window index: Int, samples: UnsafeBufferPointer<Float>, from first: Int) {
        precondition(samples.count == StreamClock.windowLength && (0...SubFrame.perWindow).contains(first))
        for i in first..<SubFrame.perWindow {
            let frame = UnsafeBufferPointer(rebasing: samples[i * SubFrame.hop..<i * SubFrame.hop + SubFrame.length])
            Self.spectrum(of: frame, hann: hann, buffer: &frameBuffer, transform: transform, into: self.frame(i))
        }
        window = index
        self.first = first
    }

    /// Frame `i`'s power spectrum (unscaled |X|²); the extractor scales it in place.
    func frame(_ i: Int) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(start: power + i * bins, count: bins)
    }

    /// The Hann-windowed power spectrum of one frame: the one computation both threads make.
    static func spectrum(of frame: UnsafeBufferPointer<Float>, hann: [Float], buffer: inout [Float],
                         transform: SpectrumTransform, into power: UnsafeMutableBufferPointer<Float>) {
        let n = SubFrame.length
        buffer.withUnsafeMutableBufferPointer { buf in
            hann.withUnsafeBufferPointer { h in
                for j in 0..<n { buf[j] = frame[j] * h[j] }
            }
            transform.powerSpectrum(of: UnsafeBufferPointer(rebasing: buf[0..<n]), into: power)
        }
    }
}
