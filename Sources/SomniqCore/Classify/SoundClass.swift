/// How much a class matters to the person who is woken by it (docs/behaviour.md#classes-and-tiers).
public enum Tier: String, CaseIterable, Sendable, Comparable {
    case critical, high, medium, low

    public static func < (a: Tier, b: Tier) -> Bool { a.rank < b.rank }
    private var rank: Int {
        switch self { case .critical: 0; case .high: 1; case .medium: 2; case .low: 3 }
    }
}

/// The sounds somniq recognises. The enum itself, its cases, `index` and `descriptor`, is
/// made at build time from classes/classes.tsv, the one list of the classes
/// (scripts/embed-classes.sh, run by Plugins/EmbedData).
extension SoundClass: Comparable {
    /// The tier a class has unless a profile moves it.
    public var defaultTier: Tier { descriptor.tier }

    public static func < (a: SoundClass, b: SoundClass) -> Bool { a.index < b.index }
}

/// One score in [0, 1] per class, indexed by `SoundClass.index`.
public struct ClassScores: Sendable, Equatable {
    public var values: [Float]
    public init() { values = [Float](repeating: 0, count: SoundClass.allCases.count) }
    public subscript(c: SoundClass) -> Float {
        get { values[c.index] }
        set { values[c.index] = min(1, max(0, newValue)) }
    }
    public mutating func reset() { for i in values.indices { values[i] = 0 } }
}
