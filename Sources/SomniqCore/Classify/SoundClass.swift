/// How much a class matters to the person who is woken by it (docs/behaviour.md#classes-and-tiers).
public enum Tier: String, CaseIterable, Sendable, Comparable {
    case critical, high, medium, low

    public static func < (a: Tier, b: Tier) -> Bool { a.rank < b.rank }
    private var rank: Int {
        switch self { case .critical: 0; case .high: 1; case .medium: 2; case .low: 3 }
    }
}

/// The sounds somniq recognises. Raw values are the stable identifiers used in
/// profiles, logs and label files.
public enum SoundClass: String, CaseIterable, Sendable, Comparable {
    case smokeAlarm = "smoke_alarm"
    case glassBreak = "glass_break"
    case scream
    case gasp
    case snoring
    case cough
    case babyCry = "baby_cry"
    case dogBark = "dog_bark"
    case thunder
    case speech
    case laughter
    case door
    case phoneRing = "phone_ring"
    case music
    case breathing
    /// Derived: a regular snore train stops for ≥ 10 s and ends with a gasp or a louder snore.
    case breathingPause = "breathing_pause"
    /// Derived: a smoke alarm's low-battery chirp, one short beep alone about once a minute
    /// (`ChirpTrain`).
    case lowBattery = "low_battery"

    /// The tier a class has unless a profile moves it.
    public var defaultTier: Tier { descriptor.tier }

    /// Position in `allCases`, used to index per-class arrays (a switch: no hashing).
    public var index: Int {
        switch self {
        case .smokeAlarm: 0
        case .glassBreak: 1
        case .scream: 2
        case .gasp: 3
        case .snoring: 4
        case .cough: 5
        case .babyCry: 6
        case .dogBark: 7
        case .thunder: 8
        case .speech: 9
        case .laughter: 10
        case .door: 11
        case .phoneRing: 12
        case .music: 13
        case .breathing: 14
        case .breathingPause: 15
        case .lowBattery: 16
        }
    }

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
