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
/// Anything else (more digits, a far exponent, `inf`, hex, a word near a turning point) is
/// left to the caller, who asks the C library: the answer is the same bits either way.
enum DecimalReader {
    /// The word's value as a Double, and whether that is `strtod`'s exactly (or within
    /// 2 units in the last place); nil when the word is not a plain one.
    static func approximate(_ w: UnsafeBufferPointer<UInt8>) -> (value: Double, exact: Bool)? {
        let n = w.count
        guard n < 64 else { return nil }          // as long as the C library is given
        var i = 0
        var negative = false
        if n > 0, w[0] == UInt8(ascii: "-") || w[0] == UInt8(ascii: "+") { negative = w[0] == UInt8(ascii: "-"); i = 1 }
        // Every digit into `m`, a leading zero adding nothing; `scale` counts the fraction's.
        var m: UInt64 = 0, scale = 0
        let first = i
        while i < n, w[i] &- UInt8(ascii: "0") < 10 {
            m = m &* 10 &+ UInt64(w[i] &- UInt8(ascii: "0"))
            i &+= 1
        }
        var digits = i &- first
        if i < n, w[i] == UInt8(ascii: ".") {
            i &+= 1
            let fraction = i
            while i < n, w[i] &- UInt8(ascii: "0") < 10 {
                m = m &* 10 &+ UInt64(w[i] &- UInt8(ascii: "0"))
                i &+= 1
            }
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
        if m == 0 { return (negative ? -0.0 : 0.0, true) }
        guard scale >= -22, scale <= 22 else { return nil }
        let x = Double(m)
        let magnitude = scale < 0 ? x / powersOfTen[-scale] : x * powersOfTen[scale]
        return (negative ? -magnitude : magnitude, m <= 1 << 53)
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
            // Double's error could put it on either side.
            guard inFloatRange(a.value) else { return nil }
            let low = a.value.bitPattern & 0x1FFF_FFFF
            guard low > margin, low < 0x2000_0000 - margin else { return nil }
        }
        return atOrBelow(a.value)
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

    /// 10⁰ … 10²², each exact in a Double.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
