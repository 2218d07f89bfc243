/// Reads the numbers of `rules/learned.txt` from its bytes to the bits the C library's
/// `strtod` and `strtof` (correctly rounded) give, at a small part of their cost: tens of
/// thousands of them are read at every start.
///
/// A plain word (`[sign] digits [. digits] [e [sign] digits]`, at most 19 significant
/// digits, a power of ten within ±22) is its digits as an integer, converted to a Double,
/// times or over an exact power of ten. With at most 2⁵³ as the integer that is one
/// correctly rounded operation, so the Double is `strtod`'s (Clinger, "How to read floating
/// point numbers accurately", 1990); past 2⁵³ it is within 2 units in the last place. A
/// Float is the Double rounded once more, which is `strtof`'s own wherever no point where
/// Float rounding turns (a midpoint between two Floats) lies within the Double's error.
/// A split's threshold whose Double lies near a Float (the trainer's thresholds often are
/// a Float's value written out) is decided exactly: the word's integer and power of ten
/// against the point where `strtod`'s rounding turns, in 128-bit integers.
/// Anything else (more digits, a far exponent, `inf`, hex, a word near a turning point) is
/// left to the caller, who asks the C library: the answer is the same bits either way.
enum DecimalReader {
    /// A plain word: `digits × 10^scale`, negated when `negative`; `value` the Double of it,
    /// `strtod`'s exactly when `exact` (and within 2 units in the last place otherwise).
    struct Word {
        var value: Double
        var exact: Bool
        var digits: UInt64
        var scale: Int
        var negative: Bool
    }

    /// The word's value as a Double, and whether that is `strtod`'s exactly (or within
    /// 2 units in the last place); nil when the word is not a plain one.
    static func approximate(_ w: UnsafeBufferPointer<UInt8>) -> Word? {
        let n = w.count
        guard n < 64 else { return nil }          // as long as the C library is given
        var i = 0
        var negative = false
        if n > 0, w[0] == UInt8(ascii: "-") || w[0] == UInt8(ascii: "+") { negative = w[0] == UInt8(ascii: "-"); i = 1 }
        // Every digit into `m`, a leading zero adding nothing; `scale` counts the fraction's.
        var m: UInt64 = 0, scale = 0
        let first = i
        digitRun(w, &i, &m)
        var digits = i &- first
        if i < n, w[i] == UInt8(ascii: ".") {
            i &+= 1
            let fraction = i
            digitRun(w, &i, &m)
            scale = fraction &- i
            digits &+= i &- fraction
        }
        guard digits > 0 else { return nil }
        if digits > 19 {
            // More than 19 digits overflow `m` unless the ones past 19 are leading zeros.
            var zeros = 0
            for k in first..<i where w[k] != UInt8(ascii: ".") {
                guard w[k] == UInt8(ascii: "0") else { break }
                zeros += 1
            }
            guard digits - zeros <= 19 else { return nil }
        }
        if i < n, w[i] == UInt8(ascii: "e") || w[i] == UInt8(ascii: "E") {
            i += 1
            var below = false
            if i < n, w[i] == UInt8(ascii: "-") || w[i] == UInt8(ascii: "+") { below = w[i] == UInt8(ascii: "-"); i += 1 }
            var e = 0, eDigits = 0
            while i < n, w[i] &- UInt8(ascii: "0") < 10 {
                guard eDigits < 4 else { return nil }
                e = e * 10 + Int(w[i] &- UInt8(ascii: "0"))
                eDigits += 1
                i += 1
            }
            guard eDigits > 0 else { return nil }
            scale += below ? -e : e
        }
        guard i == n else { return nil }
        if m == 0 { return Word(value: negative ? -0.0 : 0.0, exact: true, digits: 0, scale: 0, negative: negative) }
        guard scale >= -22, scale <= 22 else { return nil }
        let x = Double(m)
        let magnitude = scale < 0 ? x / powersOfTen[-scale] : x * powersOfTen[scale]
        return Word(value: negative ? -magnitude : magnitude, exact: m <= 1 << 53, digits: m, scale: scale, negative: negative)
    }

    /// The digits from `i` on into `m` (`m·10 + digit` each, wrapping as before), eight at a
    /// time where eight are there: one load, a check that all are digits, three multiplies.
    @inline(__always)
    private static func digitRun(_ w: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ m: inout UInt64) {
        let n = w.count
        while n &- i >= 8 {
            let v = UnsafeRawPointer(w.baseAddress! + i).loadUnaligned(as: UInt64.self).littleEndian
            // Every byte 0x30…0x39: its high nibble 3, and adding 6 does not carry out of it.
            guard v & 0xF0F0_F0F0_F0F0_F0F0 == 0x3030_3030_3030_3030,
                  (v &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0 == 0x3030_3030_3030_3030 else { break }
            var x = v & 0x0F0F_0F0F_0F0F_0F0F
            x = (x &* 2561) >> 8
            x = ((x & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
            x = ((x & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
            m = m &* 100_000_000 &+ x
            i &+= 8
        }
        while i < n, w[i] &- UInt8(ascii: "0") < 10 {
            m = m &* 10 &+ UInt64(w[i] &- UInt8(ascii: "0"))
            i &+= 1
        }
    }

    /// `strtod`'s value of the word, when the fast path is sure of it.
    static func double(_ w: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let a = approximate(w), a.exact else { return nil }
        return a.value
    }

    /// `strtof`'s value of the word, when the fast path is sure of it.
    static func float(_ w: UnsafeBufferPointer<UInt8>) -> Float? {
        guard let a = approximate(w) else { return nil }
        guard a.value != 0 else { return Float(a.value) }
        guard inFloatRange(a.value) else { return nil }
        // The Double's bits below a Float's last place: a midpoint between two Floats is
        // 1 followed by 28 zeros. Near one, the rounding could turn either way.
        let low = a.value.bitPattern & 0x1FFF_FFFF
        guard low < 0x1000_0000 - margin || low > 0x1000_0000 + margin else { return nil }
        return Float(a.value)
    }

    /// The largest Float at or below `strtod`'s value of the word, when the fast path is
    /// sure of it.
    static func floatAtOrBelow(_ w: UnsafeBufferPointer<UInt8>) -> Float? {
        guard let a = approximate(w) else { return nil }
        if !a.exact {
            // Near a Float itself (its bits below a Float's last place near 0 or 2²⁹), the
            // Double's error could put it on either side: the word decides.
            guard inFloatRange(a.value) else { return nil }
            let low = a.value.bitPattern & 0x1FFF_FFFF
            guard low > margin, low < 0x2000_0000 - margin else { return atOrBelowNearFloat(a) }
        }
        return atOrBelow(a.value)
    }

    /// `atOrBelow(strtod(word))` for a word whose Double lies within a few units of a Float
    /// `f`: `strtod` gives `f` or more exactly when the word is at or past the midpoint
    /// between `f` and the Double beside it (a tie goes to `f`, whose last bit is even), so
    /// the answer is `f` or the Float below it. For a negative word the same, mirrored: the
    /// answer is `f` when the word's magnitude is at or below the midpoint above `f`'s. Nil
    /// when the integers would not fit in 128 bits.
    private static func atOrBelowNearFloat(_ a: Word) -> Float? {
        let f = Float(a.value)
        let magnitude = Double(f.magnitude)
        let significand = magnitude.significandBitPattern | 1 << 52
        let exponent = Int(magnitude.exponent) - 52
        // The midpoint as `n · 2^q`: below `f`'s magnitude for a positive word, above it for
        // a negative one. The gap below a power of two is half the gap above it.
        let n: UInt64, q: Int
        if a.negative {
            (n, q) = (2 * significand + 1, exponent - 1)
        } else if significand == 1 << 52 {
            (n, q) = (4 * significand - 1, exponent - 2)
        } else {
            (n, q) = (2 * significand - 1, exponent - 1)
        }
        guard let order = compare(a.digits, a.scale, n, q) else { return nil }
        let keeps = a.negative ? order <= 0 : order >= 0
        return keeps ? f : f.nextDown
    }

    /// The sign of `m·10^s − n·2^q` (−1, 0, 1), with `|s| ≤ 22`; nil when a side needs more
    /// than 128 bits.
    private static func compare(_ m: UInt64, _ s: Int, _ n: UInt64, _ q: Int) -> Int? {
        // 10^s = 5^s · 2^s: the powers of five go to the side they multiply, the powers of
        // two to the left as a shift.
        let (left, right) = s >= 0 ? (Wide(m).times(powersOfFive[s]), Wide(n)) : (Wide(m), Wide(n).times(powersOfFive[-s]))
        let shift = s - q
        // `left · 2^shift` against `right`, or `left` against `right · 2^-shift`.
        if shift >= 0 {
            guard let l = left.shifted(shift) else { return 1 }
            return l.order(right)
        }
        guard let r = right.shifted(-shift) else { return -1 }
        return left.order(r)
    }

    /// An unsigned 128-bit integer: what `compare` needs of one.
    private struct Wide {
        var high: UInt64, low: UInt64
        init(_ x: UInt64) { (high, low) = (0, x) }
        init(high: UInt64, low: UInt64) { (self.high, self.low) = (high, low) }

        /// Times a number below 2⁶⁴, the product of `self` below 2⁶⁴.
        func times(_ k: UInt64) -> Wide {
            let p = low.multipliedFullWidth(by: k)
            return Wide(high: p.high, low: p.low)
        }

        /// Times 2^k; nil when the result would not fit.
        func shifted(_ k: Int) -> Wide? {
            if high == 0 && low == 0 { return self }
            let bits = high != 0 ? 128 - high.leadingZeroBitCount : 64 - low.leadingZeroBitCount
            guard bits + k <= 128 else { return nil }
            if k == 0 { return self }
            if k >= 64 { return Wide(high: low << (k - 64), low: 0) }
            return Wide(high: high << k | low >> (64 - k), low: low << k)
        }

        func order(_ o: Wide) -> Int {
            if high != o.high { return high < o.high ? -1 : 1 }
            if low != o.low { return low < o.low ? -1 : 1 }
            return 0
        }
    }

    /// The largest Float at or below `x`.
    static func atOrBelow(_ x: Double) -> Float {
        var below = Float(x)
        if Double(below) > x { below = below.nextDown }
        return below
    }

    /// Units in the Double's last place kept clear of a turning point: its error is at most 2.
    private static let margin: UInt64 = 16

    private static func inFloatRange(_ x: Double) -> Bool {
        let magnitude = abs(x)
        return magnitude >= Double(Float.leastNormalMagnitude) && magnitude <= 0x1p100
    }

    /// 5⁰ … 5²².
    private static let powersOfFive: [UInt64] = (0...22).map { k in (0..<k).reduce(1) { p, _ in p * 5 } }

    /// 10⁰ … 10²², each exact in a Double.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
