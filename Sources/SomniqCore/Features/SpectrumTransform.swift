/// The FFT backend, chosen in one place only (SomniqAudio's FFTW transform).
///
/// The core computes every spectral feature from what this returns; it never
/// knows which library did the transform. Implementations make their plans once
/// and allocate nothing per call.
public protocol SpectrumTransform: AnyObject {
    /// Transform length N (the frame is zero-padded to it). Spectra have N/2 + 1 bins.
    var size: Int { get }

    /// Power spectrum |X[k]|², k = 0 … N/2, of `frame` (at most N samples, zero-padded).
    func powerSpectrum(of frame: UnsafeBufferPointer<Float>, into power: UnsafeMutableBufferPointer<Float>)

    /// The same of a frame written straight into the transform's own input, not copied
    /// there: `fill` writes the frame's `count` samples (at most N) to the buffer it is
    /// given, and the transform pads them with zeros.
    func powerSpectrum(count: Int, fill: (UnsafeMutableBufferPointer<Float>) -> Void, into power: UnsafeMutableBufferPointer<Float>)

    /// Autocorrelation r[τ], τ = 0 … N/2, from a power spectrum (inverse transform of |X|²).
    func autocorrelation(fromPower power: UnsafeBufferPointer<Float>, into acf: UnsafeMutableBufferPointer<Float>)
}
