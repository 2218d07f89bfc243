/// A class's share of a session: events, alerts, and seconds its events lasted.
public struct ClassTally: Sendable, Equatable {
    public var events = 0, alerts = 0
    public var seconds = 0.0
    public init() {}

    /// Counts a confirmed event, and its alert unless it was held back.
    public mutating func count(_ e: EventStart) {
        events += 1
        if e.alert { alerts += 1 }
    }

    /// Adds the length of an event that ended.
    public mutating func count(_ e: EventEnd) { seconds += e.offset - e.onset }
}
