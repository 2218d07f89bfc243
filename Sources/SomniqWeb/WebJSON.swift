import FoundationEssentials
import SomniqCore
import SomniqLog
import SomniqReports
import SomniqSinks
import SomniqSupport

/// The web page's data as JSON (`/api/…`): the same nights, levels and state the pages
/// show, for scripts and home automation.
public enum WebJSON {
    /// `/api/night/DATE`: the night's figures, every sound, every minute's levels, incidents.
    public static func night(_ night: Night, clipURL: (Night.Event) -> String?) -> JSONValue {
        func time(_ t: Double) -> JSONValue { night.start.map { .string(WallClock.iso8601(Date(timeIntervalSince1970: $0 + t))) } ?? .null }
        let row = NightRow(night)
        return .object([
            ("night", .string(night.key)),
            ("start", time(0)),
            ("heard_s", .rounded(night.heard, 1)),
            ("span_s", .rounded(night.span, 1)),
            ("sessions", .number(Double(night.sessions))),
            ("snoring_s", .rounded(row.snoringSeconds, 1)),
            ("disturbances", .number(Double(row.disturbances))),
            ("events", .array(night.events.map { e in
                var m: [(String, JSONValue)] = [
                    ("id", .string(e.id)), ("class", .string(e.soundClass.rawValue)), ("tier", .string(e.tier.rawValue)),
                    ("onset_s", .rounded(e.onset)), ("offset_s", .rounded(e.offset)), ("onset_time", time(e.onset)),
                    ("alert", .bool(e.alert)), ("peak_dbfs", .rounded(e.peakDbfs, 1)), ("confidence", .rounded(e.confidence)),
                    ("truncated", .bool(e.truncated)),
                ]
                if e.open { m.append(("open", .bool(true))) }
                if let s = e.suppressed { m.append(("suppressed", .string(s.rawValue))) }
                if e.clip != nil { m.append(("clip_url", clipURL(e).map { .string($0) } ?? .null)) }
                if let why = e.clipNotKept { m.append(("clip_not_kept", .string(why))) }
                return .object(m)
            })),
            ("levels", .array(night.minutes.map { m in
                .object([("start_s", .rounded(m.start)), ("seconds", .rounded(m.seconds)), ("leq_dbfs", .rounded(m.leq, 1)),
                         ("l10_dbfs", .rounded(m.l10, 1)), ("l90_dbfs", .rounded(m.l90, 1)), ("lmax_dbfs", .rounded(m.lmax, 1)),
                         ("floor_dbfs", .rounded(m.floor, 1))])
            })),
            ("incidents", .array(night.incidents.map { i in
                .object([("time_s", .rounded(i.time)), ("at", time(i.time)), ("status", .string(i.status.rawValue)), ("detail", .string(i.detail))])
            })),
        ])
    }

    /// `/api/nights`: each night's row, as `somniq history --json` gives it, and its page.
    public static func nights(_ history: History) -> JSONValue {
        .object([("nights", .array(history.nights.map { r in
            .object([("night", .string(r.night)), ("url", r.day != nil ? .string(HTMLReport.nightURL(r.night)) : .null)]
                    + History.figures(r))
        }))])
    }

    /// `/api/status`: the capture's state, or the log `somniq serve` serves.
    public static func status(_ capture: HTMLReport.Capture, now: Double, night: String) -> JSONValue {
        switch capture {
        case let .log(path):
            return .object([("capture", .bool(false)), ("log", .string(path)), ("night", .string(night))])
        case let .daemon(s):
            func time(_ t: Double?) -> JSONValue { t.map { .string(WallClock.iso8601(Date(timeIntervalSince1970: $0))) } ?? .null }
            let problem = LiveState.problem(s, now: now)
            return .object([
                ("capture", .bool(true)),
                ("listening", .bool(problem == nil)),
                ("problem", problem.map { .string($0) } ?? .null),
                ("device", .string(s.device)), ("room", .string(s.room)), ("profile", .string(s.profile)),
                ("since", time(s.since)), ("last_audio", time(s.lastAudio)),
                ("level_dbfs", s.levelDbfs.map { .rounded($0, 1) } ?? .null),
                ("floor_dbfs", s.floorDbfs.map { .rounded($0, 1) } ?? .null),
                ("stream_s", .rounded(s.streamSeconds, 1)),
                ("night", .string(night)),
            ])
        }
    }
}
