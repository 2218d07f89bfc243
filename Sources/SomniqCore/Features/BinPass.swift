/// One pass over a frame's power spectrum that does the work of seven: it scales the power
/// and takes its log, adds up the bands, the centroid, the flatness and the flux, then finds
/// the strongest bin of the tonal range (`TonalPeak`, `strongest`). It also carries two sums
/// over samples, sample j beside bin j + 1: the frame's energy and a slice of the window's level.
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
        /// The first bin of the tonal range with its greatest power, and that power (−1 for an
        /// empty range), as `TonalPeak.strongest(_:bins:…)` finds them.
        var peak = 0, peakPower: Float = -1
    }

    /// The window's level, summed a slice per frame: Σ x² and the samples at full scale.
    struct Level {
        var squares: Float = 0
        var clipped = 0
    }

    /// Scales `power` by `scale` in place, writes 10·log10(P + ε) to `log` and the running
    /// total of the power to `cumulative` (for the roll-off), adds `windowSlice` to `level`,
    /// and returns the frame's sums. `frame` and `windowSlice` each hold at most one sample
    /// per bin past bin 0; `terms` (`termCount` times as long as the spectrum) is scratch.
    static func run(power: UnsafeMutableBufferPointer<Float>, log: UnsafeMutableBufferPointer<Float>,
                    previousLog: UnsafeBufferPointer<Float>, cumulative: UnsafeMutableBufferPointer<Float>,
                    terms: UnsafeMutableBufferPointer<Float>,
                    scale: Float, epsilon: Float, layout: BandLayout, flatness: Range<Int>, tonal: Range<Int>,
                    frame: UnsafeBufferPointer<Float>, windowSlice: UnsafeBufferPointer<Float>,
                    level: inout Level) -> Sums {
        let count = power.count
        precondition(flatness.lowerBound >= 1 && tonal.lowerBound >= 1 && tonal.upperBound <= count)
        precondition(frame.count < count && windowSlice.count < count)
        precondition(log.count >= count && previousLog.count >= count && cumulative.count >= count)
        precondition(terms.count >= termCount * count)
        // Each bin's terms of the sums, four bins at a time: the scaled power, its log, the
        // rise of the log, k·P[k], P[k] + ε and the squares of the samples. Lane for lane
        // these are the scalar operations, in the same order, so the same bits; the chains of
        // additions below then only add them up. Four lanes, one SSE register each: with
        // eight, two registers a value, the loop ran out of registers and reloaded its
        // constants and spilled (116 instructions per eight bins; 44 per four now).
        let t = terms.baseAddress!
        let rises = t, weightedTerms = t + count, flatTerms = t + 2 &* count
        let frameTerms = t + 3 &* count, sliceTerms = t + 4 &* count
        let powerBase = power.baseAddress!, logBase = log.baseAddress!, previousBase = previousLog.baseAddress!
        let lanes = Quad.scalarCount
        var bin = Quad(0, 1, 2, 3)
        let step = Quad(repeating: Float(lanes))
        var k = 0
        while k &+ lanes <= count {
            let p = load4(powerBase, k) * scale
            let pe = p + epsilon
            let l = fastPower(pe)
            store4(p, powerBase, k)
            store4(l, logBase, k)
            store4(rise(l - load4(previousBase, k)), rises, k)
            store4(bin * p, weightedTerms, k)
            store4(pe, flatTerms, k)
            bin += step
            k &+= lanes
        }
        while k < count {
            let p = power[k] * scale
            power[k] = p
            let pe = p + epsilon
            let l = Decibels.fastPower(pe)
            log[k] = l
            rises[k] = rise(l - previousLog[k])
            weightedTerms[k] = Float(k) * p
            flatTerms[k] = pe
            k += 1
        }
        // Sample j is bin j + 1's term; the slice's samples at full scale are counted here,
        // a count of whole numbers not depending on the order it is made in.
        squares(frame, into: frameTerms + 1)
        level.clipped &+= squares(windowSlice, into: sliceTerms + 1)
        cumulative[0] = 0

        // Then the sums, carried from one run of bins to the next (`add`).
        var bands = BandVector()
        var chains = Chains(flux: 0, weighted: 0, total: 0, logSum: 0, flatSum: 0, frameSquares: 0,
                            windowSquares: level.squares)
        let arrays = Arrays(power: UnsafePointer(power.baseAddress!), log: UnsafePointer(log.baseAddress!),
                            rises: rises, weighted: weightedTerms, flat: flatTerms, frame: frameTerms,
                            slice: sliceTerms, cumulative: cumulative.baseAddress!)
        // Where a sum over a part of the bins starts or stops: the flatness range's edges, the
        // frame's end, the slice's end.
        let flatLow = flatness.lowerBound, flatHigh = flatness.upperBound
        let frameStop = frame.count &+ 1, sliceStop = windowSlice.count &+ 1
        for b in 0..<Bands.count {
            var band: Float = 0
            let bins = layout.bins[b]
            // The band in runs that end where a sum starts or stops: within a run, which sums
            // a bin adds to is fixed, and the run's loop is one made for just those sums (no
            // test per bin).
            var k = bins.lowerBound
            while k < bins.upperBound {
                let flat = k >= flatLow && k < flatHigh
                let inFrame = k < frameStop, inSlice = k < sliceStop
                var end = bins.upperBound
                end = min(end, k < flatLow ? flatLow : flat ? flatHigh : end)
                if inFrame { end = min(end, frameStop) }
                if inSlice { end = min(end, sliceStop) }
                let run = k..<end
                switch (flat, inFrame, inSlice) {
                case (false, false, false): add(run, No.self, No.self, No.self, &band, &chains, arrays)
                case (false, false, true): add(run, No.self, No.self, Yes.self, &band, &chains, arrays)
                case (false, true, false): add(run, No.self, Yes.self, No.self, &band, &chains, arrays)
                case (false, true, true): add(run, No.self, Yes.self, Yes.self, &band, &chains, arrays)
                case (true, false, false): add(run, Yes.self, No.self, No.self, &band, &chains, arrays)
                case (true, false, true): add(run, Yes.self, No.self, Yes.self, &band, &chains, arrays)
                case (true, true, false): add(run, Yes.self, Yes.self, No.self, &band, &chains, arrays)
                case (true, true, true): add(run, Yes.self, Yes.self, Yes.self, &band, &chains, arrays)
                }
                k = end
            }
            bands[b] = band
        }
        level.squares = chains.windowSquares
        let (peak, peakPower) = strongest(UnsafeBufferPointer(power), in: tonal)
        return Sums(bands: bands, weighted: chains.weighted, total: chains.total, flux: chains.flux, logSum: chains.logSum,
                    flatSum: chains.flatSum, frameSquares: chains.frameSquares, peak: peak, peakPower: peakPower)
    }

    /// How many times the spectrum's length `run`'s `terms` must be: the rises of the log,
    /// k·P[k], P[k] + ε, and the squares of the frame's and of the slice's samples.
    static let termCount = 5

    /// Writes x² of each of `samples` to `out`, eight at a time, and returns how many of them
    /// are at full scale (|x| ≥ 0.999).
    @inline(__always) @discardableResult
    private static func squares(_ samples: UnsafeBufferPointer<Float>, into out: UnsafeMutablePointer<Float>) -> Int {
        guard let x = samples.baseAddress else { return 0 }
        let n = samples.count, lanes = Lanes.scalarCount
        var full = SIMD8<Int32>(repeating: 0)
        var j = 0
        while j &+ lanes <= n {
            let v = load(x, j)
            store(v * v, out, j)
            // |x| (the sign bit cleared) ≥ 0.999; a lane that is gives −1.
            let magnitude = unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: Lanes.self)
            full &-= unsafeBitCast(magnitude .>= 0.999, to: SIMD8<Int32>.self)
            j &+= lanes
        }
        var clipped = Int(full.wrappedSum())
        while j < n {
            let v = x[j]
            out[j] = v * v
            clipped &+= abs(v) >= 0.999 ? 1 : 0
            j &+= 1
        }
        return clipped
    }

    /// The sums of the bin pass, carried from one run of bins to the next.
    private struct Chains {
        var flux: Float, weighted: Float, total: Float, logSum: Float, flatSum: Float
        var frameSquares: Float, windowSquares: Float
    }

    /// What the runs read and write.
    private struct Arrays {
        let power: UnsafePointer<Float>, log: UnsafePointer<Float>
        /// Each bin's terms of the flux, the centroid's numerator, the flatness, the frame's
        /// energy and the window's level (`run`).
        let rises: UnsafeMutablePointer<Float>, weighted: UnsafeMutablePointer<Float>, flat: UnsafeMutablePointer<Float>
        let frame: UnsafeMutablePointer<Float>, slice: UnsafeMutablePointer<Float>
        let cumulative: UnsafeMutablePointer<Float>
    }

    /// Whether a run adds to a sum over a part of the bins, known when its loop is compiled.
    private protocol Part { static var adds: Bool { get } }
    private enum Yes: Part { static var adds: Bool { true } }
    private enum No: Part { static var adds: Bool { false } }

    /// Adds the bins `bins` to `band` and `chains`, each sum in the order of the bins: the
    /// sums over a part of the bins it adds to are its type parameters (flatness, the frame,
    /// the slice), so each of the runs' kinds is a loop of its own (`sum`).
    @inline(__always)
    private static func add<Flat: Part, InFrame: Part, InSlice: Part>(
        _ bins: Range<Int>, _ flat: Flat.Type, _ inFrame: InFrame.Type, _ inSlice: InSlice.Type,
        _ band: inout Float, _ chains: inout Chains, _ a: Arrays
    ) {
        sum(bins, flat, inFrame, inSlice, &band, &chains.flux, &chains.weighted, &chains.total, &chains.logSum,
            &chains.flatSum, &chains.frameSquares, &chains.windowSquares, a)
    }

    /// `add`'s loop. A function of its own, with the sums in locals: every chain stays in a
    /// register (through a struct, or shared by loops in one function, the compiler kept them
    /// in memory: a store and a load on every chain, every bin). The sums come and go one by
    /// one, each through a parameter of its own: handed a struct, whose sums it stores side by
    /// side, the compiler paired the chains into vectors (LLVM's SLP vectorizer, seeded by
    /// those stores) and gathered each bin's terms into them lane by lane: 23 instructions a
    /// bin in the run that added to every sum and searched the tonal peak, where 17 did.
    @inline(never)
    private static func sum<Flat: Part, InFrame: Part, InSlice: Part>(
        _ bins: Range<Int>, _: Flat.Type, _: InFrame.Type, _: InSlice.Type,
        _ band: inout Float, _ carriedFlux: inout Float, _ carriedWeighted: inout Float, _ carriedTotal: inout Float,
        _ carriedLogSum: inout Float, _ carriedFlatSum: inout Float, _ carriedFrame: inout Float, _ carriedWindow: inout Float,
        _ a: Arrays
    ) {
        var sum = band, flux = carriedFlux, weighted = carriedWeighted, total = carriedTotal
        var logSum = carriedLogSum, flatSum = carriedFlatSum
        var frameSquares = carriedFrame, windowSquares = carriedWindow
        let power = a.power, log = a.log, rises = a.rises, cumulative = a.cumulative
        var k = bins.lowerBound
        let end = bins.upperBound
        while k < end {
            let p = power[k]
            flux += rises[k]
            sum += p
            weighted += a.weighted[k]
            total += p
            cumulative[k] = total
            if Flat.adds {
                logSum += log[k]
                flatSum += a.flat[k]
            }
            if InFrame.adds { frameSquares += a.frame[k] }
            if InSlice.adds { windowSquares += a.slice[k] }
            k &+= 1
        }
        band = sum
        carriedFlux = flux
        carriedWeighted = weighted
        carriedTotal = total
        carriedLogSum = logSum
        carriedFlatSum = flatSum
        carriedFrame = frameSquares
        carriedWindow = windowSquares
    }

    /// The first bin of `bins` with the greatest power, and that power, as the scalar search
    /// (`TonalPeak.strongest(_:bins:…)`) finds them: (`bins.lowerBound`, −1) if no bin's
    /// power exceeds −1 (an empty range). The greatest power first, four lanes at a time (a
    /// maximum is exact whatever the order it is taken in, and a NaN, which the scalar search
    /// never takes, is never taken), then the first bin that holds it. One instruction or two
    /// a bin, where the search within the sums took four and split their runs at its edges.
    static func strongest(_ power: UnsafeBufferPointer<Float>, in bins: Range<Int>) -> (peak: Int, power: Float) {
        let base = power.baseAddress!, end = bins.upperBound, lanes = Quad.scalarCount
        var greatest = Quad(repeating: -1)
        var k = bins.lowerBound
        while k &+ lanes <= end {
            let p = load4(base, k)
            greatest = greatest.replacing(with: p, where: greatest .< p)
            k &+= lanes
        }
        var most = greatest.max()
        while k < end {
            if base[k] > most { most = base[k] }
            k &+= 1
        }
        guard most > -1 else { return (bins.lowerBound, -1) }
        k = bins.lowerBound
        while k &+ lanes <= end, !any(load4(base, k) .== Quad(repeating: most)) { k &+= lanes }
        while base[k] != most { k &+= 1 }
        return (k, base[k])
    }

    private typealias Lanes = SIMD8<Float>
    private typealias Quad = SIMD4<Float>

    @inline(__always) private static func load4(_ b: UnsafePointer<Float>, _ k: Int) -> Quad {
        UnsafeRawPointer(b + k).loadUnaligned(as: Quad.self)
    }

    @inline(__always) private static func store4(_ v: Quad, _ b: UnsafeMutablePointer<Float>, _ k: Int) {
        UnsafeMutableRawPointer(b + k).storeBytes(of: v, as: Quad.self)
    }

    @inline(__always) private static func load(_ b: UnsafePointer<Float>, _ k: Int) -> Lanes {
        UnsafeRawPointer(b + k).loadUnaligned(as: Lanes.self)
    }

    @inline(__always) private static func load(_ b: UnsafeMutablePointer<Float>, _ k: Int) -> Lanes {
        UnsafeRawPointer(b + k).loadUnaligned(as: Lanes.self)
    }

    @inline(__always) private static func store(_ v: Lanes, _ b: UnsafeMutablePointer<Float>, _ k: Int) {
        UnsafeMutableRawPointer(b + k).storeBytes(of: v, as: Lanes.self)
    }

    /// `Decibels.fastPower`, lane by lane.
    @inline(__always) private static func fastPower(_ p: Quad) -> Quad {
        let bits = unsafeBitCast(p, to: SIMD4<UInt32>.self)
        let exponent = Quad(unsafeBitCast((bits &>> 23) & 0xFF, to: SIMD4<Int32>.self) &- 127)
        let m = unsafeBitCast((bits & 0x007F_FFFF) | 0x3F80_0000, to: Quad.self)
        let log2m = ((0.15824871 * m - 1.05187502) * m + 3.04788335) * m - 2.15410939
        let db = 3.0102999566 * (exponent + log2m)
        return db.replacing(with: Decibels.silence, where: .!(p .>= Float.leastNormalMagnitude))
    }

    /// `rise`, lane by lane.
    @inline(__always) private static func rise(_ d: Quad) -> Quad {
        let bits = unsafeBitCast(d, to: SIMD4<Int32>.self)
        let negative = bits &>> 31
        return unsafeBitCast(bits & ~negative, to: Quad.self)
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
