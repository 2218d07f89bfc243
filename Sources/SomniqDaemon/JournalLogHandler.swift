import FoundationEssentials
import Glibc
import Logging
import SomniqSupport
import Synchronization

/// The daemon's own messages on standard error. When stderr is the journal (systemd
/// sets `$JOURNAL_STREAM` to its device and inode), each line starts with its syslog
/// priority (`<2>` … `<7>`, sd-daemon(3)), so `journalctl -u somniq -p crit` shows the
/// critical alerts; elsewhere a line carries a UTC time (of the clock it is given) and the
/// level in words.
/// Message text is escaped: a name from outside cannot end the line or forge a priority.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let journal: Bool
    private let clock: any IOClock

    public init(journal: Bool = JournalLogHandler.stderrIsJournal(), clock: any IOClock = SystemClock()) {
        self.journal = journal
        self.clock = clock
    }

    /// One line at a time on standard error, whichever handler writes it.
    private static let writing = Mutex(())

    /// True when standard error is the stream `$JOURNAL_STREAM` names.
    public static func stderrIsJournal(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]) else { return false }
        var st = stat()
        guard fstat(STDERR_FILENO, &st) == 0 else { return false }
        return UInt64(st.st_dev) == dev && UInt64(st.st_ino) == ino
    }

    /// The syslog priority of a level: critical → LOG_CRIT (2) … debug → LOG_DEBUG (7).
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .critical: 2
        case .error: 3
        case .warning: 4
        case .notice: 5
        case .info: 6
        case .debug, .trace: 7
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let out = line(event)
        // Nowhere to report a failure to write to stderr.
        Self.writing.withLock { _ in _ = writeAll(STDERR_FILENO, Array(out.utf8)) }
    }

    /// The line `event` is written as.
    func line(_ event: LogEvent) -> String {
        let level = event.level
        var text = LogText.escape(event.message.description)
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        if !all.isEmpty {
            text += " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\(LogText.escape("\($0.value)"))" }.joined(separator: " ")
        }
        return journal ? "<\(Self.priority(level))>\(text)\n"
            : "\(WallClock.iso8601(Date(timeIntervalSince1970: clock.unix))) \(level.rawValue) somniq: \(text)\n"
    }
}
