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
///
/// Planning starts from `wisdom`: what FFTW's planner remembers of making the two plans of
/// 1,024 points with these flags (`fftwf_export_wisdom_to_string`). FFTW takes wisdom only
/// when its header's signature, an md5 of every solver the planner has registered, is its
/// own, and it registers the SIMD solvers the processor runs (SSE2, AVX, AVX2 …) and no
/// others; `FFTW_ESTIMATE` chooses by counting operations, never by timing, so on such a
/// planner it chooses the plan the wisdom names. Anywhere else the wisdom is refused and
/// the planner searches as before; either way the plans are those `FFTW_ESTIMATE` alone
/// makes (`FFTWTransformTests`). Read from wisdom, the two plans cost 3.4 M instructions of
/// a start, not 13.6 M (docs/benchmarks.md, "The FFT plans from wisdom").
public final class FFTWTransform: SpectrumTransform {
    public let size: Int
    private let real: UnsafeMutablePointer<Float>
    private let complex: UnsafeMutablePointer<fftwf_complex>
    private let forward: fftwf_plan
    private let inverse: fftwf_plan

    /// The planner, and whether it took `wisdom` (nil: not offered since it last forgot; a
    /// planner refuses wisdom another planner made).
    static let planner = Mutex<Bool?>(nil)

    /// FFTW 3.3.10's wisdom for the plans of 1,024 points with `flags`, made on a processor
    /// with AVX2 (Debian 12's libfftw3-single3). Another FFTW or processor refuses it and plans
    /// as before (the same plans, at start-up's old cost); `FFTWTransformTests` fails where it
    /// is taken yet is not what this planner exports.
    static let wisdom = """
        (fftw-3.3.10 fftwf_wisdom #x9e7d4dee #xdb14fed1 #x34bf76a4 #xeb6e8fdf
          (fftwf_codelet_n2fv_32_avx 0 #x30fff #x30fff #x0 #x1bfd5ad9 #xc4c1f496 #x706c43ea #xb35a0b93)
          (fftwf_codelet_t3fv_16_avx 0 #x30fff #x30fff #x0 #xfeec02f8 #xbbf06357 #xb26e7a2b #xf7b9dcb8)
          (fftwf_codelet_r2cf_2 2 #x30fff #x30fff #x0 #x52d4cebb #x3d61daaa #x6b7f5c22 #x0a343c15)
          (fftwf_codelet_hc2cbdftv_4_sse2 0 #x30fff #x30fff #x0 #x33b55dab #xe700b258 #x1523ad42 #x1ea71b18)
          (fftwf_dft_vrank_geq1_register 0 #x30fff #x30fff #x0 #x0c8d0eac #x78bbe716 #xaa44fc97 #x864a48b9)
          (fftwf_codelet_r2cb_4 2 #x30fff #x30fff #x0 #xabc18815 #x51ef634f #xa757ef18 #x4a9fec38)
          (fftwf_codelet_r2cfII_2 2 #x30fff #x30fff #x0 #x0f9bbec4 #xaf177e66 #xae9fc9cb #x69add438)
          (fftwf_codelet_r2cbIII_4 2 #x30fff #x30fff #x0 #xa3a72234 #x20d0a26e #xb4f72605 #x3ca8a047)
          (fftwf_codelet_t1buv_8_avx 0 #x30fff #x30fff #x0 #x7ed1998d #x01174436 #xeb328237 #x1f38ad00)
          (fftwf_codelet_hc2cfdftv_2_sse2 0 #x30fff #x30fff #x0 #x3f67885c #x1d118905 #x1b4c027b #x7ecffc87)
          (fftwf_codelet_n1bv_32_avx 0 #x30fff #x30fff #x0 #xf56e9e6c #xf70cfb79 #xd4890a4c #xcfcccdc1)
        )

        """

    /// The planner's flags: `estimate`, and no buffered solvers.
    static let flags = estimate | UInt32(FFTW_NO_BUFFERING)
    static let estimate = UInt32(FFTW_ESTIMATE) | UInt32(FFTW_DESTROY_INPUT)

    /// The plans as FFTW describes them (`fftwf_sprint_plan`): forward, then inverse.
    var plans: (forward: String, inverse: String) { (Self.describe(forward), Self.describe(inverse)) }

    /// The plans FFTW makes for `size` with `flags` from a planner that remembers no plan
    /// made before (no wisdom), described, and destroyed again; and the wisdom that
    /// planner then exports.
    static func plans(size: Int, flags: UInt32) -> (forward: String, inverse: String, wisdom: String) {
        let r = fftwf_alloc_real(size)!, c = fftwf_alloc_complex(size / 2 + 1)!
        defer { fftwf_free(r); fftwf_free(c) }
        return planner.withLock { remembers in
            fftwf_forget_wisdom()
            remembers = nil
            let f = fftwf_plan_dft_r2c_1d(Int32(size), r, c, flags)!, i = fftwf_plan_dft_c2r_1d(Int32(size), c, r, flags)!
            defer { fftwf_destroy_plan(f); fftwf_destroy_plan(i) }
            let text = fftwf_export_wisdom_to_string()!
            defer { free(text) }
            return (describe(f), describe(i), String(cString: text))
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
        Self.planner.withLock { remembers in
            if remembers == nil { remembers = fftwf_import_wisdom_from_string(Self.wisdom) == 1 }
            if remembers == true {
                let known = flags | UInt32(FFTW_WISDOM_ONLY)
                plans = (fftwf_plan_dft_r2c_1d(Int32(size), r, c, known), fftwf_plan_dft_c2r_1d(Int32(size), c, r, known))
            }
            if plans.0 == nil { plans.0 = fftwf_plan_dft_r2c_1d(Int32(size), r, c, flags) }
            if plans.1 == nil { plans.1 = fftwf_plan_dft_c2r_1d(Int32(size), c, r, flags) }
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
