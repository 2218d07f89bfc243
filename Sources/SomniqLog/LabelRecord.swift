import SomniqCore

extension LogRecord {
    /// `label`: what the listener said of one event (`somniq label`, the web page's
    /// buttons), as written. `EventLabel(record:)` (SomniqReports) checks it is what somniq
    /// would write; a later label for the same event wins, and `"as": "none"` takes it back.
    public struct Label: Sendable, Equatable {
        /// The event's id, as its `event_start` names it.
        public var id: String?
        /// The night the event belongs to: the evening's date, or a replayed recording's path.
        public var night: String?
        /// The event's class as logged.
        public var soundClass: String?
        /// `right`, `not`, `other`, `none` or a class.
        public var verdict: String?
        /// ISO 8601 UTC: when the label was given.
        public var time: String?

        public init(id: String, night: String, soundClass: SoundClass, verdict: String, time: String) {
            self.id = id
            self.night = night
            self.soundClass = soundClass.rawValue
            self.verdict = verdict
            self.time = time
        }

        init(_ r: JSONValue) {
            id = r.string("id")
            night = r.string("night")
            soundClass = r.string("class")
            verdict = r.string("as")
            time = r.string("time")
        }

        var members: [(String, JSONValue)] {
            var m: [(String, JSONValue)] = []
            m.append("id", id.map(JSONValue.string))
            m.append("night", night.map(JSONValue.string))
            m.append("class", soundClass.map(JSONValue.string))
            m.append("as", verdict.map(JSONValue.string))
            m.append("time", time.map(JSONValue.string))
            return m
        }
    }
}
