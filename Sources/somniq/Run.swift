import ArgumentParser
import Dispatch
import Foundation
import Logging
import SomniqCore
import SomniqIO

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Listen on an ALSA capture device and log the night's events (the daemon).",
        discussion: """
        Reads /etc/somniq/config.json (or --config) for the device, profile and log path; \
        options given here override it. SIGTERM or SIGINT closes open events, writes \
        session_end and exits 0; SIGHUP reloads the configuration and profile, keeping the \
        old ones if the new ones are invalid. Under systemd (Type=notify) it reports READY=1 \
        once audio arrives and pings the watchdog only while audio keeps arriving.
        """)

    @Option(help: "ALSA capture device (see `somniq devices`).")
    var device: String?

    @Option(help: "Profile name or path to a profile JSON file.")
    var profile: String?

    @Option(help: "Configuration file.")
    var config: String?

    @Option(help: "Event log (JSON Lines), appended to.")
    var log: String?

    @Flag(help: "Validate the configuration and profile, then exit.")
    var checkConfig = false

    @Option(help: "Stop after this many seconds of audio (for fixtures and tests).")
    var maxSeconds: Double?

    @Option(name: .customLong("profile-dir"), help: ArgumentHelp("Directory searched for named profiles.", visibility: .hidden))
    var profileDirectory = "/etc/somniq/profiles"

    func run() throws {
        // `systemctl reload` may come before the handlers are in place: ignore it until then.
        signal(SIGHUP, SIG_IGN)
        let defaultPath = "/etc/somniq/config.json"
        let configPath = config ?? (FileManager.default.fileExists(atPath: defaultPath) ? defaultPath : nil)
        var settings = DaemonConfig()
        if let configPath {
            do { settings = try DaemonConfig.read(path: configPath) } catch { throw fail("\(error)", Exit.dataError) }
        }
        if let device { settings.device = device }
        if let profile { settings.profile = profile }
        if let log { settings.log = log }

        if checkConfig {
            do {
                let p = try ProfileLoader(directory: profileDirectory).load(settings.profile)
                print("\(configPath ?? "(built-in defaults)"): ok — device \(settings.device), profile \(p.name), log \(settings.log)")
                return
            } catch {
                throw fail("\(error)", Exit.dataError)
            }
        }

        // A full disk or a file-size limit must fail a write (and be handled), not kill us.
        signal(SIGXFSZ, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        LoggingSystem.bootstrap { _ in JournalLogHandler() }
        var logger = Logger(label: "somniq")
        logger.logLevel = .info
        var options = LiveSession.Options(config: settings, configPath: configPath)
        options.maxSeconds = maxSeconds
        options.deviceOverride = device
        options.profileOverride = profile
        options.logOverride = log
        options.profileDirectory = profileDirectory
        let session: LiveSession
        do { session = try LiveSession(options: options, logger: logger) } catch {
            switch error {
            case .profile: throw fail("\(error)", Exit.dataError)
            case .log: throw fail("\(error)", Exit.ioError)
            case .device: throw fail("\(error)", Exit.unavailable)
            }
        }
        let signals = SignalHandlers(stop: session.requestStop, reload: session.requestReload)
        defer { withExtendedLifetime(signals) {} }
        do { try session.run() } catch {
            throw fail("\(error)", Exit.unavailable)
        }
    }
}

/// SIGTERM/SIGINT ask the session to stop; SIGHUP asks it to reload.
final class SignalHandlers {
    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "somniq.signals")

    init(stop: @escaping @Sendable () -> Void, reload: @escaping @Sendable () -> Void) {
        for (sig, action) in [(SIGTERM, stop), (SIGINT, stop), (SIGHUP, reload)] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler(handler: action)
            source.resume()
            sources.append(source)
        }
    }
}

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List ALSA capture devices.")

    func run() throws {
        let devices = AlsaCapture.devices()
        if devices.isEmpty {
            throw fail("no ALSA capture devices found; is a microphone connected and the user in the `audio` group?", Exit.unavailable)
        }
        let width = min(40, devices.map(\.name.count).max() ?? 0) + 2
        for d in devices { print(d.name.padding(toLength: width, withPad: " ", startingAt: 0) + d.description) }
    }
}
