import FoundationEssentials
import Glibc
import SomniqCore
import SomniqLog
import SomniqSupport

/// A night's summary for a terminal: the figures, a sparkline of the level, the alerts.
public enum TextReport {
    public static func render(_ night: Night) -> String {
        let s = NightSummary(night)
        var out: [String] = []
        out.append("night \(LogText.escape(night.key)): \(duration(night.heard)) heard"
                   + (night.unheard >= 1 ? ", \(duration(night.unheard)) not heard (no audio)" : "")
                   + (night.start.map { ", from \(WallClock.localTime($0)) to \(WallClock.localTime($0 + night.span))" } ?? "")
                   + ", \(night.events.count) events, \(s.alerts.count) alerts")
        if !night.minutes.isEmpty {
            let leq = night.minutes.map(\.leq)
            out.append("level  \(sparkline(leq, width: 64))  each minute's level, the loudest "
                       + String(cFormat: "%.0f dB over the quietest", leq.max()! - leq.min()!))
        }
        out.append(String(cFormat: "snoring %@ (%.0f %% of the night)", duration(s.snoringSeconds), 100 * s.snoringShare))
        if let m = s.loudestMinute {
            out.append("loudest minute \(night.clock(m.start)): \(EventWords.loudness(minute: m))")
        }
        if !night.episodes.isEmpty {
            out.append("")
            out.append("reported")
            for e in night.episodes {
                let r = ReportedEpisode(e, in: night)
                out.append("  " + LogText.escape(r.sentence(night)))
                if !e.tags.isEmpty { out.append("    tags " + e.tags.joined(separator: ", ")) }
                if let note = e.note { out.append("    \"" + LogText.escape(note) + "\"") }
            }
        }
        if !s.classes.isEmpty {
            out.append("")
            out.append(padded("class", 16) + padded("events", 8) + padded("alerts", 8) + padded("minutes", 9) + padded("first", 10) + "last")
            for l in s.classes {
                out.append(padded(l.soundClass.rawValue, 16) + padded("\(l.events)", 8) + padded("\(l.alerts)", 8)
                           + padded(String(cFormat: "%.1f", l.seconds / 60), 9) + padded(night.clock(l.first), 10) + night.clock(l.last))
            }
        }
        // Each event with its id, the one `somniq label` takes: the alerts, what this home's
        // memory held back (as the HTML report lists it), and the other events.
        let heldBack = night.events.filter { $0.suppressed == .home }.sorted { $0.onset < $1.onset }
        let others = night.events.filter { !$0.alert && $0.suppressed != .home }.sorted { $0.onset < $1.onset }
        let idWidth = night.events.map { LogText.escape($0.id).count }.max() ?? 0
        for (title, events) in [("alerts", s.alerts),
                                ("held back by this home's memory: heard, logged, not alerted; mark one right if it was", heldBack),
                                ("not alerted", others)] where !events.isEmpty {
            out.append("")
            out.append(title)
            for e in events { out.append(line(e, night, idWidth: idWidth)) }
        }
        if !night.labels.isEmpty { out += marked(night) }
        if !s.breathingPauses.isEmpty {
            out.append("")
            out.append("\(s.breathingPauses.count) pause(s) in a snore train ending with a gasp or a louder snore: a pattern worth a look with a doctor if it recurs; somniq does not diagnose.")
        }
        if !night.incidents.isEmpty {
            out.append("")
            out.append("incidents")
            for i in night.incidents { out.append("  \(night.clock(i.time, seconds: true))  \(i.status.rawValue)  \(LogText.escape(i.detail))") }
        }
        if !night.skipped.isEmpty {
            out.append("")
            out.append("not in this report: \(night.skipped.description)")
        }
        out.append("")
        out.append("profile \(night.profiles.map { LogText.escape($0) }.joined(separator: ", "))")
        return out.joined(separator: "\n") + "\n"
    }

    /// `  23:10:46  r1795385400-e2  medium    door for 1.0 s, clearly heard, about 13 dB over
    /// the room`: when, the id `somniq label` takes, the tier and the class, how long and how
    /// loud in the notification's words (`EventWords.loudness`), and what was marked or not kept.
    static func line(_ e: Night.Event, _ night: Night, idWidth: Int) -> String {
        "  \(night.clock(e.onset, seconds: true))  \(padded(LogText.escape(e.id), idWidth + 2))\(padded(e.tier.rawValue, 9)) \(e.soundClass.rawValue)"
            + String(cFormat: " for %.1f s", e.seconds) + (EventWords.loudness(trace: e.trace).map { ", " + $0 } ?? "")
            + (e.clipNotKept.map { ", clip \(LogText.escape(notKept($0)))" } ?? "")
            + (night.labels[e.id].map { ", marked \($0.verdict.words)" } ?? "")
    }

    /// Every event the listener marked (`somniq label`), alerted or not, in the night's order.
    static func marked(_ night: Night) -> [String] {
        ["", "marked"] + night.events.compactMap { e in
            night.labels[e.id].map { "  \(night.clock(e.onset, seconds: true))  \(LogText.escape(e.id))  \(e.soundClass.rawValue): \($0.verdict.words)" }
        }
    }

    /// `not kept: no space left` for a clip the disk had no room for, else `not kept: ` and
    /// the first line of why (at most 80 characters).
    public static func notKept(_ error: String) -> String {
        if error.contains("ENOSPC") || error.lowercased().contains("no space left") { return "not kept: no space left" }
        let line = String(error.prefix { $0 != "\n" && $0 != "\r" }).trimmingWhitespace()
        guard !line.isEmpty else { return "not kept" }
        return "not kept: " + (line.count > 80 ? line.prefix(79) + "…" : line)
    }

    /// Values as block characters, averaged down to at most `width` of them.
    static func sparkline(_ values: [Double], width: Int) -> String {
        guard let lo = values.min(), let hi = values.max(), !values.isEmpty else { return "" }
        let blocks = Array("▁▂▃▄▅▆▇█")
        let n = min(width, values.count)
        return String((0..<n).map { i -> Character in
            let a = i * values.count / n, b = max(a + 1, (i + 1) * values.count / n)
            let v = values[a..<b].reduce(0, +) / Double(b - a)
            return blocks[hi > lo ? min(7, Int((v - lo) / (hi - lo) * 7.999)) : 0]
        })
    }

    /// `7 h 12 min`, `12.5 min`, `40 s`.
    package static func duration(_ s: Double) -> String {
        let m = Int((s / 60).rounded())
        return m >= 60 ? "\(m / 60) h \(m % 60) min" : s >= 60 ? String(cFormat: "%.1f min", s / 60) : String(cFormat: "%.0f s", s)
    }

    static func f1(_ x: Double) -> String { String(cFormat: "%.1f", x) }
}
