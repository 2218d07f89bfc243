import RealModule

/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): a 64-bit state advanced by the golden-ratio constant and mixed. It is
/// tiny, fast and gives the same draws on every platform, so case N of seed S always has
/// the same parameters (and, with the same math library, the same samples).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A generator of its own for item `index` of a run seeded `seed`: items do not depend
    /// on one another, so case 17 is the same whether or not cases 0…16 were made.
    public init(seed: UInt64, stream: UInt64, index: Int) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        let base = mixer.next()
        self.init(seed: base ^ (UInt64(bitPattern: Int64(index)) &* 0x9E37_79B9_7F4A_7C15))
        _ = next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// Uniform in the logarithm of `range` (both bounds > 0): as many draws per octave
    /// anywhere in the range, as pitch is heard.
    public mutating func logUniform(_ range: ClosedRange<Double>) -> Double {
        exp(uniform(log(range.lowerBound)...log(range.upperBound)))
    }

    /// Uniform integer in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// One element of `items` (not empty).
    public mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }

    /// Standard normal (Box–Muller).
    public mutating func gaussian() -> Double {
        let u = max(unit(), 0x1.0p-53)
        return sqrt(-2 * log(u)) * cos(2 * Double.pi * unit())
    }

    /// `items` in a random order (Fisher–Yates).
    public mutating func shuffled<T>(_ items: [T]) -> [T] {
        var a = items
        if a.count > 1 {
            for i in stride(from: a.count - 1, to: 0, by: -1) { a.swapAt(i, Int(next() % UInt64(i + 1))) }
        }
        return a
    }
}

/// Deals `items` in shuffled rounds: item `index` of a run is from the round
/// `index / items.count`, each round a fresh permutation drawn from the seed. Every item
/// is dealt equally often, and any index is found without dealing the ones before it.
public func deal<T>(_ items: [T], index: Int, seed: UInt64, stream: UInt64) -> T {
    var rng = SplitMix64(seed: seed, stream: stream, index: index / items.count)
    return rng.shuffled(items)[index % items.count]
}
