/// The strongest narrow spectral peak of a frame and how far it stands above its
/// neighbourhood: piezo alarm tones, ringers and beepers are a few such lines, noise
/// and speech have none that stands out so far (a median-filter prominence, as in
/// sinusoidal peak picking, Serra & Smith 1990).
public enum TonalPeak {
    /// (frequency in Hz, prominence in dB) of the strongest peak in `bins`, where
    /// prominence is the peak's power over the median power of ±`span` bins around it.
    public static func strongest(_ power: UnsafeBufferPointer<Float>, bins: Range<Int>, binHz: Float,
                                 span: Int = 12, scratch: UnsafeMutableBufferPointer<Float>) -> (hz: Float, prominenceDb: Float) {
        var peak = bins.lowerBound
        var peakPower: Float = -1
        for k in bins where power[k] > peakPower { peakPower = power[k]; peak = k }
        return strongest(power, peak: peak, peakPower: peakPower, binHz: binHz, span: span, scratch: scratch)
    }

    /// The same of a peak already found: `peak`, the first bin of the range with its greatest
    /// power, `peakPower` (the extractor's bin pass finds them after its sums, `BinPass.strongest`).
    public static func strongest(_ power: UnsafeBufferPointer<Float>, peak: Int, peakPower: Float, binHz: Float,
                                 span: Int = 12, scratch: UnsafeMutableBufferPointer<Float>) -> (hz: Float, prominenceDb: Float) {
        guard peakPower > 1e-12 else { return (0, 0) }
        // Median of the neighbourhood, leaving out the peak's own main lobe (±2 bins).
        var n = 0
        for k in max(1, peak - span)...min(power.count - 1, peak + span) where abs(k - peak) > 2 {
            scratch[n] = power[k]
            n += 1
        }
        guard n > 0 else { return (0, 0) }
        let median = select(scratch, count: n, k: n / 2)
        // Parabolic interpolation on log power for the peak frequency.
        var hz = Float(peak) * binHz
        if peak > 0, peak < power.count - 1 {
            let a = Decibels.power(power[peak - 1]), b = Decibels.power(power[peak]), c = Decibels.power(power[peak + 1])
            let d = a - 2 * b + c
            if abs(d) > 1e-6 { hz += max(-0.5, min(0.5, 0.5 * (a - c) / d)) * binHz }
        }
        return (hz, Decibels.power(peakPower) - Decibels.power(median))
    }

    /// The k-th smallest of the first `count` values (Hoare's selection; reorders them).
    static func select(_ v: UnsafeMutableBufferPointer<Float>, count: Int, k: Int) -> Float {
        var lo = 0, hi = count - 1
        while lo < hi {
            let pivot = v[(lo + hi) / 2]
            var i = lo, j = hi
            while i <= j {
                while v[i] < pivot { i += 1 }
                while v[j] > pivot { j -= 1 }
                if i <= j { v.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { break }
        }
        return v[k]
    }
}
