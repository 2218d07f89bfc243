/// Runs one `AlertStateMachine` per class under a profile and turns their actions
/// into events with ids and decision traces, each trace built whole here. Pure: frames
/// in, the events they start and end returned. Each class
/// goes through its frames in order, but not every class at the same frame: the
/// classifier settles the trains (snoring, breathing) later than the rest.
public struct AlertProcessor: Sendable {
    public private(set) var profile: Profile
    private var machines: [AlertStateMachine]
    private var open: [OpenEvent?]
    private var nextID = 1
    private let idPrefix: String
    /// Per class, the frame after the last one it was given: where an event open at a
    /// reload or at the end of the stream ends.
    private var nextFrame: [Int]
    /// Per class, the hook its descriptor names (`AlertHook`): where its events begin and end
    /// besides its machine's say. Nil for a class with none.
    private var hooks: [(any AlertHook)?]
    /// The levels of the last `RecentLevels.frames` frames: an event's trace gives the
    /// loudest from its onset to its confirmation.
    private var recent = RecentLevels()

    private struct OpenEvent: Sendable {
        var id: String
        var onset: Double
        var peakDbfs: Double
        /// The event this one is logged as too, by this home's memory ("it was snoring"):
        /// its id and class, and whether it alerted at its class's own tier (one `unheard`
        /// starts no cooldown of its class). It ends when this one does.
        var reclassified: (id: String, soundClass: SoundClass, alerted: Bool)?
    }

    /// Level and floor of the frame, for traces.
    public struct Levels: Sendable {
        public var levelDbfs: Double
        public var floorDbfs: Double
        public init(levelDbfs: Double, floorDbfs: Double) {
            self.levelDbfs = levelDbfs
            self.floorDbfs = floorDbfs
        }
    }

    /// Event ids are `idPrefix` + 1, 2, 3 …; a live session passes a prefix naming the
    /// session, so ids stay unique in a log that spans restarts.
    public init(profile: Profile, idPrefix: String = "e") {
        self.profile = profile
        self.idPrefix = idPrefix
        machines = SoundClass.allCases.map { AlertStateMachine(rule: profile.rule(for: $0)) }
        open = Array(repeating: nil, count: SoundClass.allCases.count)
        nextFrame = Array(repeating: 0, count: SoundClass.allCases.count)
        hooks = SoundClass.allCases.map { $0.descriptor.hook?.make() }
    }

    /// Puts a new profile in force; open events stay open and are judged by the new
    /// rules, except those of classes the new profile disables, which end now: returned.
    public mutating func reload(_ newProfile: Profile) -> [AlertOutput] {
        var outputs: [AlertOutput] = []
        profile = newProfile
        for c in SoundClass.allCases {
            let i = c.index
            let rule = newProfile.rule(for: c)
            if !rule.enabled, case let .close(offset, _)? = machines[i].finish(frame: nextFrame[i]), let event = open[i] {
                open[i] = nil
                outputs += ends(event, c, offset: offset, truncated: false)
            }
            machines[i].update(rule: rule)
        }
        return outputs
    }

    /// Feeds the raw scores of frame `frame` (time `frame × 0.5 s`) for `classes`; returns
    /// every event that starts or ends, in class order.
    ///
    /// `alarm`: the latest alarm the detector found (`Classifier.alarm`), for the hooks of the
    /// classes whose descriptor names one (`AlertHook`): the smoke alarm's event spans what
    /// the detector heard (`AlarmSpan`).
    ///
    /// `weights`: the inputs that weighed most in a class's learned score of this frame
    /// (`Classifier.weights`), for the trace of an event it starts; empty for a hand rule.
    ///
    /// `home`: this home's memory's verdict on an event about to alert (`HomeStage`): one it
    /// holds back is returned all the same, `"suppressed": "home"`, and starts no cooldown.
    /// When the sound it was like was said to be another class (`HomeMemory.Match.was`), an
    /// event of that class follows it, with the next id, the same onset and score, under that
    /// class's rule and tier (a critical class's tier only where its own rule heard the
    /// sound, `reclassify`): it alerts as that class would (not during its cooldown, not
    /// where the profile logs it without alerting), its trace's `home` naming the event it
    /// re-classifies (`from`), and it ends when that event ends. A class the profile
    /// disables gets none: the event is only held back.
    ///
    /// `fit`: this home's fit (`HomeFit`): a class it decides is judged by its shifted score (raised by its layer),
    /// the trace naming the fit (`DecisionTrace.fit`).
    public mutating func step(_ scores: ClassScores, frame: Int, classes: [SoundClass] = SoundClass.allCases,
                              levels: Levels, alarm: AlarmDetector.Span? = nil,
                              weights: (SoundClass) -> [LearnedRules.Weight] = { _ in [] },
                              home: ((EventStart) -> HomeMemory.Match?)? = nil, fit: HomeFit? = nil) -> [AlertOutput] {
        var outputs: [AlertOutput] = []
        recent.record(levels, frame: frame)
        for c in classes {
            let i = c.index
            let shipped = Double(scores[c])
            let raw = fit?.score(scores, c) ?? shipped
            nextFrame[i] = frame + 1
            let action = machines[i].step(raw, frame: frame)
            if var event = open[i] {
                event.peakDbfs = max(event.peakDbfs, levels.levelDbfs)
                open[i] = event
            }
            switch action {
            case .open(var onset, let suppressed)?:
                onset = hooks[i]?.onset(onset, alarm: alarm) ?? onset
                let rule = machines[i].rule
                let id = "\(idPrefix)\(nextID)"
                nextID += 1
                let heard = recent.loudest(from: onset, to: frame) ?? levels
                open[i] = OpenEvent(id: id, onset: onset, peakDbfs: heard.levelDbfs)
                var start = EventStart(
                    id: id, soundClass: c, tier: rule.tier, onset: onset, confidence: min(1, machines[i].peakSmoothed),
                    alert: !suppressed && rule.alert, suppressed: suppressed ? .cooldown : rule.alert ? nil : .profile,
                    trace: DecisionTrace(rule: rule, peakSmoothed: machines[i].peakSmoothed,
                                         peakRaw: machines[i].peakRaw, levelDbfs: heard.levelDbfs,
                                         floorDbfs: heard.floorDbfs, profileName: profile.name, profileSHA256: profile.sha256,
                                         weights: weights(c), confirmed: Double(frame) * StreamClock.frameSeconds,
                                         fit: fit?.decided(c)))
                var reclassified: EventStart?
                if start.alert, let match = home?(start) {
                    start.trace.home = match
                    if match.holdsBack {
                        start.alert = false
                        start.suppressed = .home
                        machines[i].holdBack()
                        if let was = match.was { reclassified = reclassify(start, as: was, match: match) }
                    }
                }
                outputs.append(.start(start))
                if let r = reclassified {
                    open[i]!.reclassified = (r.id, r.soundClass, r.alert && r.trace.home?.unheard != true)
                    outputs.append(.start(r))
                }
            case .close(var offset, let truncated)?:
                if let event = open[i] {
                    open[i] = nil
                    offset = hooks[i]?.offset(offset, onset: event.onset, alarm: alarm, streamEnded: false) ?? offset
                    outputs += ends(event, c, offset: offset, truncated: truncated)
                }
            case nil:
                break
            }
        }
        return outputs
    }

    /// Closes every open event at the end of the stream, marked truncated, and returns their
    /// ends, where a class's hook puts them (a smoke alarm's at its last beep heard in `alarm`,
    /// if that was before the end).
    public mutating func finish(alarm: AlarmDetector.Span? = nil) -> [AlertOutput] {
        var outputs: [AlertOutput] = []
        for c in SoundClass.allCases {
            let i = c.index
            if case var .close(offset, _)? = machines[i].finish(frame: nextFrame[i]), let event = open[i] {
                offset = hooks[i]?.offset(offset, onset: event.onset, alarm: alarm, streamEnded: true) ?? offset
                open[i] = nil
                outputs += ends(event, c, offset: offset, truncated: true)
            }
        }
        return outputs
    }

    /// Event `e`, held back by this home's memory, logged as class `was` too: the next id,
    /// its onset and score, `was`'s rule and tier; alerted unless `was`'s cooldown or profile
    /// holds it back. Nil when the profile disables `was`.
    ///
    /// Nothing a home teaches raises a critical alert by itself: where `was` is of the critical
    /// tier and its own rule, before the arbitration, did not reach its `on` in the event's
    /// windows (`HomeMemory.Match.ruleScore`), the event keeps the tier of the class it was
    /// heard as (`unheard` in its trace). In `make eval-home`'s six homes the "it was X" user's
    /// corrections logged 14 events as glass breaking or a gasp, 6 of them a snore, speech,
    /// laughter, music, thunder or a glass heard as a gasp, and those rules had heard none of
    /// the 14; the 6 screams re-classified (from a ringer the arbitration had heard over them)
    /// were all screams, their rule had heard each, and they keep their tier. The hand rule is
    /// asked whichever rule decides the class (`--decide-by learned` too): what the home
    /// taught raises the tier only where somniq's own rule for the class heard the sound. Such
    /// an event starts no cooldown of its class (`ends`): a real one the classifier hears
    /// within it must still wake the household.
    private mutating func reclassify(_ e: EventStart, as was: SoundClass, match: HomeMemory.Match) -> EventStart? {
        let rule = machines[was.index].rule
        guard rule.enabled else { return nil }
        let cooling = machines[was.index].coolingDown(at: e.onset)
        let id = "\(idPrefix)\(nextID)"
        nextID += 1
        var trace = e.trace
        trace.rule = rule
        trace.weights = []
        trace.home = match
        trace.home!.from = e.id
        let unheard = rule.tier == .critical && !(match.ruleScore.map { $0 >= Float(rule.on) } ?? false)
        let tier = unheard ? max(rule.tier, e.tier) : rule.tier
        // A profile may put the class heard at the critical tier too: then it alerts as one.
        trace.home!.unheard = unheard && tier != .critical
        return EventStart(id: id, soundClass: was, tier: tier, onset: e.onset, confidence: e.confidence,
                          alert: !cooling && rule.alert, suppressed: cooling ? .cooldown : rule.alert ? nil : .profile, trace: trace)
    }

    /// The end of open event `e` of class `c`, and of the event it was logged as too (at the
    /// same offset; an alerted one starts its class's cooldown there).
    private mutating func ends(_ e: OpenEvent, _ c: SoundClass, offset: Double, truncated: Bool) -> [AlertOutput] {
        let own = end(e, c, offset: offset, truncated: truncated)
        guard let r = e.reclassified else { return [.end(own)] }
        if r.alerted { machines[r.soundClass.index].alerted(until: offset) }
        return [.end(own), .end(EventEnd(id: r.id, soundClass: r.soundClass, onset: own.onset, offset: offset, peakDbfs: own.peakDbfs,
                                         confidence: own.confidence, truncated: truncated))]
    }

    /// The window levels of recent frames, in storage made once. How loud an event was is
    /// the loudest window from its onset to its confirmation, over the room's floor as it
    /// stood before the event (the floor rises, slowly, under a long sound): the window a
    /// smoke alarm is confirmed on may fall in a pause of its pattern (T3: 1.5 s of
    /// silence every cycle), which would make a loud alarm read as a faint one.
    struct RecentLevels: Sendable {
        /// 32 s of frames: more than any debounce and any alarm's confirmation latency.
        static let frames = 64
        private var frame = [Int](repeating: -1, count: frames)
        private var levels = [Levels](repeating: Levels(levelDbfs: -120, floorDbfs: -120), count: frames)

        mutating func record(_ l: Levels, frame f: Int) {
            guard f >= 0 else { return }
            frame[f % Self.frames] = f
            levels[f % Self.frames] = l
        }

        /// The loudest level of the frames from the one holding stream time `onset` to
        /// frame `to`, with the lowest floor among them; nil when none is recorded.
        func loudest(from onset: Double, to last: Int) -> Levels? {
            let first = max(0, last - Self.frames + 1, Int((onset / StreamClock.frameSeconds).rounded(.down)))
            guard first <= last else { return nil }
            var found: Levels?
            for f in first...last where frame[f % Self.frames] == f {
                let l = levels[f % Self.frames]
                found = Levels(levelDbfs: max(found?.levelDbfs ?? l.levelDbfs, l.levelDbfs),
                               floorDbfs: min(found?.floorDbfs ?? l.floorDbfs, l.floorDbfs))
            }
            return found
        }
    }

    /// The event's confidence is the highest smoothed score it reached: the figure its
    /// rule's `on` is compared with, so that what a person reads is what was decided on.
    private func end(_ e: OpenEvent, _ c: SoundClass, offset: Double, truncated: Bool) -> EventEnd {
        EventEnd(id: e.id, soundClass: c, onset: e.onset, offset: offset, peakDbfs: e.peakDbfs,
                 confidence: min(1, machines[c.index].peakSmoothed), truncated: truncated)
    }
}
