import FoundationEssentials
import SomniqConfig
import SomniqCore
import SomniqLog
import SomniqSupport

/// Last night in three lines, for the morning (`"morning_summary"` in config.json): when
/// the room was heard, what alerted, how much snoring and coughing, what stood out, and the
/// night's page. Its figures are the night report's (`NightSummary`), read from the same
/// log; a person reads its times in the configured time zone.
///
///     Heard 23:10–07:28 (8 h 18 min).
///     8 alerts (smoke alarm, 2 snoring, cough, baby cry, dog bark, speech, door); snoring 21 % of the night; 1 cough.
///     Stood out: smoke alarm at 23:12.
public struct MorningSummary: Sendable {
    /// The night (`2026-11-22`, the evening's date).
    public var night: String
    /// When the night's first and last records were (Unix time).
    public var from: Double, to: Double
    public var heard: Double, unheard: Double
    /// Alerts, per class in the classes' order.
    public var alerts: [(soundClass: SoundClass, count: Int)]
    public var snoringShare: Double
    public var coughs: Int
    /// The first alert of the highest tier heard, and how many more of its class followed.
    public var stoodOut: (event: Night.Event, more: Int)?
    /// The night's page, when the web page has a public address.
    public var link: String?

    /// Nil for a night without wall-clock times (a replayed recording's).
    public init?(_ night: Night, page: HTTPConfig?) {
        guard let start = night.start else { return nil }
        let figures = NightSummary(night)
        self.night = night.key
        from = start
        to = start + night.span
        heard = night.heard
        unheard = night.unheard
        alerts = figures.classes.filter { $0.alerts > 0 }.map { ($0.soundClass, $0.alerts) }
        snoringShare = figures.snoringShare
        coughs = figures.classes.first { $0.soundClass == .cough }?.events ?? 0
        if let top = figures.alerts.min(by: { $0.tier < $1.tier || ($0.tier == $1.tier && $0.onset < $1.onset) }) {
            stoodOut = (top, figures.alerts.filter { $0.soundClass == top.soundClass }.count - 1)
        }
        link = page?.publicURL.map { "\($0)/night/\(night.key)" }
    }

    static func words(_ c: SoundClass) -> String { c.rawValue.replacing("_", with: " ") }

    /// The three lines a person reads.
    public var lines: [String] {
        var heardLine = "Heard \(WallClock.localTime(from))–\(WallClock.localTime(to)) (\(TextReport.duration(heard)))"
        if unheard >= 1 { heardLine += "; not heard for \(TextReport.duration(unheard))" }
        let count = alerts.reduce(0) { $0 + $1.count }
        let which = alerts.map { $0.count == 1 ? Self.words($0.soundClass) : "\($0.count) \(Self.words($0.soundClass))" }
        let alertText = count == 0 ? "No alert" : "\(count) alert\(count == 1 ? "" : "s") (\(which.joined(separator: ", ")))"
        let snoring = String(cFormat: "%.0f", snoringShare * 100)
        let figures = "\(alertText); snoring \(snoring) % of the night; \(coughs == 0 ? "no" : "\(coughs)") cough\(coughs == 1 ? "" : "s")."
        var standing = "Nothing stood out."
        if let (event, more) = stoodOut {
            standing = "Stood out: \(Self.words(event.soundClass)) at \(WallClock.localTime(from + event.onset))"
                + (more > 0 ? " (and \(more) more)." : ".")
        }
        return [heardLine + ".", figures, standing]
    }

    /// Short enough for a Home Assistant sensor's state (255 characters at most).
    public var headline: String {
        let count = alerts.reduce(0) { $0 + $1.count }
        return "\(count) alert\(count == 1 ? "" : "s"), snoring \(String(cFormat: "%.0f", snoringShare * 100)) %, "
            + "\(coughs) cough\(coughs == 1 ? "" : "s")"
    }

    /// The notification's title.
    public static func title(room: String) -> String { "somniq \(room): last night" }

    /// What the sinks are sent and the log keeps: the exec program's stdin, the webhook's
    /// JSON, MQTT's `<room>/summary` (Home Assistant's "Last night" sensor and its
    /// attributes), the log's `morning_summary` record.
    public func record(room: String, time: String) -> LogRecord {
        let iso = { (t: Double) in WallClock.iso8601(Date(timeIntervalSince1970: t)) }
        return .morningSummary(.init(
            room: room, time: time, night: night, title: Self.title(room: room), text: lines.joined(separator: "\n"),
            headline: headline, heardFrom: iso(from), heardTo: iso(to), heardSeconds: heard, alerts: alerts.reduce(0) { $0 + $1.count },
            alertsByClass: alerts.map { .init(soundClass: $0.soundClass.rawValue, count: $0.count) },
            snoringShare: snoringShare, coughs: coughs,
            stoodOut: stoodOut.map { .init(soundClass: $0.event.soundClass.rawValue, id: $0.event.id, time: iso(from + $0.event.onset)) },
            link: link))
    }
}
