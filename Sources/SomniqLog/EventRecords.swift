import SomniqCore

extension LogRecord {
    /// `event_start`: an event confirmed, with the decision that made it.
    public struct EventStart: Sendable, Equatable {
        public var id: String
        public var soundClass: SoundClass
        public var tier: Tier?
        public var onset: Double?
        /// ISO 8601 UTC of the onset (live sessions).
        public var onsetTime: String?
        public var confidence: Double?
        public var alert: Bool
        /// Why an event was not alerted (nil as well when the log names a reason this
        /// version does not know).
        public var suppressed: Suppression?
        public var trace: Trace?

        /// `time`: maps a stream time to an ISO 8601 UTC wall-clock time (live sessions only).
        public init(_ e: SomniqCore.EventStart, time: ((Double) -> String)? = nil) {
            id = e.id
            soundClass = e.soundClass
            tier = e.tier
            onset = e.onset.asLogged()
            onsetTime = time?(e.onset)
            confidence = e.confidence.asLogged()
            alert = e.alert
            suppressed = e.suppressed
            trace = Trace(e.trace)
        }

        init?(_ r: JSONValue) {
            guard let id = r.string("id"), let c = r.string("class").flatMap(SoundClass.init(rawValue:)) else { return nil }
            self.id = id
            soundClass = c
            tier = r.string("tier").flatMap(Tier.init(rawValue:))
            onset = r.number("onset_s")
            onsetTime = r.string("onset_time")
            confidence = r.number("confidence")
            alert = r.isTrue("alert")
            suppressed = r.string("suppressed").flatMap(Suppression.init(rawValue:))
            trace = r["trace"].map(Trace.init)
        }

        var members: [(String, JSONValue)] {
            var m: [(String, JSONValue)] = [("id", .string(id)), ("class", .string(soundClass.rawValue))]
            m.append("tier", tier.map { .string($0.rawValue) })
            m.append("onset_s", onset.map { .rounded($0) })
            m.append("onset_time", onsetTime.map(JSONValue.string))
            m.append("confidence", confidence.map { .rounded($0) })
            m.append(("alert", .bool(alert)))
            m.append(("suppressed", suppressed.map { .string($0.rawValue) } ?? .null))
            m.append("trace", trace?.json)
            return m
        }
    }

    /// Why an event was raised: the effective rule, the scores and levels, the profile, and
    /// where a learned rule decided the class, the inputs that weighed most.
    public struct Trace: Sendable, Equatable {
        /// The rule in force, as `AlertRule.json` writes it.
        public var rule: JSONValue?
        public var peakSmoothed: Double?, peakRaw: Double?
        public var levelDbfs: Double?, floorDbfs: Double?
        public var profile: String?, profileSHA256: String?
        /// Stream seconds at which the event was confirmed.
        public var confirmed: Double?
        public var learned: [LearnedRules.Weight]
        /// Where this home's memory found the event like one marked "not this".
        public var home: Home?
        /// Where this home's fit decided the event's class.
        public var fit: Fit?

        /// The rule's `on`: the figure `peakSmoothed` was compared with.
        public var on: Double? { rule?.number("on") }
        /// The rule's `debounce_s`.
        public var debounce: Double? { rule?.number("debounce_s") }

        init(_ t: DecisionTrace) {
            rule = t.rule.json
            peakSmoothed = t.peakSmoothed.asLogged()
            peakRaw = t.peakRaw.asLogged()
            levelDbfs = t.levelDbfs.asLogged(1)
            floorDbfs = t.floorDbfs.asLogged(1)
            profile = t.profileName
            profileSHA256 = t.profileSHA256
            confirmed = t.confirmed?.asLogged()
            learned = t.weights.map { LearnedRules.Weight(input: $0.input, value: $0.value.asLogged(), weight: $0.weight.asLogged()) }
            home = t.home.map(Home.init)
            fit = t.fit.map(Fit.init)
        }

        /// A trace as logged (anything but an object reads as empty).
        public init(_ t: JSONValue) {
            rule = t["rule"]
            peakSmoothed = t.number("peak_smoothed")
            peakRaw = t.number("peak_raw")
            levelDbfs = t.number("level_dbfs")
            floorDbfs = t.number("floor_dbfs")
            profile = t.string("profile")
            profileSHA256 = t.string("profile_sha256")
            confirmed = t.number("confirmed_s")
            if case let .array(items)? = t["learned"] {
                learned = items.compactMap { w in
                    guard let input = w.string("input"), let value = w.number("value"), let weight = w.number("weight") else { return nil }
                    return LearnedRules.Weight(input: input, value: value, weight: weight)
                }
            } else {
                learned = []
            }
            home = t["home"].flatMap(Home.init)
            fit = t["fit"].flatMap(Fit.init)
        }

        var json: JSONValue {
            var m: [(String, JSONValue)] = []
            m.append("rule", rule)
            m.append("peak_smoothed", peakSmoothed.map { .rounded($0) })
            m.append("peak_raw", peakRaw.map { .rounded($0) })
            m.append("level_dbfs", levelDbfs.map { .rounded($0, 1) })
            m.append("floor_dbfs", floorDbfs.map { .rounded($0, 1) })
            m.append("profile", profile.map(JSONValue.string))
            m.append("profile_sha256", profileSHA256.map(JSONValue.string))
            m.append("confirmed_s", confirmed.map { .rounded($0) })
            if !learned.isEmpty {
                m.append(("learned", .array(learned.map {
                    .object([("input", .string($0.input)), ("value", .rounded($0.value)), ("weight", .rounded($0.weight))])
                })))
            }
            m.append("home", home?.json)
            m.append("fit", fit?.json)
            return .object(m)
        }
    }

    /// A trace's `fit`: this home's fit decided the event's class, its score the shipped one
    /// with its log-odds shifted (`HomeFit`), learned when, from how many marked events.
    ///
    /// `{"class": "cough", "shift": 1.2345, "learned": "2026-11-22T12:00:00.000Z", "marks": 14}`
    public struct Fit: Sendable, Equatable {
        public var soundClass: String
        public var shift: Double
        public var learned: String?
        public var marks: Int

        init(_ d: HomeFit.Decided) {
            soundClass = d.soundClass.rawValue
            shift = d.shift
            learned = d.learned
            marks = d.marks
        }

        init?(_ r: JSONValue) {
            guard let c = r.string("class"), let shift = r.number("shift"), let marks = r.number("marks") else { return nil }
            soundClass = c
            self.shift = shift
            learned = r.string("learned")
            self.marks = Int(marks)
        }

        var json: JSONValue {
            var m: [(String, JSONValue)] = [("class", .string(soundClass)), ("shift", .rounded(shift, 4))]
            m.append("learned", learned.map(JSONValue.string))
            m.append(("marks", .number(Double(marks))))
            return .object(m)
        }
    }

    /// A trace's `home`: the event marked "not this" (or "it was CLASS") the event was like,
    /// and how near; `kept` when the class may never be taught away (the alert stood); `from`
    /// on the event logged as the class the marked sound was said to be, naming the event it
    /// re-classifies.
    ///
    /// `{"like": "r1795401000-e3", "label": "not", "at": "2026-11-22T23:40:05.000Z", "distance": 0.4}`
    /// `{"like": "r1795401000-e5", "label": "snoring", "from": "e7", "at": "2026-11-22T23:52:10.500Z", "distance": 0.3}`
    /// `{"like": "r1795401000-e8", "label": "right", "class": "dog_bark", "at": "2026-11-22T23:58:00.000Z", "distance": 0.2}`
    /// (the last: held back as much nearer a sound marked right as `class` than any marked
    /// right as its own, `HomeMemory.confirmedAs`). `"said"` with `label` `not`: the marked
    /// sound was said to be that class ("it was snoring"), but the event lay too far from it
    /// to be logged as one (`HomeMemory.Match.said`; a log written before it has none).
    /// `"heard": true` with a class as `label`:
    /// the sound was marked "not this" alone, and the home had confirmed that class at its
    /// moment (`HomeMemory.Entry.heard`); nobody said "it was" it.
    public struct Home: Sendable, Equatable {
        /// The id of the event marked, as its `event_start` named it.
        public var like: String
        /// The label it was given: `not`, the class it was said to be (`snoring`), or `right`
        /// (a sound marked right as `confirmed`).
        public var label: String
        /// With `label` `right`: the class that sound was marked right as.
        public var confirmed: SoundClass?
        /// With `label` `not`: the class the listener said the marked sound was, the event held
        /// back only (`HomeMemory.Match.said`).
        public var said: SoundClass?
        /// The event this one re-classifies (the event logged as `label`'s class).
        public var from: String?
        /// ISO 8601 UTC of the marked event's onset (live sessions).
        public var at: String?
        public var distance: Double
        /// Why the alert was kept all the same (a class no home can teach away).
        public var kept: String?
        /// True where `label`'s class is what the home confirmed at the marked sound's
        /// moment, not what was said of it (`HomeMemory.Match.heard`).
        public var heard: Bool
        /// True on an event logged as a critical `label` class that the class's own rule did not
        /// hear: it alerted at the tier of the class it was heard as (`HomeMemory.Match.unheard`).
        public var unheard: Bool

        init(_ m: HomeMemory.Match) {
            like = m.eventID
            label = m.confirmed != nil ? HomeMemory.Kind.right.rawValue : m.was?.rawValue ?? HomeMemory.Kind.not.rawValue
            confirmed = m.confirmed
            said = m.confirmed == nil ? m.said : nil
            from = m.from
            at = m.at
            distance = Double(m.distance).asLogged()
            kept = m.holdsBack ? nil : "critical: never taught away"
            heard = m.heard
            unheard = m.unheard
        }

        /// The class the marked sound was said to be, when it was one.
        public var was: SoundClass? { SoundClass(rawValue: label) }

        init?(_ r: JSONValue) {
            guard let like = r.string("like"), let label = r.string("label"), let distance = r.number("distance") else { return nil }
            self.like = like
            self.label = label
            confirmed = label == HomeMemory.Kind.right.rawValue ? r.string("class").flatMap(SoundClass.init(rawValue:)) : nil
            said = label == HomeMemory.Kind.not.rawValue ? r.string("said").flatMap(SoundClass.init(rawValue:)) : nil
            from = r.string("from")
            at = r.string("at")
            self.distance = distance
            kept = r.string("kept")
            heard = r.isTrue("heard")
            unheard = r.isTrue("unheard")
        }

        var json: JSONValue {
            var m: [(String, JSONValue)] = [("like", .string(like)), ("label", .string(label))]
            m.append("class", confirmed.map { JSONValue.string($0.rawValue) })
            m.append("said", said.map { JSONValue.string($0.rawValue) })
            m.append("from", from.map(JSONValue.string))
            m.append("at", at.map(JSONValue.string))
            m.append(("distance", .rounded(distance, 3)))
            m.append("kept", kept.map(JSONValue.string))
            if heard { m.append(("heard", .bool(true))) }
            if unheard { m.append(("unheard", .bool(true))) }
            return .object(m)
        }
    }

    /// `event_end`: an event's end, its loudest level and highest score.
    public struct EventEnd: Sendable, Equatable {
        public var id: String
        /// Every `event_end` somniq writes names its class.
        public var soundClass: SoundClass?
        /// Absent from an event closed by the next session (`closedBy`), whose end is unknown.
        public var onset: Double?, offset: Double?
        public var offsetTime: String?
        public var peakDbfs: Double?
        public var confidence: Double?
        public var truncated: Bool
        /// The file the event's sound is being kept in. The clip is complete only `post_s`
        /// after the end, and written off the audio path, so the path is a promise: a
        /// `clip_skipped` status with the same `id`, later in the log, withdraws it.
        public var clip: String?
        /// `previous_session_unclean`: closed by the session after the one that opened it.
        public var closedBy: LogStatus?

        /// `time`: maps a stream time to an ISO 8601 UTC wall-clock time (live sessions only).
        public init(_ e: SomniqCore.EventEnd, time: ((Double) -> String)? = nil, clip: String? = nil) {
            id = e.id
            soundClass = e.soundClass
            onset = e.onset.asLogged()
            offset = e.offset.asLogged()
            offsetTime = time?(e.offset)
            peakDbfs = e.peakDbfs.asLogged(1)
            confidence = e.confidence.asLogged()
            truncated = e.truncated
            self.clip = clip
        }

        /// An event the previous session opened and never closed (it was killed or lost
        /// power): closed, truncated, with no guess at its end.
        public init(closingUnseen id: String, soundClass: SoundClass) {
            self.id = id
            self.soundClass = soundClass
            truncated = true
            closedBy = .previousSessionUnclean
        }

        init?(_ r: JSONValue) {
            guard let id = r.string("id") else { return nil }
            self.id = id
            soundClass = r.string("class").flatMap(SoundClass.init(rawValue:))
            onset = r.number("onset_s")
            offset = r.number("offset_s")
            offsetTime = r.string("offset_time")
            peakDbfs = r.number("peak_dbfs")
            confidence = r.number("confidence")
            truncated = r.isTrue("truncated")
            clip = r.string("clip")
            closedBy = r.string("closed_by").flatMap(LogStatus.init(rawValue:))
        }

        var members: [(String, JSONValue)] {
            var m: [(String, JSONValue)] = [("id", .string(id))]
            m.append("class", soundClass.map { .string($0.rawValue) })
            m.append("onset_s", onset.map { .rounded($0) })
            m.append("offset_s", offset.map { .rounded($0) })
            m.append("offset_time", offsetTime.map(JSONValue.string))
            m.append("peak_dbfs", peakDbfs.map { .rounded($0, 1) })
            m.append("confidence", confidence.map { .rounded($0) })
            m.append(("truncated", .bool(truncated)))
            m.append("clip", clip.map(JSONValue.string))
            m.append("closed_by", closedBy.map { .string($0.rawValue) })
            return m
        }
    }
}
