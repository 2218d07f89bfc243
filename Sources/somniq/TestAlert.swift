import ArgumentParser
import FoundationEssentials
import Glibc
import Logging
import SomniqConfig
import SomniqCore
import SomniqSinks
import SomniqSupport

/// `somniq test-alert`: one test notification through every configured sink, to see the
/// whole chain work (or why not) before a night depends on it.
struct TestAlert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-alert",
        abstract: "Send a test notification through every configured sink and say what became of it.",
        discussion: """
        Reads /etc/somniq/config.json (or --config) for the sinks and the room, sends each \
        one a test notification at the critical tier (so it goes, and sounds, where an alarm \
        would), and prints per sink whether it was delivered or why not: a webhook's HTTP \
        answer, an exec program's exit, an MQTT broker's acknowledgement. Exits 69 if any \
        sink failed. Safe to run beside the daemon: it logs nothing.

        The sinks are tried all at once, each for at most --timeout, whatever its own \
        timeout_s: a webhook's request is then cut short, an exec program killed. Each is \
        sent the test once, and again (three times at most) only when no connection could \
        be made: a service that answered, even with an error, may have delivered it.
        """)

    @Option(help: "Configuration file.")
    var config: String?

    @Option(help: "Only the sink of this name (see the configuration's sinks; default: all).")
    var sink: String?

    @Option(help: "Seconds each sink is given to deliver (the sinks are tried at once).")
    var timeout: Double = 10

    func validate() throws {
        guard timeout > 0, timeout <= 120 else { throw ValidationError("--timeout must be between 0 and 120 seconds") }
    }

    func run() throws {
        let (settings, path): (DaemonConfig, String?)
        do { (settings, path) = try DaemonConfig.inForce(path: config) } catch { throw fail("\(error)", Exit.dataError) }
        let file = path ?? "(built-in defaults)"
        if let zone = settings.timeZone { TimeZoneName.use(zone) }
        var sinks = settings.sinks
        if let sink {
            sinks = sinks.filter { $0.name == sink }
            guard !sinks.isEmpty else {
                let names = settings.sinks.map(\.name).joined(separator: ", ")
                throw fail("\(file): no sink named \(sink)" + (names.isEmpty ? "" : " (there are: \(names))"), Exit.usage)
            }
        }
        guard !sinks.isEmpty else { throw fail("\(file): no sinks to test; add one under \"sinks\" in the configuration", Exit.dataError) }
        let profile: Profile
        do { profile = try ProfileLoader(directory: "/etc/somniq/profiles").load(settings.profile) } catch {
            throw fail("\(error)", Exit.dataError)
        }
        var logger = Logger(label: "somniq")
        logger.logLevel = .critical
        // The command's clock is the machine's: its deadlines, pauses and the time it sends.
        let clock = SystemClock()
        let results = SinkHub.sendTest(sinks, room: settings.room, profile: profile, version: Release.version,
                                       time: WallClock.iso8601(Date(timeIntervalSince1970: clock.unix)), timeout: .seconds(timeout),
                                       logger: logger, clock: clock)
        for r in results {
            let outcome = r.failure.map { "not delivered: \($0)" } ?? String(cFormat: "delivered in %.1f s", r.seconds)
            print(LogText.escape("\(r.sink) (\(r.type)): \(outcome)"))
        }
        if results.contains(where: { $0.failure != nil }) { throw Exit.unavailable }
    }
}
