import FoundationEssentials
import Logging
import NIOConcurrencyHelpers
import SomniqCore
import SomniqReports
import SomniqSinks
import SomniqSupport

/// The web page's "send a test notification": what `somniq test-alert` does, through the
/// daemon's own sinks, one test at a time. POST only, with the token and from the page's
/// own origin (checked by the server before this), as every request that acts.
final class TestNotifier: Sendable {
    /// A sink still busy this long past `WebServer.testTimeout` is answered for as not delivered.
    static let grace = Duration.seconds(2)

    private let sinks: WebServer.Sinks?
    private let canSend: Bool
    private let version: String
    private let logger: Logger
    /// The tests' deadlines and the time they carry.
    private let clock: any IOClock
    /// A test is being sent.
    private let sending = NIOLockedValueBox(false)

    init(sinks: WebServer.Sinks?, canSend: Bool, version: String, logger: Logger, clock: any IOClock = SystemClock()) {
        self.sinks = sinks
        self.canSend = canSend
        self.version = version
        self.logger = logger
        self.clock = clock
    }

    func send() async -> WebSite.Reply {
        guard let sinks, !sinks.configs.isEmpty else {
            return .text(404, "no sinks to test: somniq run sends a test notification through the sinks of its configuration, and has none")
        }
        guard canSend else { return .text(403, "sending a test notification needs a token: set http.token in the configuration") }
        let busy = sending.withLockedValue { s in
            defer { s = true }
            return s
        }
        guard !busy else {
            var reply = WebSite.Reply.text(429, "a test notification is being sent; its result comes in a few seconds")
            reply.headers.append(("Retry-After", "\(Int((WebServer.testTimeout + Self.grace).inSeconds))"))
            return reply
        }
        defer { sending.withLockedValue { $0 = false } }
        var quiet = logger
        quiet.logLevel = .critical
        let results = await SinkHub.sendTestAtOnce(sinks.configs, room: sinks.room, profile: sinks.profile, version: version,
                                                   time: WallClock.iso8601(Date(timeIntervalSince1970: clock.unix)),
                                                   timeout: WebServer.testTimeout, grace: Self.grace, logger: quiet, clock: clock)
        let said = results.map { "\($0.sink) \($0.failure == nil ? "delivered" : "not delivered: \($0.failure!)")" }.joined(separator: "; ")
        logger.notice("a test notification from the web page: \(said)")
        return .html(HTMLReport.testResults(results, room: sinks.room, version: version))
    }
}
