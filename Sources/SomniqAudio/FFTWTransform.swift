import CFFTW
import SomniqCore
import FoundationEssentials
import Glibc
import Synchronization

/// The FFT backend: FFTW single precision (`fftw3f`), real-to-complex and back.
///
/// Plans are made once, at init, with `FFTW_ESTIMATE`: a measured plan may pick a
/// different algorithm on another run, and somniq promises byte-identical output
/// for identical input. FFTW's planner is not thread-safe, so plan creation and
/// destruction are serialised process-wide; executing plans is thread-safe.
public final class FFTWTransform: SpectrumTransform {
    public let size: Int
    private let real: UnsafeMutablePointer<Float>
    private let complex: UnsafeMutablePointer<fftwf_complex>
    private let forward: fftwf_plan
    private let inverse: fftwf_plan

    private static let planner = Mutex(())

    /// `size`: transform length, a power of two ≥ 2.
    public init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "FFT length must be a power of two")
        self.size = size
        real = fftwf_alloc_real(size)!
        complex = fftwf_alloc_complex(size / 2 + 1)!
        let flags = UInt32(FFTW_ESTIMATE) | UInt32(FFTW_DESTROY_INPUT)
        let (r, c) = (real, complex)
        var plans: (fftwf_plan?, fftwf_plan?)
        Self.planner.withLock { _ in
            plans = (fftwf_plan_dft_r2c_1d(Int32(size), r, c, flags), fftwf_plan_dft_c2r_1d(Int32(size), c, r, flags))
        }
        (forward, inverse) = (plans.0!, plans.1!)
    }

    deinit {
        let (f, i) = (forward, inverse)
        Self.planner.withLock { _ in
            fftwf_destroy_plan(f)
            fftwf_destroy_plan(i)
        }
        fftwf_free(real)
        fftwf_free(complex)
    }

    public func powerSpectrum(of frame: UnsafeBufferPointer<Float>, into power: UnsafeMutableBufferPointer<Float>) {
        powerSpectrum(count: min(frame.count, size), fill: { real in
            for i in 0..<real.count { real[i] = frame[i] }
        }, into: power)
    }

    public func powerSpectrum(count n: Int, fill: (UnsafeMutableBufferPointer<Float>) -> Void,
                              into power: UnsafeMutableBufferPointer<Float>) {
        precondition(n >= 0 && n <= size, "a frame of at most \(size) samples")
        fill(UnsafeMutableBufferPointer(start: real, count: n))
        for i in n..<size { real[i] = 0 }
        fftwf_execute(forward)
        for k in 0...(size / 2) {
            let re = complex[k].0, im = complex[k].1
            power[k] = re * re + im * im
        }
    }

    public func autocorrelation(fromPower power: UnsafeBufferPointer<Float>, into acf: UnsafeMutableBufferPointer<Float>) {
        for k in 0...(size / 2) { complex[k] = (power[k], 0) }
        fftwf_execute(inverse)
        let scale = 1 / Float(size)
        for t in 0...(size / 2) { acf[t] = real[t] * scale }
    }
}
