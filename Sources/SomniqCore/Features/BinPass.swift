/// One pass over a frame's power spectrum that does the work of six: it scales the power
/// and takes its log, and adds up the bands, the centroid, the flatness and the flux. It
/// also carries two sums over samples that would otherwise each be a loop of their own:
/// the frame's energy and a slice of the window's level.
///
/// Every sum adds the same terms in the same order as its own definition (`SpectralShape`,
/// the flux and flatness of `FeatureExtractor`), so the results are the same bits. A sum of
/// floats cannot be reordered without changing them, so each is a chain of additions that
/// waits on the one before; run one after the other, the loops were bound by that wait. Here
/// the chains run side by side, and the pass costs about what one of them did.
enum BinPass {
    /// One frame's sums.
    struct Sums {
        var bands = BandVector()
        /// Σ k·P[k] and Σ P[k] over bins 1 …: the centroid's numerator and denominator.
        var weighted: Float = 0, total: Float = 0
        /// Σ max(L[k] − L′[k], 0) over bins 1 …, with L the log spectrum and L′ the frame before's.
        var flux: Float = 0
        /// Σ L[k] and Σ (P[k] + ε) over the flatness bins.
        var logSum: Float = 0, flatSum: Float = 0
        /// Σ x² over the frame's samples.
        var frameSquares: Float = 0
    }

    /// The window's level, summed a slice per frame: Σ x² and the samples at full scale.
    struct Level {
        var squares: Float = 0
        var clipped = 0
    }

    /// Scales `power` by `scale` in place, writes 10·log10(P + ε) to `log` and the running
    /// total of the power to `cumulative` (for the roll-off), adds `windowSlice` to `level`,
    /// and returns the frame's sums. `frame` and `windowSlice` each hold at most one sample
    /// per bin past bin 0; `rises` (as long as the spectrum) is scratch.
    static func run(power: UnsafeMutableBufferPointer<Float>, log: UnsafeMutableBufferPointer<Float>,
                    previousLog: UnsafeBufferPointer<Float>, cumulative: UnsafeMutableBufferPointer<Float>,
                    rises: UnsafeMutableBufferPointer<Float>,
                    scale: Float, epsilon: Float, layout: BandLayout, flatness: Range<Int>,
                    frame: UnsafeBufferPointer<Float>, windowSlice: UnsafeBufferPointer<Float>,
                    level: inout Level) -> Sums {
        let count = power.count
        precondition(flatness.lowerBound >= 1 && frame.count < count && windowSlice.count < count)
        precondition(log.count >= count && previousLog.count >= count && cumulative.count >= count && rises.count >= count)
        // First what each bin needs of no other: the scaled power, its log and the rise of the
        // log, eight bins at a time. Lane for lane these are the scalar operations, in the same
        // order, so the same bits.
        let lanes = Lanes.scalarCount
        var k = 0
        while k + lanes <= count {
            let p = load(power, k) * scale
            let l = fastPower(p + epsilon)
            store(p, power, k)
            store(l, log, k)
            store(rise(l - load(previousLog, k)), rises, k)
            k += lanes
        }
        while k < count {
            let p = power[k] * scale
            power[k] = p
            let l = Decibels.fastPower(p + epsilon)
            log[k] = l
            rises[k] = rise(l - previousLog[k])
            k += 1
        }
        cumulative[0] = 0

        // Then the sums, carried from one run of bins to the next (`add`).
        var bands = BandVector()
        var chains = Chains(flux: 0, weighted: 0, total: 0, logSum: 0, flatSum: 0,
                            frameSquares: 0, windowSquares: level.squares, clipped: level.clipped)
        let flatLow = flatness.lowerBound, flatHigh = flatness.upperBound
        let frameEnd = frame.count, sliceEnd = windowSlice.count
        let P = UnsafePointer(power.baseAddress!), L = UnsafePointer(log.baseAddress!), R = UnsafePointer(rises.baseAddress!)
        let C = cumulative.baseAddress!, X = frame.baseAddress, S = windowSlice.baseAddress
        for b in 0..<Bands.count {
            var band: Float = 0
            let bins = layout.bins[b]
            // The band in runs that end where a sum starts or stops (the flatness range's
            // edges, the frame's end, the slice's end): within a run, a bin tests a flag set
            // for the run, not three ranges.
            var k = bins.lowerBound
            while k < bins.upperBound {
                let flat = k >= flatLow && k < flatHigh, inFrame = k <= frameEnd, inSlice = k <= sliceEnd
                var end = min(bins.upperBound, k < flatLow ? flatLow : flat ? flatHigh : bins.upperBound)
                if inFrame { end = min(end, frameEnd + 1) }
                if inSlice { end = min(end, sliceEnd + 1) }
                add(k..<end, flat: flat, inFrame: inFrame, inSlice: inSlice, band: &band, chains: &chains,
                    power: P, log: L, rises: R, cumulative: C, frame: X, slice: S, epsilon: epsilon)
                k = end
            }
            bands[b] = band
        }
        level = Level(squares: chains.windowSquares, clipped: chains.clipped)
        return Sums(bands: bands, weighted: chains.weighted, total: chains.total, flux: chains.flux, logSum: chains.logSum,
                    flatSum: chains.flatSum, frameSquares: chains.frameSquares)
    }

    /// The sums of the bin pass, carried from one run of bins to the next.
    private struct Chains {
        var flux: Float, weighted: Float, total: Float, logSum: Float, flatSum: Float
        var frameSquares: Float, windowSquares: Float, clipped: Int
    }

    /// Adds the bins `bins` to `band` and `chains`, each sum in the order of the bins; which
    /// of the sums over a part of the bins they add to is fixed for the run. A function of
    /// its own, with the sums in locals: every chain stays in a register (through a struct,
    /// or shared by loops in one function, the compiler kept them in memory: a store and a
    /// load on every chain, every bin).
    @inline(never)
    private static func add(_ bins: Range<Int>, flat: Bool, inFrame: Bool, inSlice: Bool, band: inout Float, chains: inout Chains,
                            power: UnsafePointer<Float>, log: UnsafePointer<Float>, rises: UnsafePointer<Float>,
                            cumulative: UnsafeMutablePointer<Float>, frame: UnsafePointer<Float>?, slice: UnsafePointer<Float>?,
                            epsilon: Float) {
        var sum = band, flux = chains.flux, weighted = chains.weighted, total = chains.total
        var logSum = chains.logSum, flatSum = chains.flatSum
        var frameSquares = chains.frameSquares, windowSquares = chains.windowSquares, clipped = chains.clipped
        var k = bins.lowerBound
        while k < bins.upperBound {
            let p = power[k]
            flux += rises[k]
            sum += p
            weighted += Float(k) * p
            total += p
            cumulative[k] = total
            if flat {
                logSum += log[k]
                flatSum += p + epsilon
            }
            if inFrame {
                let x = frame.unsafelyUnwrapped[k &- 1]
                frameSquares += x * x
            }
            if inSlice {
                let x = slice.unsafelyUnwrapped[k &- 1]
                windowSquares += x * x
                clipped &+= abs(x) >= 0.999 ? 1 : 0
            }
            k &+= 1
        }
        band = sum
        chains = Chains(flux: flux, weighted: weighted, total: total, logSum: logSum, flatSum: flatSum,
                        frameSquares: frameSquares, windowSquares: windowSquares, clipped: clipped)
    }

    private typealias Lanes = SIMD8<Float>

    @inline(__always) private static func load(_ b: UnsafeMutableBufferPointer<Float>, _ k: Int) -> Lanes {
        UnsafeRawPointer(b.baseAddress! + k).loadUnaligned(as: Lanes.self)
    }

    @inline(__always) private static func load(_ b: UnsafeBufferPointer<Float>, _ k: Int) -> Lanes {
        UnsafeRawPointer(b.baseAddress! + k).loadUnaligned(as: Lanes.self)
    }

    @inline(__always) private static func store(_ v: Lanes, _ b: UnsafeMutableBufferPointer<Float>, _ k: Int) {
        UnsafeMutableRawPointer(b.baseAddress! + k).storeBytes(of: v, as: Lanes.self)
    }

    /// `Decibels.fastPower`, lane by lane.
    @inline(__always) private static func fastPower(_ p: Lanes) -> Lanes {
        let bits = unsafeBitCast(p, to: SIMD8<UInt32>.self)
        let exponent = Lanes(unsafeBitCast((bits &>> 23) & 0xFF, to: SIMD8<Int32>.self) &- 127)
        let m = unsafeBitCast((bits & 0x007F_FFFF) | 0x3F80_0000, to: Lanes.self)
        let log2m = ((0.15824871 * m - 1.05187502) * m + 3.04788335) * m - 2.15410939
        let db = 3.0102999566 * (exponent + log2m)
        return db.replacing(with: Decibels.silence, where: .!(p .>= Float.leastNormalMagnitude))
    }

    /// `rise`, lane by lane.
    @inline(__always) private static func rise(_ d: Lanes) -> Lanes {
        let bits = unsafeBitCast(d, to: SIMD8<Int32>.self)
        let negative = bits &>> 31
        return unsafeBitCast(bits & ~negative, to: Lanes.self)
    }

    /// max(d, 0) without a branch (the sign bit, spread, masks a negative d or −0 to +0): a
    /// rise of the log spectrum is as likely as a fall, so a branch would be mispredicted
    /// half the time.
    @inline(__always) static func rise(_ d: Float) -> Float {
        let negative = UInt32(bitPattern: Int32(bitPattern: d.bitPattern) >> 31)
        return Float(bitPattern: d.bitPattern & ~negative)
    }

    /// The roll-off in Hz from the running totals: the first bin where the total reaches
    /// `fraction` of the whole, as `SpectralShape.rolloff` finds it by adding again. The
    /// totals never fall (each adds a power ≥ 0), so a binary search finds that bin.
    static func rolloff(cumulative: UnsafeBufferPointer<Float>, total: Float, binHz: Float,
                        fraction: Float = 0.85) -> Float {
        guard total > 1e-12 else { return 0 }
        let target = fraction * total
        var lo = 1, hi = cumulative.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulative[mid] >= target { hi = mid } else { lo = mid + 1 }
        }
        return Float(min(lo, cumulative.count - 1)) * binHz
    }
}
