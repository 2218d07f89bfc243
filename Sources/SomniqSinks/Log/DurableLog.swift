import FoundationEssentials
import Glibc
import Logging
import SomniqCore
import SomniqLog
import SomniqSupport

/// The daemon's event log: records are written and fsync'd in order; when the disk is
/// full or the file unwritable, they wait in a bounded memory queue (detection goes on)
/// and are written, still in order, as soon as the disk takes them again.
public final class DurableLog {
    public let path: String
    public let capacity: Int
    private var writer: EventLogWriter?
    private var pending: [JSONValue] = []
    private var dropped = 0
    /// When the disk started refusing writes; nil while writes succeed.
    private var failedSince: ContinuousClock.Instant?
    private var failure = ""
    /// While writes fail, the next attempt waits until then: a disk that refuses, or a
    /// lock another writer holds, is tried once a second, not at every block of audio.
    private var retryAt: ContinuousClock.Instant?
    private let logger: Logger
    /// The clock of the retries and of how long the disk refused (monotonic), and of the
    /// time written on `log_write_failed` (wall): the daemon's, a test's.
    private let clock: any IOClock
    /// Stream time now, for the records this log writes about itself.
    public var streamSeconds: () -> Double = { 0 }

    public init(path: String, capacity: Int = 20_000, logger: Logger, clock: any IOClock = SystemClock()) throws(LogWriteError) {
        self.path = path
        self.capacity = capacity
        self.logger = logger
        self.clock = clock
        writer = try EventLogWriter(path: path)
        writer?.lockWait = Self.lockWait
    }

    /// How long one attempt waits for another writer's lock (real time, as every wait for
    /// the lock: another process lets it go): they hold it for one `write(2)`, microseconds,
    /// so this is ample, and short enough that a writer stopped while holding it never
    /// keeps audio waiting.
    static let lockWait: Duration = .milliseconds(50)

    /// Queues `record` behind any waiting ones and writes as many as the disk takes.
    public func append(_ record: JSONValue) {
        if pending.count >= capacity {
            // Out of memory budget: the oldest waiting record gives way, and the loss is
            // reported in the log once the disk recovers.
            pending.removeFirst()
            dropped += 1
        }
        pending.append(record)
        flush()
    }

    /// Writes waiting records; call now and then while the disk is failing (`force`: try
    /// now, even within a second of the last failure).
    public func flush(force: Bool = false) {
        if !force, let retryAt, clock.now < retryAt { return }
        retryAt = nil
        while !pending.isEmpty {
            do {
                let w = try openWriter()
                if let since = failedSince {
                    // The disk takes writes again: first say, in the log itself, that it
                    // could not be written for a while and how many records waited.
                    var details: [LogRecord.Status.Detail] = [.error(failure), .recordsHeld(pending.count)]
                    if dropped > 0 { details.append(.recordsDropped(dropped)) }
                    details.append(.seconds(since.duration(to: clock.now).inSeconds.asLogged(1)))
                    try w.append(LogRecord.status(.init(.logWriteFailed, streamSeconds: streamSeconds(), details: details,
                                                        time: WallClock.iso8601(Date(timeIntervalSince1970: clock.unix)))))
                    failedSince = nil
                    dropped = 0
                    logger.notice("event log writable again: \(path); writing \(pending.count) held records")
                }
                try w.append(pending[0])
                pending.removeFirst()
            } catch {
                retryAt = clock.now + .seconds(1)
                if failedSince == nil {
                    failedSince = clock.now
                    failure = error.description
                    logger.critical("log_write_failed: \(error); holding records in memory (up to \(capacity)) until the disk recovers")
                }
                return
            }
        }
    }

    /// Last attempt at shutdown: records the disk still refuses go to standard error
    /// (the journal, under systemd) as JSON, so they are not lost with the process.
    public func close() {
        flush(force: true)
        guard !pending.isEmpty else { return }
        logger.critical("event log still unwritable at shutdown; \(pending.count) records follow on stderr")
        for record in pending { StandardError.write(("somniq-unwritten: " + record.compactText + "\n")) }
        pending.removeAll()
    }

    private func openWriter() throws(LogWriteError) -> EventLogWriter {
        if let writer { return writer }
        let w = try EventLogWriter(path: path)
        w.lockWait = Self.lockWait
        writer = w
        return w
    }
}
