/// The narrow spectral lines of one short frame between 400 Hz and 4.5 kHz, each judged
/// against the floor of its own neighbourhood: the in-band contrast of a sounder's tone.
///
/// A bin is a line when it is a local maximum of the log spectrum and stands `minimumDb` or
/// more over the mean log power of the bins within ±`neighbourhoodHz` of it (leaving out its
/// own main lobe). The measure is a ratio inside one narrow band, so it holds at any level,
/// from a sounder 60 dB down to one clipped at full scale, and over any background whose
/// spectrum is smooth across half a kilohertz (rain, wind, fans, traffic): the broadband
/// level never enters. The strongest `capacity` lines are kept, allocated once.
public struct ToneLines: Sendable {
    /// One line: its frequency (parabolic peak of the log spectrum), its level (dB, the
    /// frame's scale) and how far it stands over its neighbourhood (dB).
    public struct Line: Sendable, Equatable {
        public var hz: Float = 0
        public var levelDb: Float = 0
        public var contrastDb: Float = 0
    }

    /// Alarm sounders: 520 Hz low-frequency sounders (NFPA 72 §18.4.6.3; 520 Hz −10 % is
    /// 468 Hz) and piezo horns, which sit between about 2 and 4 kHz (UL 217 and EN 14604 allow
    /// any pitch that is loud enough). 400 Hz – 4.5 kHz holds both with room for a ±10 %
    /// spread of devices.
    public static let band: ClosedRange<Float> = 400...4500
    /// The neighbourhood a line is judged against: ±250 Hz, narrower than any sounder's
    /// harmonic spacing above 400 Hz, so a square wave's partials do not raise each other's floor.
    public static let neighbourhoodHz: Float = 250
    /// A 512-sample Hann frame zero-padded to the transform puts a pure tone's main lobe within
    /// ±2 bins of the frame's own resolution (31.25 Hz): ±62.5 Hz is left out of the floor.
    public static let mainLobeHz: Float = 62.5
    /// Lines weaker than this are not reported. In noise, a bin's power is exponentially
    /// distributed: it exceeds its neighbourhood's mean log power (2.5 dB under its mean) by
    /// 8 dB in 1 % of bins, by 12 dB in 0.01 %. Trackers ask more of a line that starts a beep.
    public static let minimumDb: Float = 8
    public static let capacity = 8

    public private(set) var lines: [Line]
    public private(set) var count = 0
    private let binHz: Float
    private let first: Int, last: Int
    private let reach: Int, lobe: Int
    /// Running sum of the log spectrum from bin `first - reach` on.
    private var prefix: [Float]

    /// `bins`: the spectrum's length (transform size / 2 + 1); `binHz`: its bin spacing.
    public init(bins: Int, binHz: Float) {
        self.binHz = binHz
        reach = Int((Self.neighbourhoodHz / binHz).rounded())
        lobe = Int((Self.mainLobeHz / binHz).rounded())
        first = max(reach + 1, Int((Self.band.lowerBound / binHz).rounded(.down)))
        last = min(bins - reach - 2, Int((Self.band.upperBound / binHz).rounded(.up)))
        prefix = [Float](repeating: 0, count: last - first + 2 * reach + 2)
        lines = [Line](repeating: Line(), count: Self.capacity)
    }

    /// A frame's lines given as they are, strongest first: for tests of what follows them.
    init(given: [Line]) {
        binHz = 15.625
        first = 0; last = 0; reach = 0; lobe = 0
        prefix = []
        lines = given.sorted { $0.contrastDb > $1.contrastDb } + [Line](repeating: Line(), count: max(0, Self.capacity - given.count))
        count = min(given.count, Self.capacity)
    }

    /// Finds the lines of one frame's log spectrum (10·log10 of power, any scale).
    public mutating func find(in log: UnsafeBufferPointer<Float>) {
        count = 0
        guard last > first else { return }
        precondition(log.count > last + reach, "a spectrum of \(log.count) bins is shorter than the lines' band and its neighbourhood")
        // The arrays are taken out of `self` for the pass, so that it reads and writes them
        // through pointers (no bounds or overflow checks per bin) while `count` changes.
        var prefix: [Float] = [], lines: [Line] = []
        swap(&prefix, &self.prefix)
        swap(&lines, &self.lines)
        let (first, last, reach, lobe, binHz) = (self.first, self.last, self.reach, self.lobe, self.binHz)
        let base = first - reach
        var count = 0
        prefix.withUnsafeMutableBufferPointer { p in
            lines.withUnsafeMutableBufferPointer { out in
                let sums = p.baseAddress!, spectrum = log.baseAddress!
                // The running sum from bin `base` on, added in bin order: sums[j] is Σ log[base ..< base + j].
                var sum: Float = 0
                sums[0] = 0
                for j in 1..<p.count {
                    sum += spectrum[base &+ j &- 1]
                    sums[j] = sum
                }
                let width = Float(2 * (reach - lobe))
                // Bin k, a local maximum of the log spectrum: a line if it stands out enough.
                func peak(_ k: Int) {
                    let v = spectrum[k]
                    // Σ log over [k - reach, k + reach] less [k - lobe, k + lobe]
                    let i = k &- base
                    let outer = sums[i &+ reach &+ 1] - sums[i &- reach]
                    let inner = sums[i &+ lobe &+ 1] - sums[i &- lobe]
                    let contrast = v - (outer - inner) / width
                    guard contrast >= Self.minimumDb else { return }
                    let a = spectrum[k &- 1], c = spectrum[k &+ 1]
                    let curve = a - 2 * v + c
                    let offset = curve < 0 ? 0.5 * (a - c) / curve : 0
                    Self.insert(Line(hz: (Float(k) + offset) * binHz, levelDb: v, contrastDb: contrast), into: out, count: &count)
                }
                // The local maxima, eight bins at a time (a third of the bins are), in bin order.
                var k = first
                while k &+ 8 <= last &+ 1 {
                    let v = UnsafeRawPointer(spectrum + k).loadUnaligned(as: SIMD8<Float>.self)
                    let below = UnsafeRawPointer(spectrum + (k &- 1)).loadUnaligned(as: SIMD8<Float>.self)
                    let above = UnsafeRawPointer(spectrum + (k &+ 1)).loadUnaligned(as: SIMD8<Float>.self)
                    let maxima = (v .> below) .& (v .>= above)
                    // Bit i for lane i, taken lowest first.
                    var lanes = SIMD8<UInt32>(repeating: 0).replacing(with: Self.laneBits, where: maxima).wrappedSum()
                    while lanes != 0 {
                        peak(k &+ lanes.trailingZeroBitCount)
                        lanes &= lanes &- 1
                    }
                    k &+= 8
                }
                while k <= last {
                    if spectrum[k] > spectrum[k &- 1] && spectrum[k] >= spectrum[k &+ 1] { peak(k) }
                    k &+= 1
                }
            }
        }
        swap(&prefix, &self.prefix)
        swap(&lines, &self.lines)
        self.count = count
        dropSideLobes()
    }

    private static let laneBits = SIMD8<UInt32>(1, 2, 4, 8, 16, 32, 64, 128)

    /// A Hann window's side lobes lie 31 dB under its main lobe, 2.5 bins away: a tone 50 dB
    /// over the floor shows lines beside it. A line within `sideLobeReach` of one
    /// `sideLobeDb` louder is dropped.
    static let sideLobeReach: Float = 0.06
    static let sideLobeDb: Float = 15

    private mutating func dropSideLobes() {
        var kept = 0
        for j in 0..<count {
            let line = lines[j]
            var side = false
            for i in 0..<count where i != j {
                if abs(lines[i].hz - line.hz) <= Self.sideLobeReach * line.hz && lines[i].levelDb >= line.levelDb + Self.sideLobeDb {
                    side = true
                    break
                }
            }
            if !side { lines[kept] = line; kept += 1 }
        }
        count = kept
    }

    /// Keeps the strongest lines, strongest first.
    private static func insert(_ line: Line, into lines: UnsafeMutableBufferPointer<Line>, count: inout Int) {
        var at = count
        while at > 0 && lines[at - 1].contrastDb < line.contrastDb { at -= 1 }
        guard at < Self.capacity else { return }
        var k = min(count, Self.capacity - 1)
        while k > at { lines[k] = lines[k - 1]; k -= 1 }
        lines[at] = line
        count = min(count + 1, Self.capacity)
    }
}
