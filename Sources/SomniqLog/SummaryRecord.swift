import SomniqCore

extension LogRecord {
    /// `morning_summary`: last night in three lines, as the daemon sent it each morning to
    /// the sinks that take it (`MorningSummary`, SomniqReports), and kept in the log so that the
    /// night's page shows what was sent.
    public struct MorningSummary: Sendable, Equatable {
        /// An alert count of one class.
        public struct Count: Sendable, Equatable {
            public var soundClass: String
            public var count: Int
            public init(soundClass: String, count: Int) {
                self.soundClass = soundClass
                self.count = count
            }
        }

        /// The first alert of the highest tier: its class, event id and logged onset time.
        public struct StoodOut: Sendable, Equatable {
            public var soundClass: String?
            public var id: String?
            public var time: String?
            public init(soundClass: String?, id: String?, time: String?) {
                self.soundClass = soundClass
                self.id = id
                self.time = time
            }
        }

        public var room: String?
        /// ISO 8601 UTC: when it was sent.
        public var time: String?
        /// The night it sums up: the evening's date.
        public var night: String?
        public var title: String?
        /// The three lines a person reads, one a line.
        public var text: String?
        /// A line short enough for a Home Assistant sensor's state.
        public var headline: String?
        /// ISO 8601 UTC: when the night was heard from and to.
        public var heardFrom: String?, heardTo: String?
        public var heardSeconds: Double?
        public var alerts: Int?
        public var alertsByClass: [Count]?
        public var snoringShare: Double?
        public var coughs: Int?
        public var stoodOut: StoodOut?
        /// The night's page, when the web page has a public address.
        public var link: String?

        public init(room: String, time: String, night: String, title: String, text: String, headline: String,
                    heardFrom: String, heardTo: String, heardSeconds: Double, alerts: Int, alertsByClass: [Count],
                    snoringShare: Double, coughs: Int, stoodOut: StoodOut?, link: String?) {
            self.room = room
            self.time = time
            self.night = night
            self.title = title
            self.text = text
            self.headline = headline
            self.heardFrom = heardFrom
            self.heardTo = heardTo
            self.heardSeconds = heardSeconds
            self.alerts = alerts
            self.alertsByClass = alertsByClass
            self.snoringShare = snoringShare
            self.coughs = coughs
            self.stoodOut = stoodOut
            self.link = link
        }

        init(_ r: JSONValue) {
            room = r.string("room")
            time = r.string("time")
            night = r.string("night")
            title = r.string("title")
            text = r.string("text")
            headline = r.string("headline")
            heardFrom = r.string("heard_from")
            heardTo = r.string("heard_to")
            heardSeconds = r.number("heard_s")
            alerts = r.int("alerts")
            if case let .object(counts)? = r["alerts_by_class"] {
                alertsByClass = counts.compactMap { key, value in value.numberValue.flatMap { Int(exactly: $0) }.map { Count(soundClass: key, count: $0) } }
            }
            snoringShare = r.number("snoring_share")
            coughs = r.int("coughs")
            if let s = r["stood_out"], case .object = s {
                stoodOut = StoodOut(soundClass: s.string("class"), id: s.string("id"), time: s.string("time"))
            }
            link = r.string("link")
        }

        var members: [(String, JSONValue)] {
            var m: [(String, JSONValue)] = []
            m.append("room", room.map(JSONValue.string))
            m.append("time", time.map(JSONValue.string))
            m.append("night", night.map(JSONValue.string))
            m.append("title", title.map(JSONValue.string))
            m.append("text", text.map(JSONValue.string))
            m.append("headline", headline.map(JSONValue.string))
            m.append("heard_from", heardFrom.map(JSONValue.string))
            m.append("heard_to", heardTo.map(JSONValue.string))
            m.append("heard_s", heardSeconds.map { .rounded($0, 1) })
            m.append("alerts", alerts.map { .number(Double($0)) })
            m.append("alerts_by_class", alertsByClass.map { .object($0.map { ($0.soundClass, .number(Double($0.count))) }) })
            m.append("snoring_share", snoringShare.map { .rounded($0, 3) })
            m.append("coughs", coughs.map { .number(Double($0)) })
            if let s = stoodOut {
                var o: [(String, JSONValue)] = []
                o.append("class", s.soundClass.map(JSONValue.string))
                o.append("id", s.id.map(JSONValue.string))
                o.append("time", s.time.map(JSONValue.string))
                m.append(("stood_out", .object(o)))
            }
            m.append("link", link.map(JSONValue.string))
            return m
        }
    }
}
