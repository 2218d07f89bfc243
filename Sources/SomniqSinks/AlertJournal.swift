import Logging
import SomniqCore
import SomniqLog

/// The daemon's journal lines for what a session hears: each alert at its tier's
/// syslog priority (critical → LOG_CRIT, high → LOG_WARNING, medium → LOG_NOTICE,
/// low → LOG_INFO), and the input conditions that stop it hearing, at LOG_CRIT.
public final class AlertJournal: RecordSink {
    private let logger: Logger
    /// The wall-clock time of a stream time.
    private let time: (Double) -> String

    public init(logger: Logger, time: @escaping (Double) -> String) {
        self.logger = logger
        self.time = time
    }

    public func write(_ record: SessionRecord, logged: LogRecord?) {
        switch record {
        case let .output(.start(e)) where e.alert:
            logger.log(level: Self.level(e.tier), "\(e.tier.rawValue) alert: \(e.soundClass.rawValue) at \(time(e.onset))")
        case let .output(.input(c)):
            switch c.kind {
            case .silent: logger.critical("input is silent: the microphone may be muted or unplugged")
            case .clipping: logger.critical("input is clipping: lower the capture gain (alsamixer)")
            }
        default: break
        }
    }

    static func level(_ tier: Tier) -> Logger.Level {
        switch tier {
        case .critical: .critical
        case .high: .warning
        case .medium: .notice
        case .low: .info
        }
    }
}
