import Foundation
import Logging
import SomniqCore
import SomniqLog
@testable import SomniqIO
import Synchronization

/// The journal lines a daemon writes, kept for the test to read.
final class JournalLines: Sendable {
    let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }

    struct Handler: LogHandler {
        let journal: JournalLines
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { journal.lines.withLock { $0.append("\(event.level): \(event.message)") } }
    }

    var logger: Logger { Logger(label: "somniq") { _ in Handler(journal: self) } }
}

/// A wall clock the test sets; the monotonic clock runs as it does.
final class Wall: Sendable {
    let now = Mutex(Date())
    func set(_ local: String) { now.withLock { $0 = Date(timeIntervalSince1970: WallClock.parse(local)!) } }
    var clocks: DaemonClocks {
        let origin = ContinuousClock.now
        return DaemonClocks(monotonic: { .now - origin }, wall: { self.now.withLock { $0 } })
    }
}

/// A device the service is never asked to hear: what the daemon does at a time of day (its
/// daily learning, its morning summary) is driven through its scheduler seams, on the
/// wall clock it is given.
struct NoDevice: DeviceSource {
    var source: LogRecord.SessionStart.Source { .device(name: "none") }
    func close() {}
    func makeAsyncIterator() -> AsyncThrowingStream<AudioEvent, any Error>.Iterator {
        AsyncThrowingStream { $0.finish() }.makeAsyncIterator()
    }
}
