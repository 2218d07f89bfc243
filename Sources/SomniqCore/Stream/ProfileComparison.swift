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
                              alarm: AlarmDetector.Span? = nil, home: ((EventStart) -> HomeMemory.Match?)? = nil) {
        for k in processors.indices {
            for output in processors[k].step(scores, frame: frame, classes: classes, levels: levels, alarm: alarm, home: home) { tally(output, k) }
        }
    }

    /// Closes what is open at the end of the stream.
    public mutating func finish() {
        for k in processors.indices {
            for output in processors[k].finish() { tally(output, k) }
        }
    }

    private mutating func tally(_ output: AlertOutput, _ k: Int) {
        switch output {
        case let .start(e):
            tallies[k][e.soundClass.index].count(e)
            if e.alert { alertsByTier[k][e.tier, default: 0] += 1 }
        case let .end(e):
            tallies[k][e.soundClass.index].count(e)
        }
    }
}
