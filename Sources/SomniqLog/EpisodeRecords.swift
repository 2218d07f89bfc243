import SomniqCore

extension LogRecord {
    /// `episode`: what the sleeper reported of a night (`somniq episode add`, the web
    /// page's form), as written. `Episode(record:)` (SomniqReports) checks it is what somniq
    /// would write.
    public struct Episode: Sendable, Equatable {
        public var id: String?
        /// The evening's date (`2026-11-22`).
        public var night: String?
        public var severity: String?
        /// Nil when absent or not an array of strings, as `tags`.
        public var symptoms: [String]?
        public var tags: [String]?
        public var note: String?
        /// ISO 8601 UTC: when it happened, when said.
        public var at: String?
        public var durationMinutes: Double?
        /// ISO 8601 UTC: when it was written.
        public var time: String?

        public init(id: String, night: String, severity: String, symptoms: [String], tags: [String], note: String?,
                    at: String?, durationMinutes: Double?, time: String) {
            self.id = id
            self.night = night
            self.severity = severity
            self.symptoms = symptoms
            self.tags = tags
            self.note = note
            self.at = at
            self.durationMinutes = durationMinutes
            self.time = time
        }

        init(_ r: JSONValue) {
            id = r.string("id")
            night = r.string("night")
            severity = r.string("severity")
            symptoms = r.strings("symptoms")
            tags = r.strings("tags")
            note = r.string("note")
            at = r.string("at")
            durationMinutes = r.number("duration_min")
            time = r.string("time")
        }

        var members: [(String, JSONValue)] {
            var m: [(String, JSONValue)] = []
            m.append("id", id.map(JSONValue.string))
            m.append("night", night.map(JSONValue.string))
            m.append("severity", severity.map(JSONValue.string))
            m.append("symptoms", symptoms.map { .array($0.map(JSONValue.string)) })
            m.append("tags", tags.map { .array($0.map(JSONValue.string)) })
            m.append("note", note.map(JSONValue.string))
            m.append("at", at.map(JSONValue.string))
            m.append("duration_min", durationMinutes.map(JSONValue.number))
            m.append("time", time.map(JSONValue.string))
            return m
        }
    }

    /// `episode_removed`: an episode taken back (the log is only ever appended to).
    public struct EpisodeRemoved: Sendable, Equatable {
        public var id: String?
        /// ISO 8601 UTC: when it was taken back.
        public var time: String?

        public init(id: String, time: String) {
            self.id = id
            self.time = time
        }

        init(_ r: JSONValue) {
            id = r.string("id")
            time = r.string("time")
        }

        var members: [(String, JSONValue)] {
            var m: [(String, JSONValue)] = []
            m.append("id", id.map(JSONValue.string))
            m.append("time", time.map(JSONValue.string))
            return m
        }
    }
}
