import SomniqCore

/// A case pushed through somniq's pipeline, as `somniq replay` pushes a file, and judged.
///
/// The rules (`AlarmCheck` for the alarms): an alarm is found when a `smoke_alarm` event is
/// raised within 4 s of its labelled onset (or before it ends): its score rose by then, its
/// alert comes the profile's debounce later; a T4 alarm is allowed until its second group
/// has begun sounding, onset + group period + 0.5 s. "One event each": exactly one
/// `smoke_alarm` event overlaps the label. A look-alike fails when it raises any
/// `smoke_alarm` event at all; a smoke alarm's low-battery chirp fails too when it is not
/// logged as what it is, a `low_battery` event. Where the event says the alarm began (its
/// onset, the first beep the detector heard) is judged apart: `onsetError`.
public struct CaseRun: Sendable {
    public var name: String
    public var index: Int
    public var seed: UInt64
    public var isAlarm: Bool
    public var isRequired: Bool
    public var family: String
    public var background: String
    public var inBandSnrDb: Double
    public var peakDbfs: Double
    public var clipped: Bool
    public var edgeDraws: Int
    public var parameters: String
    public var seconds: Double
    public var labels: [(onset: Double, offset: Double)]
    /// The smoke_alarm events the pipeline raised (onset, offset), in order.
    public var events: [(onset: Double, offset: Double)]
    /// The onsets of the low_battery events the pipeline opened, in order.
    public var lowBattery: [Double] = []
    /// When each of them was raised: its score rose to the profile's `on` (its trace's
    /// `confirmed_s` less the debounce), in order.
    public var raised: [Double]
    /// Seconds from the labelled onset to the raising of the event that found it; nil: missed.
    public var latency: Double?
    /// Seconds from the labelled onset to the onset of the event that found it.
    public var onsetError: Double?
    /// Latest onset that counts as found, seconds from the labelled onset.
    public var allowed: Double
    /// smoke_alarm events overlapping the label.
    public var overlapping: Int
    /// smoke_alarm events overlapping no label (in an alarm case: before or after it).
    public var stray: Int

    public var found: Bool { latency != nil }
    /// Found, and as one event.
    public var foundOnce: Bool { found && overlapping == 1 }
    /// The look-alikes' family that is a smoke alarm's low-battery chirp: it must be logged
    /// as `low_battery`.
    public static let chirpFamily = "low-battery-chirp"
    /// Whether this is a low-battery chirp's case.
    public var isChirp: Bool { !isAlarm && family == Self.chirpFamily }
    /// What the battery requires of this case held.
    public var passed: Bool { isAlarm ? (!isRequired || foundOnce) : events.isEmpty && (!isChirp || !lowBattery.isEmpty) }

    /// Samples handed to the pipeline per push, as the file reader's blocks.
    public static let block = 8192
    /// Smoke alarm events whose alert this home's memory held back (`"suppressed": "home"`):
    /// none, ever (docs/home.md).
    public var heldBack = 0

    /// T4: the detector has until this long after its second group starts.
    public static let t4Grace = 0.5

    /// Runs `item` through a fresh `Pipeline` with `transform` and `profile` (and this
    /// home's memory, `home`, when given).
    public init(_ item: BatteryCase, transform: SpectrumTransform, profile: Profile, home: HomeMemory? = nil) throws {
        let pipeline = try Pipeline(transform: transform, profile: profile, home: home)
        var found: [(onset: Double, offset: Double)] = []
        var raised: [Double] = []
        var lowBattery: [Double] = []
        var opened = 0, heldBack = 0
        func collect(_ outputs: [PipelineOutput]) {
            for o in outputs {
                switch o {
                case let .start(e) where e.soundClass == .smokeAlarm:
                    opened += 1
                    if e.suppressed == .home { heldBack += 1 }
                    raised.append((e.trace.confirmed ?? e.onset) - e.trace.rule.debounce)
                case let .end(e) where e.soundClass == .smokeAlarm: found.append((e.onset, e.offset))
                case let .start(e) where e.soundClass == .lowBattery: lowBattery.append(e.onset)
                default: break
                }
            }
        }
        item.samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(Self.block, all.count - i)
                collect(pipeline.push(UnsafeBufferPointer(rebasing: all[i..<(i + n)])))
                i += n
            }
        }
        collect(pipeline.finish())
        precondition(opened == found.count, "every smoke_alarm event opened is closed by finish()")
        self.init(item, events: found, raised: raised)
        self.heldBack = heldBack
        self.lowBattery = lowBattery
    }

    /// Judges `item` given the smoke_alarm events raised on it.
    /// A continuous horn or steady beeping is found 10 s after it starts, within the next window.
    public static let hornDeadline = 10.5

    /// `raised`: when each event was raised (`raised`); by default, at its onset.
    public init(_ item: BatteryCase, events: [(onset: Double, offset: Double)], raised: [Double]? = nil) {
        let raised = raised ?? events.map(\.onset)
        name = item.name; index = item.index; seed = item.seed
        isAlarm = item.isAlarm; isRequired = item.isRequired; family = item.family
        background = item.background; inBandSnrDb = item.inBandSnrDb; peakDbfs = item.peakDbfs
        clipped = item.clipped; edgeDraws = item.edgeDraws; parameters = item.parameters; seconds = item.seconds
        labels = item.labels; self.events = events; self.raised = raised
        let label = AlarmCheck.label
        let reference = item.labels.map { LabeledEvent(onset: $0.onset, offset: $0.offset, label: label) }
        // Judged when raised, from then to the event's end.
        let estimated = zip(events, raised).map { LabeledEvent(onset: max($0.0.onset, $0.1), offset: $0.0.offset, label: label) }
        var check = AlarmCheck()
        check.add(file: item.name, reference: reference, estimated: estimated)
        stray = check.falseAlarms
        allowed = AlarmCheck.tolerance
        if let alarm = check.alarms.first, let r = item.labels.first {
            overlapping = alarm.events
            latency = alarm.latency
            if let period = item.groupPeriod {
                // T4: found by the second group, even when that is later than AlarmCheck's 4 s.
                allowed = max(AlarmCheck.tolerance, period + Self.t4Grace)
            } else if item.family == "continuous" || item.family == "steady-beep" {
                // A horn is told from a held note or a tune by sounding on for 10 s (issue 25).
                allowed = Self.hornDeadline
            }
            if allowed > AlarmCheck.tolerance {
                if latency == nil {
                    latency = estimated.first { $0.onset > r.onset + AlarmCheck.tolerance && $0.onset <= min(r.offset, r.onset + allowed) }
                        .map { $0.onset - r.onset }
                }
            }
            if latency != nil, let k = events.firstIndex(where: { $0.offset >= r.onset && $0.onset <= r.offset }) {
                onsetError = events[k].onset - r.onset
            }
        } else {
            overlapping = 0
            latency = nil
        }
    }

    /// One line for a person: what failed, and every parameter of the case.
    public var verdict: String {
        let events = self.events.map { "\(fixed($0.onset, 1))-\(fixed($0.offset, 1))" }.joined(separator: ", ")
        let what: String
        if !isAlarm {
            what = (self.events.isEmpty ? "raised nothing"
                : "raised \(self.events.count) smoke_alarm event\(self.events.count == 1 ? "" : "s") (\(events))")
                + (!isChirp ? "" : lowBattery.isEmpty ? ", logged no low_battery event"
                    : ", logged low_battery at " + lowBattery.map { fixed($0, 1) }.joined(separator: ", ") + " s")
        } else if !found {
            what = self.events.isEmpty ? "missed (no smoke_alarm event)"
                : "missed (events \(events); label \(fixed(labels[0].onset, 1))-\(fixed(labels[0].offset, 1)), allowed \(fixed(allowed, 1)) s)"
        } else if overlapping != 1 {
            what = "split into \(overlapping) events (\(events)), latency \(fixed(latency!, 1)) s"
        } else {
            what = "found, latency \(fixed(latency!, 1)) s, onset \(fixed(onsetError ?? 0, 2)) s from the first beep"
        }
        return "\(isAlarm ? "alarm" : "look-alike") \(index) [\(name)]: \(what) — \(parameters)"
    }
}
