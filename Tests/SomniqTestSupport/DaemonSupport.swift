// Built only where Swift Testing is: with the tests (`swift build` builds every target,
// and a release build has no Testing module).
#if canImport(Testing)
import Foundation
import Logging
@testable import SomniqAudio
import SomniqCore
@testable import SomniqDaemon
import SomniqLog
@testable import SomniqSupport
import Synchronization

/// The journal lines a daemon writes, kept for the test to read.
package final class JournalLines: Sendable {
    package let lines = Mutex<[String]>([])
    package var all: [String] { lines.withLock { $0 } }
    package init() {}

    package struct Handler: LogHandler {
        package let journal: JournalLines
        package var logLevel: Logger.Level = .info
        package var metadata: Logger.Metadata = [:]
        package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        package func log(event: LogEvent) { journal.lines.withLock { $0.append("\(event.level): \(event.message)") } }
    }

    package var logger: Logger { Logger(label: "somniq") { _ in Handler(journal: self) } }
}

/// A wall clock the test sets; the monotonic clock runs as it does.
package final class Wall: Sendable {
    package let now = Mutex(Date())
    package init() {}
    package func set(_ local: String) { now.withLock { $0 = Date(timeIntervalSince1970: WallClock.parse(local)!) } }
    package var clocks: DaemonClocks {
        let origin = ContinuousClock.now
        return DaemonClocks(monotonic: { .now - origin }, wall: { self.now.withLock { $0 } })
    }
}

/// A device the service is never asked to hear: what the daemon does at a time of day (its
/// daily learning, its morning summary) is driven through its scheduler seams, on the
/// wall clock it is given.
package struct NoDevice: DeviceSource {
    package init() {}
    package var source: LogRecord.SessionStart.Source { .device(name: "none") }
    package func close() {}
    package func makeAsyncIterator() -> AsyncThrowingStream<AudioEvent, any Error>.Iterator {
        AsyncThrowingStream { $0.finish() }.makeAsyncIterator()
    }
}
#endif
