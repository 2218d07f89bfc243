import SomniqCore

extension LogRecord {
    /// `level`: a minute of stream time, its levels (ISO 1996-1 figures in dBFS) and the
    /// seconds each class's events covered in it.
    public struct Level: Sendable, Equatable {
        public var start: Double, seconds: Double
        /// The wall-clock time of the minute's start (live sessions, and replays given a start).
        public var time: String?
        public var leq: Double?, l10: Double?, l90: Double?, lmax: Double?, floor: Double?
        /// Classes that sounded in the minute, in `SoundClass` order as written.
        public var active: [(SoundClass, Double)]

        public init(_ m: MinuteLevels.Minute, time: String? = nil) {
            start = m.startSeconds.asLogged()
            seconds = m.seconds.asLogged()
            self.time = time
            leq = m.leqDbfs.asLogged(1)
            l10 = m.l10Dbfs.asLogged(1)
            l90 = m.l90Dbfs.asLogged(1)
            lmax = m.maxDbfs.asLogged(1)
            floor = m.floorDbfs.asLogged(1)
            active = SoundClass.allCases.compactMap { c in m.activeSeconds(c) > 0 ? (c, m.activeSeconds(c).asLogged(1)) : nil }
        }

        init?(_ r: JSONValue) {
            guard let start = r.number("start_s"), let seconds = r.number("seconds") else { return nil }
            self.start = start
            self.seconds = seconds
            time = r.string("time")
            leq = r.number("leq_dbfs")
            l10 = r.number("l10_dbfs")
            l90 = r.number("l90_dbfs")
            lmax = r.number("lmax_dbfs")
            floor = r.number("floor_dbfs")
            if case let .object(members)? = r["active_s"] {
                active = members.compactMap { name, s in
                    guard let c = SoundClass(rawValue: name), let s = s.numberValue else { return nil }
                    return (c, s)
                }
            } else {
                active = []
            }
        }

        var members: [(String, JSONValue)] {
            var m: [(String, JSONValue)] = [("start_s", .rounded(start)), ("seconds", .rounded(seconds))]
            m.append("time", time.map(JSONValue.string))
            m.append("leq_dbfs", leq.map { .rounded($0, 1) })
            m.append("l10_dbfs", l10.map { .rounded($0, 1) })
            m.append("l90_dbfs", l90.map { .rounded($0, 1) })
            m.append("lmax_dbfs", lmax.map { .rounded($0, 1) })
            m.append("floor_dbfs", floor.map { .rounded($0, 1) })
            m.append(("active_s", .object(active.map { ($0.0.rawValue, .rounded($0.1, 1)) })))
            return m
        }

        public static func == (a: Level, b: Level) -> Bool {
            a.start == b.start && a.seconds == b.seconds && a.time == b.time && a.leq == b.leq && a.l10 == b.l10
                && a.l90 == b.l90 && a.lmax == b.lmax && a.floor == b.floor
                && a.active.count == b.active.count && zip(a.active, b.active).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        }
    }
}
