import CFFTW
import SomniqCore
import FoundationEssentials
import Glibc
import Synchronization

/// The FFT backend: FFTW single precision (`fftw3f`), real-to-complex and back.
///
/// Plans are made once, at init, with `FFTW_ESTIMATE`: a measured plan may pick a
/// different algorithm on another run, and somniq promises byte-identical output
/// for identical input. `FFTW_NO_BUFFERING` leaves out of the planner's search the solvers
/// that copy a batch of transforms through a buffer, which a single transform never takes:
/// both plans are those `FFTW_ESTIMATE` alone makes (`FFTWTransformTests`), and planning
/// them costs 1.6 M instructions less (13.6 M, not 15.2 M, of every start). FFTW's planner
/// is not thread-safe, so plan creation and destruction are serialised process-wide;
/// executing plans is thread-safe.
public final class FFTWTransform: SpectrumTransform {
    public let size: Int
    private let real: UnsafeMutablePointer<Float>
    private let complex: UnsafeMutablePointer<fftwf_complex>
    private let forward: fftwf_plan
    private let inverse: fftwf_plan

    private static let planner = Mutex(())

    /// The planner's flags: `estimate`, and no buffered solvers.
    static let flags = estimate | UInt32(FFTW_NO_BUFFERING)
    static let estimate = UInt32(FFTW_ESTIMATE) | UInt32(FFTW_DESTROY_INPUT)

    /// The plans as FFTW describes them (`fftwf_sprint_plan`): forward, then inverse.
    var plans: (forward: String, inverse: String) { (Self.describe(forward), Self.describe(inverse)) }

    /// The plans FFTW makes for `size` with `flags` from a planner that remembers no plan
    /// made before (no wisdom), described, and destroyed again.
    static func plans(size: Int, flags: UInt32) -> (forward: String, inverse: String) {
        let r = fftwf_alloc_real(size)!, c = fftwf_alloc_complex(size / 2 + 1)!
        defer { fftwf_free(r); fftwf_free(c) }
        return planner.withLock { _ in
            fftwf_forget_wisdom()
            let f = fftwf_plan_dft_r2c_1d(Int32(size), r, c, flags)!, i = fftwf_plan_dft_c2r_1d(Int32(size), c, r, flags)!
            defer { fftwf_destroy_plan(f); fftwf_destroy_plan(i) }
            return (describe(f), describe(i))
        }
    }

    private static func describe(_ plan: fftwf_plan) -> String {
        guard let text = fftwf_sprint_plan(plan) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    /// `size`: transform length, a power of two ≥ 2.
    public init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "FFT length must be a power of two")
        self.size = size
        real = fftwf_alloc_real(size)!
        complex = fftwf_alloc_complex(size / 2 + 1)!
        let flags = Self.flags
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
