/// A class's own say in where its events begin and end: the generic alert processor asks
/// the hook a class's descriptor names (`SoundClass.Descriptor.hook`, the `hook` field of
/// classes/classes.tsv) at each event of the class it opens and closes. A class with none
/// takes its events' bounds from its state machine.
public protocol AlertHook: Sendable {
    /// Where an event begins that the class's machine opens at `onset`. `alarm`: the latest
    /// alarm the detector found, as the processor was given it (`AlertProcessor.step`).
    mutating func onset(_ onset: Double, alarm: AlarmDetector.Span?) -> Double
    /// Where an event from `onset` ends that the class's machine closes at `offset`;
    /// `streamEnded`: closed because the stream ended (`AlertProcessor.finish`).
    mutating func offset(_ offset: Double, onset: Double, alarm: AlarmDetector.Span?, streamEnded: Bool) -> Double
}

extension SoundClass {
    /// The hooks a descriptor may name (classes/classes.tsv's `hook`: the case's name).
    public enum AlertHookKind: String, Sendable, Equatable {
        /// `AlarmSpan`: the smoke alarm's events span what the alarm detector heard.
        case alarmSpan

        /// A hook of this kind, as a new processor starts it.
        func make() -> any AlertHook {
            switch self {
            case .alarmSpan: AlarmSpan()
            }
        }
    }
}

/// A smoke alarm's event spans what the alarm detector heard (docs/behaviour.md#alert-semantics:
/// an onset is where the sound began, not when it was confirmed). The detector finds an alarm
/// by its pattern, seconds after its first beep (a T3 at its fourth); the event is alerted
/// then, as its score rises, but opens at the first beep and ends at the last.
struct AlarmSpan: AlertHook {
    /// Where the last event ended: an alarm span that began before it is that event's, and
    /// opens no other event at its first beep.
    private var ended = -Double.infinity

    /// The alarm's first beep, when the alarm began before the machine's onset, after the last
    /// event ended, and sounded within the longest a pattern takes to be confirmed.
    func onset(_ onset: Double, alarm: AlarmDetector.Span?) -> Double {
        guard let a = alarm, a.from < onset, a.from > ended, a.to >= onset - AlarmDetector.longestConfirmation else { return onset }
        return a.from
    }

    /// The alarm's last beep heard, if it came after the event's onset and before the
    /// machine's offset: the event is over once the pattern has been silent for its longest
    /// pause, and it ended with its last beep.
    mutating func offset(_ offset: Double, onset: Double, alarm: AlarmDetector.Span?, streamEnded: Bool) -> Double {
        var offset = offset
        if let a = alarm, a.lastHeard >= onset, a.lastHeard < offset { offset = a.lastHeard }
        if !streamEnded { ended = offset }
        return offset
    }
}
