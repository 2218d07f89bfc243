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
        if let at = fields["at"] { c.at = try HomeConfig.TimeOfDay.parse(at, example: "07:30") }
        return c
    }
}
