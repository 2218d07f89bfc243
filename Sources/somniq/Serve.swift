import ArgumentParser
import FoundationEssentials
import Glibc
import Logging
import ServiceLifecycle
import SomniqConfig
import SomniqCore
import SomniqDaemon
import SomniqSupport
import SomniqWeb

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the web page of an event log and its clips, without listening.",
        discussion: """
        The pages `somniq run` serves when "http" is configured, for a log and clips \
        copied elsewhere: / (tonight so far), /night/YYYY-MM-DD (a night's report, its \
        clips playable), /history, /api/... (the same as JSON), /metrics (the textfile \
        somniq.prom beside the log, if there is one) and /healthz. A loopback address \
        needs no token; any other needs --token-file. The log is only read; the index \
        that finds its nights fast is kept beside it (LOG.index) when its folder is \
        writable, else in memory. SIGTERM or SIGINT stops it.
        """)

    @Option(help: "The event log (JSON Lines).", completion: .file())
    var log: String

    @Option(help: "The clips directory (default: clips/ beside the log).", completion: .directory)
    var clips: String?

    @Option(help: "The address and port to serve on: 127.0.0.1:8080, 0.0.0.0:8080, [::1]:8080.")
    var listen = "127.0.0.1:8080"

    @Option(help: "A file holding the token (mode 600); needed for any address but a loopback one.", completion: .file())
    var tokenFile: String?

    @OptionGroup var zone: ZoneOption

    func run() async throws {
        try zone.use()
        let http: HTTPConfig
        do { http = try HTTPConfig.options(listen: listen, tokenFile: tokenFile) } catch {
            let message = error.problem.contains("needs a token")
                ? "--listen \(listen) is not a loopback address: give --token-file FILE (a token of 16 or more letters and digits, mode 600)"
                : "--\(error.keyPath.isEmpty ? "listen" : error.keyPath.replacing("_", with: "-")): \(error.problem)"
            throw fail(message, Exit.usage)
        }
        var st = stat()
        guard stat(log, &st) == 0 else { throw fail("\(log): cannot open the log: \(String(cString: strerror(errno)))", Exit.dataError) }
        guard st.st_mode & S_IFMT == S_IFREG else { throw fail("\(log): is not a file; give the event log (a .jsonl file)", Exit.dataError) }
        LoggingSystem.bootstrap { _ in JournalLogHandler() }
        var logger = Logger(label: "somniq")
        logger.logLevel = .info
        let folder = PathText.deletingLastComponent(log).isEmpty ? "." : PathText.deletingLastComponent(log)
        let settings = WebServer.Settings(http: http, log: log, clips: clips ?? folder + "/clips",
                                          version: Release.version, metricsFile: folder + "/somniq.prom")
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: WebServer.service(settings, logger: logger, failsAlone: false))],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        do { try await group.run() } catch {
            throw fail("\(error)", Exit.unavailable)
        }
    }
}
