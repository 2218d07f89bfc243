import SomniqCore

/// `"morning_summary"` in config.json: last night in three lines (`MorningSummary`), sent
/// once a day at `at`, local time (07:30 by default), to the sinks that take it (a sink's
/// `"morning_summary"`: webhook and MQTT sinks unless false, exec sinks only when true).
/// On unless `"enabled": false`.
public struct MorningSummaryConfig: Sendable, Equatable {
    public var enabled = true
    public var at = HomeConfig.TimeOfDay(hour: 7, minute: 30)

    public init() {}

    public static let keys = ["enabled", "at"]

    /// Parses `"morning_summary"`; errors name the key path (`morning_summary.at`).
    static func parse(_ field: JSONField<ConfigError>) throws(ConfigError) -> MorningSummaryConfig {
        let fields = try field.object()
        try fields.allowOnly(keys)
        var c = MorningSummaryConfig()
        c.enabled = try fields["enabled"]?.bool() ?? true
        if let at = fields["at"] {
            let text = try at.text()
            guard let time = HomeConfig.TimeOfDay(text) else {
                throw at.error("\"\(LogText.escape(text))\" is not a time of day like 07:30 (00:00 to 23:59, local time)")
            }
            c.at = time
        }
        return c
    }
}
