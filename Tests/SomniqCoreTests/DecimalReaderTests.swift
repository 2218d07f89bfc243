import Glibc
import Testing
@testable import SomniqCore

/// What the C library reads a word as: `strtod`, `strtof`, and the largest Float at or below
/// `strtod`'s value (a split's threshold); nil where it does not read the whole word.
private func library(_ word: String) -> (double: Double, float: Float, below: Float)? {
    word.withCString { c -> (Double, Float, Float)? in
        var end: UnsafeMutablePointer<CChar>?
        let d = strtod(c, &end)
        guard end == UnsafeMutablePointer(mutating: c + word.utf8.count) else { return nil }
        let f = strtof(c, &end)
        return (d, f, DecimalReader.atOrBelow(d))
    }
}

/// `x` as C's `printf` writes it with `format` (one conversion of a double).
private func printed(_ format: String, _ x: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    _ = withVaList([x]) { vsnprintf(&buffer, buffer.count, format, $0) }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

private func fast(_ word: String) -> (double: Double?, float: Float?, below: Float?) {
    Array(word.utf8).withUnsafeBufferPointer {
        (DecimalReader.double($0), DecimalReader.float($0), DecimalReader.floatAtOrBelow($0))
    }
}

/// Every answer the fast path gives is the C library's, to the bit.
private func expectSameBits(_ word: String) {
    let (d, f, below) = fast(word)
    guard let c = library(word) else {
        #expect(d == nil && f == nil && below == nil, "\(word)")
        return
    }
    if let d { #expect(d.bitPattern == c.double.bitPattern, "\(word)") }
    if let f { #expect(f.bitPattern == c.float.bitPattern, "\(word)") }
    if let below { #expect(below.bitPattern == c.below.bitPattern, "\(word)") }
}

@Test func theNumbersOfTheLearnedRulesAreReadToTheCLibrarysBits() {
    // As the trainer writes them: Python's shortest form of a double, and of a float32.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return state
    }
    var read = 0
    for _ in 0..<50_000 {
        let scale = Double(Int(next() % 12)) - 6
        let x = (Double(next() >> 11) / Double(1 << 53) - 0.5) * pow(10, scale)
        for word in ["\(x)", "\(Float(x))", printed("%.17g", x), printed("%.9g", x)] {
            expectSameBits(word)
            if fast(word).float != nil { read += 1 }
        }
    }
    #expect(read > 175_000)                  // the fast path reads nearly all of them
}

@Test func wordsNearWhereRoundingTurnsAndWordsOfOtherFormsAreLeftToTheCLibrary() {
    // Midpoints between two Floats and Floats themselves, written exactly and then just off.
    for f: Float in [0.1, 1, 1.5, 3.3e-5, 16_777_216, 0.70710677] {
        let mid = (Double(f) + Double(f.nextUp)) / 2
        for word in [printed("%.25g", mid), printed("%.17g", mid), printed("%.17g", mid.nextUp),
                     printed("%.17g", mid.nextDown), printed("%.17g", Double(f)),
                     printed("%.17g", Double(f).nextDown), "\(f)"] {
            expectSameBits(word)
        }
    }
    for word in ["1", "-0", "+2.5", ".5", "5.", "1e22", "1e23", "1e-22", "1e-23", "12345678901234567890", "0.00000000000000000000000000001",
                 "1.0e+5", "7E-3", "inf", "nan", "0x1p3", "-", ".", "e5", "1e", "1e+", "1.2.3", "1 ", "--1", "1e99999",
                 String(repeating: "0", count: 70) + "1", "9007199254740993", "9007199254740992.5"] {
        expectSameBits(word)
    }
}

@Test func aThresholdWrittenNearAFloatIsDecidedWithoutTheCLibrary() {
    // The trainer's thresholds are often a Float's value written as a double: the fast path
    // decides those exactly (the word against where strtod's rounding turns), to the C
    // library's bits, on both sides of the Float and for either sign.
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next() -> UInt64 {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return state
    }
    var decided = 0, words = 0
    for k in 0..<20_000 {
        // 2e-4 to 1e5 (and the power of two below): as far as a word of 19 digits keeps its
        // power of ten within ±22.
        let magnitude = Float((2 + 8 * Double(next() >> 11) / Double(1 << 53)) * pow(10, Double(Int(next() % 9)) - 4))
        let f = k % 2 == 0 ? magnitude : -magnitude
        guard f.isNormal else { continue }
        // Powers of two, where the gap below is half the gap above, now and then.
        let g = k % 7 == 0 ? Float(sign: f.sign, exponent: f.exponent, significand: 1) : f
        let d = Double(g)
        for x in [d, d.nextUp, d.nextDown, d.nextUp.nextUp, d.nextDown.nextDown] {
            for word in [printed("%.17g", x), "\(x)", printed("%.18g", x), printed("%.19g", x)] {
                expectSameBits(word)
                words += 1
                if fast(word).below != nil { decided += 1 }
            }
        }
    }
    #expect(decided == words)                // every one of them, none left to the C library
}

@Test func everyNumberOfTheBuiltInRulesIsReadToTheCLibrarysBits() {
    // The thresholds, node values and network weights somniq reads at every start.
    var words = 0
    for line in LearnedRules.builtinText.split(separator: "\n") {
        let w = line.split(separator: " ").map(String.init)
        guard let head = w.first else { continue }
        let numbers: ArraySlice<String> = switch head {
        case "s": w.dropFirst(2)
        case "l", "head": w.dropFirst()
        case "conv": w.dropFirst(6)
        default: []
        }
        for word in numbers { expectSameBits(word); words += 1 }
    }
    #expect(words > 35_000)
}
