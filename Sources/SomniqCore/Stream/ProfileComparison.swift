/// Several profiles judging one stream: the classifier's scores of each frame go to one
/// `AlertProcessor` per profile, so a recording is decoded and classified once however
/// many profiles are compared (`somniq compare`). What each would have logged and alerted
/// is tallied per class, as a session's end tallies it.
public struct ProfileComparison: Sendable {
    public let profiles: [Profile]
    private var processors: [AlertProcessor]
    /// Per profile, per class (by `SoundClass.index`).
    public private(set) var tallies: [[ClassTally]]
    /// Per profile, alerts by tier (alerted events only, as sinks would receive them).
    public private(set) var alertsByTier: [[Tier: Int]]

    public init(profiles: [Profile]) {
        self.profiles = profiles
        processors = profiles.map { AlertProcessor(profile: $0) }
        tallies = profiles.map { _ in Array(repeating: ClassTally(), count: SoundClass.allCases.count) }
        alertsByTier = profiles.map { _ in [:] }
    }

    /// The same call `Pipeline` makes to its own alert processor, for every profile.
    public mutating func step(_ scores: ClassScores, frame: Int, classes: [SoundClass], levels: AlertProcessor.Levels,
                              alarm: AlarmDetector.Span? = nil) {
        var counts = take()
        for k in processors.indices {
            processors[k].step(scores, frame: frame, classes: classes, levels: levels, alarm: alarm) { Self.tally($0, &counts, k) }
        }
        put(counts)
    }

    /// Closes what is open at the end of the stream.
    public mutating func finish() {
        var counts = take()
        for k in processors.indices { processors[k].finish { Self.tally($0, &counts, k) } }
        put(counts)
    }

    // The tallies are moved out while the processors run (the processors' emit closures
    // may not reach `self`); moving, not copying, keeps a frame free of allocation.
    private typealias Counts = (classes: [[ClassTally]], tiers: [[Tier: Int]])
    private mutating func take() -> Counts {
        defer { tallies = []; alertsByTier = [] }
        return (tallies, alertsByTier)
    }
    private mutating func put(_ counts: Counts) { (tallies, alertsByTier) = counts }

    private static func tally(_ output: AlertOutput, _ counts: inout Counts, _ k: Int) {
        switch output {
        case let .start(e):
            counts.classes[k][e.soundClass.index].count(e)
            if e.alert { counts.tiers[k][e.tier, default: 0] += 1 }
        case let .end(e):
            counts.classes[k][e.soundClass.index].count(e)
        }
    }
}
