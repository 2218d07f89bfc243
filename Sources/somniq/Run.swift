import ArgumentParser
import FoundationEssentials
import Glibc
import Logging
import ServiceLifecycle
import SomniqAudio
import SomniqCapture
import SomniqConfig
import SomniqCore
import SomniqDaemon
import SomniqSinks
import SomniqSupport
import SomniqWeb

struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Listen on an ALSA capture device and log the night's events (the daemon).",
        discussion: """
        Reads /etc/somniq/config.json (or --config) for the device, profile and log path; \
        options given here override it. SIGTERM or SIGINT closes open events, writes \
        session_end and exits 0; SIGHUP reloads the configuration and profile, keeping the \
        old ones if the new ones are invalid. Under systemd (Type=notify) it reports READY=1 \
        once audio arrives and pings the watchdog only while audio keeps arriving. With \
        "home": {"learn_daily": true} it learns this home's memory as somniq learn --home \
        would, once a day at learn_at (12:00, local time), and puts it in force without a \
        restart. With --play FILE it hears a recording instead of a microphone, at real \
        time, through the same capture thread, sinks, page, clips and stall watch, and \
        stops at the recording's end: the way to try somniq without a microphone.
        """)

    @Option(help: "ALSA capture device (see `somniq devices`).")
    var device: String?

    @Option(help: ArgumentHelp("Hear this recording (any file `somniq replay` reads) at real time instead of a device, as if a microphone heard it; stop at its end.",
                               valueName: "file"), completion: .file())
    var play: String?

    @Option(help: "Profile name or path to a profile JSON file.", completion: .profiles())
    var profile: String?

    @Option(help: "Configuration file.")
    var config: String?

    @Option(help: "Event log (JSON Lines), appended to.")
    var log: String?

    @Flag(help: "Validate the configuration and profile, load the libraries its network sinks need, open the device and read one period from it, then exit.")
    var checkConfig = false

    @Option(help: "Stop after this many seconds of audio (for fixtures and tests).")
    var maxSeconds: Double?

    @Option(name: .customLong("profile-dir"), help: ArgumentHelp("Directory searched for named profiles.", visibility: .hidden))
    var profileDirectory = "/etc/somniq/profiles"

    @OptionGroup var home: HomeOptions

    func validate() throws {
        // A device name reaches systemd's status line and the journal: no control characters.
        if let device, let problem = ConfigText.problem(device) { throw ValidationError("--device \(problem)") }
        if let play, let problem = ConfigText.problem(play) { throw ValidationError("--play \(problem)") }
        if play != nil, device != nil { throw ValidationError("give --device or --play, not both") }
        if play != nil, checkConfig { throw ValidationError("--check-config checks a device; --play needs none") }
    }

    func run() async throws {
        // `systemctl reload` may come before the handlers are in place: ignore it until then.
        signal(SIGHUP, SIG_IGN)
        // The argument parser's pages (its reflection of the commands reads much of the
        // binary) go now, not with the rest below: starting then never holds them and the
        // session's at once, and starts no higher than listening holds (docs/benchmarks.md,
        // "Live: the gates, and the peaks at start and at stop"). What the kernel refuses
        // here it refuses below too, where it is said.
        _ = StartupPages.release()
        // The configuration and the profile are the daemon's own: either wrong, it cannot
        // start. What is optional (the clips and night-audio directories, this home's
        // memory, the web page's token file) is refused as an error by --check-config, the
        // user asking; the daemon listens without it, as without a metrics file it cannot
        // write (SessionService.Refused).
        var (settings, configPath): (DaemonConfig, String?)
        do { (settings, configPath) = try DaemonConfig.inForce(path: config, checkingOptional: checkConfig) } catch {
            throw fail("\(error)", Exit.dataError)
        }
        // A recording played is the session's device, named by its path; one that cannot
        // be read is refused before anything starts.
        if let play {
            do { _ = try PlayReader(path: play) } catch { throw fail("\(error)", Exit.dataError) }
        }
        let playFailure = PlayReader.Failure()
        let overrides = DaemonConfig.Overrides(device: play.map { "play:" + $0 } ?? device, profile: profile, log: log)
        settings = settings.overridden(by: overrides)
        if let zone = settings.timeZone { TimeZoneName.use(zone) }

        if checkConfig {
            // Clips and night audio beside a `--log` given here: a path that can never hold
            // them is refused.
            do { try settings.checkDirectories(file: configPath) } catch { throw fail("\(error)", Exit.dataError) }
            do { _ = try Self.homeMemory(home, log: settings.log) } catch { throw fail("\(error)", Exit.dataError) }
            do { _ = try HomeFitFile.readBeside(home.file ?? HomeMemoryFile.besideLog(settings.log)) } catch { throw fail("\(error)", Exit.dataError) }
            let p: Profile
            do { p = try ProfileLoader(directory: profileDirectory).load(settings.profile) } catch {
                throw fail("\(error)", Exit.dataError)
            }
            // The libraries of the configured network sinks, loaded as the daemon loads them.
            if let problem = SinkHub.unloadableLibrary(settings.sinks) { throw fail(problem, Exit.unavailable) }
            // The device as the daemon opens it, and one period read from it.
            let found: (AlsaCapture.Negotiated, AlsaCapture.Read)
            do { found = try AlsaCapture.check(device: settings.device) } catch { throw fail("\(error)", Exit.unavailable) }
            print(LogText.escape("\(configPath ?? "(built-in defaults)"): ok — device \(settings.device), profile \(p.name), log \(settings.log)"))
            print(LogText.escape("\(settings.device): capturing \(found.0); read \(found.1.frames) frames"))
            if let http = settings.http {
                print(LogText.escape("web page: http://\(http.listen)/ " + (http.token == nil ? "(loopback, no token)" : "(token required)")))
            }
            return
        }

        var options = SessionService.Options(config: settings, configPath: configPath)
        // The journal's UTC stamps (off systemd) are the daemon's clock's, as its records' are.
        let io = options.clocks.io
        LoggingSystem.bootstrap { _ in JournalLogHandler(clock: io) }
        var logger = Logger(label: "somniq")
        logger.logLevel = .info
        options.maxSeconds = maxSeconds
        options.overrides = overrides
        options.profileDirectory = profileDirectory
        options.homeFile = home.file
        if let refused = settings.httpRefused {
            options.refused.append(.init(what: "http", path: refused.path, problem: refused.error.problem,
                                         said: "\(refused.error); the web page is off this session: fix the token file, then restart somniq"))
        }
        do { options.home = try Self.homeMemory(home, log: settings.log) } catch {
            options.refused.append(.homeMemory(path: options.homePath, error: "\(error)"))
        }
        // This home's fit, beside the memory: one that cannot be read leaves the shipped rules deciding every class.
        if !home.noFit {
            do { options.fit = try HomeFitFile.readBeside(options.homePath) } catch {
                options.refused.append(.homeFit(path: HomeFitFile.beside(options.homePath), error: "\(error)"))
            }
        }
        // The web page, when configured: it reads the session's state, never the session.
        var web: WebService?
        if let http = settings.http {
            let live = LiveState(device: settings.device)
            let room = settings.room
            live.update { $0.room = room }
            options.live = live
            var page = WebServer.Settings(http: http, log: settings.log, clips: settings.clipsDirectory, version: Release.version, live: live)
            page.clock = io   // the page's "now" is the daemon's
            // The page's test notification goes through the sinks of this configuration (a
            // profile that cannot be loaded stops the session below, with its reason).
            if !settings.sinks.isEmpty, let profile = try? ProfileLoader(directory: profileDirectory).load(settings.profile) {
                page.sinks = .init(configs: settings.sinks, room: settings.room, profile: profile)
            }
            web = WebServer.service(page, logger: logger, failsAlone: true)
        }
        // SIGHUP becomes a reload message; one waiting while another is read is enough.
        let (controls, control) = AsyncStream.makeStream(of: SessionService.Control.self, bufferingPolicy: .bufferingNewest(1))
        let session: SessionService
        let device = settings.device
        let source = play.map { path in
            CaptureSource(device: device, clock: io) { () throws(CaptureError) in
                do throws(AudioFileError) { return try PlayReader(path: path, failed: playFailure, clock: io) } catch {
                    throw CaptureError(kind: .failed, device: device, message: error.description)
                }
            }
        } ?? CaptureSource(device: device, clock: io)
        do {
            session = try SessionService(options: options, source: source, controls: controls, logger: logger)
        } catch {
            switch error {
            case .profile: throw fail("\(error)", Exit.dataError)
            case .log:
                // Run by hand, as a user, the service's state directory is not there to write.
                let hint = settings.log == DaemonConfig.defaultLog
                    ? "; that is the default log, in the service's state directory: pass --log PATH, or set \"log\" in the configuration" : ""
                throw fail("\(error)\(hint)", Exit.ioError)
            case .device: throw fail("\(error)", Exit.unavailable)
            }
        }
        // What starting touched once (the argument parser, the configuration's readers, the
        // rules, FFTW's planner) goes before the device is opened; listening maps back the
        // code it runs (docs/ARCHITECTURE.md, "Lean"). Pages the kernel refuses (locked ones)
        // stay resident, which costs memory and nothing else: said, and listening goes on.
        if let refused = StartupPages.release() { logger.warning("\(refused)") }
        // SIGTERM and SIGINT shut the group down gracefully: the session closes open events,
        // writes session_end and lets the sinks deliver.
        // A group shuts its services down in reverse order, each after the one before has
        // ended: the session first (its session_end within the unit's 2 s), the web page last.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = web.map { [.init(service: $0)] } ?? []
        services += [
            // The stream may end (--max-seconds, a fixture): then the group ends with it.
            .init(service: session, successTerminationBehavior: .gracefullyShutdownGroup),
        ]
        let group = ServiceGroup(configuration: .init(
            services: services,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        // SIGHUP, from here on, is a reload message (the session reads it while it listens).
        let reload = ReloadSignal(control: control)
        defer { reload.cancel() }
        do { try await group.run() } catch {
            throw fail("\(error)", Exit.unavailable)
        }
        if let failure = playFailure.text { throw fail(failure, Exit.dataError) }
    }
}

extension Run {
    /// `--home-rules`, else the memory beside the log when there is one (anything at that
    /// path, a directory or a looping link included, is read, and refused by name).
    static func homeMemory(_ options: HomeOptions, log: String) throws(HomeMemoryFile.Error) -> HomeMemory? {
        let path = options.file ?? HomeMemoryFile.besideLog(log)
        guard options.file != nil || HomeMemoryFile.present(path) else { return nil }
        return try HomeMemoryFile.read(path: path)
    }
}

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List ALSA capture devices: the sound cards' capture hardware, and with --all ALSA's plugins.",
        discussion: """
        Each sound card device that can capture is listed with the name to give \
        `somniq run --device` (plughw:CARD=<id>,DEV=<n>: by card id, through ALSA's plug \
        layer, which converts to 16 kHz mono). Exits 69 when there is none (and, with \
        --all, no plugin either).
        """)

    @Flag(help: "Also list the plugins and virtual PCMs of ALSA's configuration (pulse, null, ~/.asoundrc).")
    var all = false

    func run() throws {
        let hardware = CaptureDevices.hardware()
        let plugins = all ? CaptureDevices.plugins() : []
        if hardware.isEmpty && plugins.isEmpty {
            throw fail(CaptureDevices.noHardware + (all ? "" : " `somniq devices --all` also lists ALSA's plugins (pulse, …)"),
                       Exit.unavailable)
        }
        try emit(CaptureDevices.listing(hardware: hardware, plugins: plugins), to: nil)
    }
}
