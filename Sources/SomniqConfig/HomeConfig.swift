import SomniqCore
import SomniqSupport

/// `"home"` in config.json: whether the daemon learns this home's memory by itself, once a
/// day (`DailyLearning`), as `somniq learn --home` does by hand. Off unless
/// `"learn_daily": true`: what the memory holds back is the listener's own doing, and it
/// is their choice to have it follow their labels unattended.
public struct HomeConfig: Sendable, Equatable {
    public var learnDaily = false
    /// The local time of day it learns at. Noon by default: the night's labels are given
    /// in the morning, and the room is seldom listened to for alerts then.
    public var learnAt = TimeOfDay(hour: 12, minute: 0)

    /// A local time of day, to the minute: `12:00`.
    public struct TimeOfDay: Sendable, Equatable, CustomStringConvertible {
        public var hour: Int, minute: Int
        public init(hour: Int, minute: Int) {
            self.hour = hour
            self.minute = minute
        }

        /// `HH:MM`, 00:00 to 23:59; nil otherwise.
        public init?(_ text: String) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                  let h = Int(parts[0]), let m = Int(parts[1]), (0...23).contains(h), (0...59).contains(m) else { return nil }
            self.init(hour: h, minute: m)
        }

        public var description: String { String(cFormat: "%02d:%02d", hour, minute) }

        /// A configuration's time of day; an error names the key and gives `example`.
        static func parse(_ field: JSONField<ConfigError>, example: String) throws(ConfigError) -> TimeOfDay {
            let text = try field.text()
            guard let time = TimeOfDay(text) else {
                throw field.error("\"\(LogText.escape(text))\" is not a time of day like \(example) (00:00 to 23:59, local time)")
            }
            return time
        }
    }

    public init() {}

    public static let keys = ["learn_daily", "learn_at"]

    /// Parses `"home"`; errors name the key path (`home.learn_at`).
    static func parse(_ field: JSONField<ConfigError>) throws(ConfigError) -> HomeConfig {
        let fields = try field.object()
        try fields.allowOnly(keys)
        var c = HomeConfig()
        c.learnDaily = try fields["learn_daily"]?.bool() ?? false
        if let at = fields["learn_at"] { c.learnAt = try TimeOfDay.parse(at, example: "12:00") }
        return c
    }
}
