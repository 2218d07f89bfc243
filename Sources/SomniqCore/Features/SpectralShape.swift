import RealModule

/// Frame-level spectral descriptors of one power spectrum (Peeters 2004, "A large set
/// of audio features for sound description", CUIDADO project).
public enum SpectralShape {
    /// Spectral centroid in Hz: the power-weighted mean frequency.
    public static func centroid(_ power: UnsafeBufferPointer<Float>, binHz: Float) -> Float {
        var num: Float = 0, den: Float = 0
        for k in 1..<power.count { num += Float(k) * power[k]; den += power[k] }
        return den > 1e-12 ? num / den * binHz : 0
    }

    /// Roll-off in Hz: the frequency below which `fraction` of the power lies.
    public static func rolloff(_ power: UnsafeBufferPointer<Float>, binHz: Float, fraction: Float = 0.85) -> Float {
        var total: Float = 0
        for k in 1..<power.count { total += power[k] }
        guard total > 1e-12 else { return 0 }
        var acc: Float = 0
        for k in 1..<power.count {
            acc += power[k]
            if acc >= fraction * total { return Float(k) * binHz }
        }
        return Float(power.count - 1) * binHz
    }

    /// Spectral flatness (Wiener entropy) over bins `range`: geometric over arithmetic
    /// mean of the power. Near 1 for white noise, near 0 for a pure tone; 0 for silence.
    public static func flatness(_ power: UnsafeBufferPointer<Float>, range: Range<Int>) -> Float {
        var logSum: Float = 0, sum: Float = 0
        for k in range {
            let p = power[k] + 1e-12
            logSum += Float.log(p)
            sum += p
        }
        let n = Float(range.count)
        guard sum > 1e-12 * n * 2 else { return 0 }
        return Float.exp(logSum / n) / (sum / n)
    }

    /// Band energies: the sum of power in each of `Bands`, over the bins `layout` gives
    /// each band (bin 0, the mean, belongs to none). Each band is summed from its lowest
    /// bin up, so the result does not depend on how the bins were found.
    public static func bands(_ power: UnsafeBufferPointer<Float>, layout: BandLayout) -> BandVector {
        var out = BandVector()
        for b in 0..<Bands.count {
            var sum: Float = 0
            for k in layout.bins[b] { sum += power[k] }
            out[b] = sum
        }
        return out
    }
}

/// Which bins of a spectrum fall in each of `Bands`, worked out once per transform size:
/// bin k (at k·binHz) belongs to the highest band whose lower edge it reaches, and all above
/// 6 kHz to the top band.
public struct BandLayout: Sendable {
    public let bins: [Range<Int>]

    public init(bins count: Int, binHz: Float) {
        var starts = [Int](repeating: count, count: Bands.count)
        var b = 0
        starts[0] = 1
        for k in 1..<count {
            let f = Float(k) * binHz
            while b < Bands.count - 1, f >= Bands.edgesHz[b + 1] {
                b += 1
                starts[b] = k
            }
        }
        // A band no bin reaches is empty, where the next one starts.
        for b in stride(from: Bands.count - 2, through: 0, by: -1) { starts[b] = min(starts[b], starts[b + 1]) }
        bins = (0..<Bands.count).map { b in starts[b]..<(b + 1 < Bands.count ? starts[b + 1] : count) }
    }
}
