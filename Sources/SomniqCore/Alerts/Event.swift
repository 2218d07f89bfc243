/// Why a decision was taken, carried by every event (docs/behaviour.md#alert-semantics).
public struct DecisionTrace: Equatable, Sendable {
    public var rule: AlertRule
    public var peakSmoothed: Double
    public var peakRaw: Double
    public var levelDbfs: Double
    public var floorDbfs: Double
    public var profileName: String
    public var profileSHA256: String
    /// Where a learned rule decided the class: the inputs that weighed most in the window
    /// the event was confirmed on, heaviest first.
    public var weights: [LearnedRules.Weight] = []
    /// When the event was confirmed (stream seconds): the time of the frame its alert was
    /// raised on. Its onset may lie well before (a smoke alarm opens at its first beep and
    /// is confirmed by its pattern, seconds later): the difference is the confirmation's
    /// latency.
    public var confirmed: Double?
    /// Where this home's memory (`HomeMemory`) found the event like one marked "not this".
    public var home: HomeMemory.Match?
    /// Where this home's fit (`HomeFit`) decided the event's class: its scores were the
    /// shipped ones shifted by what the home marked.
    public var fit: HomeFit.Decided?
}

/// An event confirmed by the alert processor (written as `event_start`).
public struct EventStart: Equatable, Sendable {
    public var id: String
    public var soundClass: SoundClass
    public var tier: Tier
    public var onset: Double
    /// The highest smoothed score up to confirmation: the figure the rule's `on` (window
    /// mean: `threshold`) was compared with, in [0, 1].
    public var confidence: Double
    /// False when the event was suppressed; it is logged all the same.
    public var alert: Bool
    /// Why its alert was held back; nil when it alerted.
    public var suppressed: Suppression?
    public var trace: DecisionTrace
}

/// Why an event was logged without an alert (its `suppressed`, in the log as in the reports).
public enum Suppression: String, Sendable, CaseIterable {
    /// Held back by the class's cooldown.
    case cooldown
    /// Held back by this home's memory (`HomeMemory`; the trace's `home` says why).
    case home
    /// The profile logs the class without alerting it (`"alert": false`).
    case profile
}

/// The end of an event (written as `event_end`).
public struct EventEnd: Equatable, Sendable {
    public var id: String
    public var soundClass: SoundClass
    public var onset: Double
    public var offset: Double
    /// Loudest window level while the event was open.
    public var peakDbfs: Double
    /// The highest smoothed score over the whole event: the figure the rule's `on` (window
    /// mean: `threshold`) is compared with, in [0, 1].
    public var confidence: Double
    /// True when the stream ended (or the daemon stopped) with the event still open.
    public var truncated: Bool
}

/// What the alert processor asks the sinks to record.
public enum AlertOutput: Equatable, Sendable {
    case start(EventStart)
    case end(EventEnd)
}
