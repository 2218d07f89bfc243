import FoundationEssentials
import Glibc
import Logging
import ServiceLifecycle
import SomniqAudio
import SomniqConfig
import SomniqReports
import SomniqSession
import SomniqSinks
import SomniqSupport
import Synchronization
import SomniqCore
import SomniqLog

/// `somniq run` as a service: the capture device's stream (a `DeviceSource`: the command
/// gives it `SomniqCapture`'s `CaptureSource`, so that this module holds no ALSA) through a
/// session made as every front end makes it (`SessionFactory`), to the event log first
/// (the record of truth), then the notification sinks, the metrics and the journal.
///
/// Everything the session owns is touched on this actor only. Four things run on it,
/// one at a time, between blocks of audio: the stream; the control messages (a reload,
/// read off the actor so a slow disk never holds up the audio); a one-second timer
/// that rewrites the metrics when a sink delivered, failed or dropped; and, with
/// `"home": {"learn_daily": true}`, the daily learning of this home's memory
/// (`DailyLearning`: learned off the actor, then put in force between two blocks, as a
/// reload is). Graceful shutdown (SIGTERM, SIGINT) cancels them; the session then closes
/// its open events, lets the sinks deliver, writes `session_end` and closes the log.
public actor SessionService: Service {
    public struct Options: Sendable {
        public var config: DaemonConfig
        public var configPath: String?
        /// Values given on the command line: they win over the file, on reload too.
        public var overrides = DaemonConfig.Overrides()
        public var profileDirectory = "/etc/somniq/profiles"
        /// Stop after this much audio (for tests and fixtures); nil listens until signalled.
        public var maxSeconds: Double?
        /// Where the web page reads the session's state, when it is on.
        public var live: LiveState?
        /// Intervals on a monotonic clock, times on the wall clock.
        public var clocks = DaemonClocks.system
        /// This home's memory (`--home-rules`, else home-memory.txt beside the log).
        public var home: HomeMemory?
        /// The file it was read from, `--home-rules`; nil: home-memory.txt beside the log.
        /// The clip quota deletes first the clips of the labelled events it remembers.
        public var homeFile: String?
        /// The memory file in force.
        public var homePath: String { homeFile ?? HomeMemoryFile.besideLog(config.log) }
        /// This home's fit, beside the memory file (`HomeFitFile.beside(homePath)`).
        public var fit: HomeFit?
        /// The somniq binary the daily learning runs as `learn --home`, in a child process
        /// (`LearningProcess`): the daemon's own.
        public var executable = "/proc/self/exe"
        /// How long the daily learning may take before it is stopped.
        public var learnTimeout = Duration.seconds(3600)
        /// What the command refused before the session was made (this home's memory, the
        /// web page): said at start as the session's own refusals are.
        public var refused: [Refused] = []
        public init(config: DaemonConfig, configPath: String?) {
            self.config = config
            self.configPath = configPath
        }
    }

    /// Something optional that cannot be used at start: this home's memory, the clips or
    /// night-audio directory, the metrics file, the web page's token file. Nothing of it
    /// may stop the listening (the smoke alarm must be heard): the daemon listens without
    /// it, and says so in a critical `optional_refused` status record and a journal error
    /// saying what, where, and what to do. `run --check-config` refuses the same as errors
    /// (the metrics file aside).
    public struct Refused: Sendable, Equatable {
        /// `home_memory`, `clips`, `night_audio`, `metrics` or `http` (the web page).
        public var what: String
        public var path: String
        public var problem: String
        /// The journal's error: what, where, what listening goes without, and what to do.
        public var said: String

        public init(what: String, path: String, problem: String, said: String) {
            self.what = what
            self.path = path
            self.problem = problem
            self.said = said
        }

        /// This home's memory at `path` could not be read (`error` names the file).
        public static func homeMemory(path: String, error: String) -> Refused {
            Refused(what: "home_memory", path: path, problem: error,
                    said: "\(error); somniq listens without this home's memory (nothing is held back by it): "
                        + "fix or remove the file, or learn it again with somniq learn --home")
        }

        /// This home's fit at `path` could not be read (`error` names the file).
        public static func homeFit(path: String, error: String) -> Refused {
            Refused(what: "home_fit", path: path, problem: error,
                    said: "\(error); somniq listens with the shipped rules deciding every class (this home's fit decides none): "
                        + "fix or remove the file, or learn it again with somniq learn --home")
        }

        var details: [LogRecord.Status.Detail] { [.what(what), .path(path), .error(problem)] }
    }

    /// What a running daemon is told from outside the stream.
    public enum Control: Sendable {
        /// Re-read the configuration and profile (SIGHUP); keep the running ones if the new
        /// ones are invalid.
        case reload
    }

    public enum Failure: Error, CustomStringConvertible {
        case profile(ProfileError), log(LogWriteError), device(CaptureError)
        public var description: String {
            switch self {
            case let .profile(e): "\(e)"
            case let .log(e): "\(e)"
            case let .device(e): "\(e)"
            }
        }
    }

    /// What the service was started with, as handed in.
    private let options: Options
    /// The configuration in force: `options.config` until a reload puts a new value here.
    private var config: DaemonConfig
    private let controls: AsyncStream<Control>
    private let logger: Logger
    private let notifier = SystemdNotifier()
    private let source: any DeviceSource
    private let log: DurableLog
    private let session: Session
    private var pipeline: Pipeline { session.pipeline }
    private let clock: LiveClock
    private let clocks: DaemonClocks
    private let hub: SinkHub
    private let metrics: Metrics
    private var watchdog: WatchdogPacer?
    /// When the metrics file was last written, on the monotonic clock.
    private var lastMetrics: Duration
    private var metricsFailing = false
    /// Each sink's deliveries, failures and drops when `sinksChanged` last looked.
    private var lastSinkTotals: [Int] = []
    /// When the stream ended for a stop request: SIGTERM's 2 s count from then.
    private var stopSeen: Duration?
    /// The events the log's previous session left open, if it ended uncleanly.
    private let unclean: [UncleanEnd.OpenEvent]?
    /// When the last block of audio arrived, on the monotonic clock (a wall-clock step
    /// on a board without an RTC must neither raise nor hide a stall).
    private var lastAudio: Duration?
    /// Since when the room has not been heard (the device lost, or the capture stalled),
    /// until audio arrives again; and whether the stall has been said.
    private var unheardSince: Duration?
    private var stalled = false
    /// When this home's memory is learned next (`config.home`).
    private var daily: DailyLearning
    /// When the morning summary goes out next (`config.morningSummary`).
    private var morning: MorningSchedule

    /// Loads the profile and opens the log; the device is opened when the service runs.
    /// `source` is the capture of `options.config.device`.
    public init(options: Options, source: sending any DeviceSource, controls: AsyncStream<Control>, logger: Logger) throws(Failure) {
        self.options = options
        config = options.config
        self.controls = controls
        self.logger = logger
        clocks = options.clocks
        clock = LiveClock(clocks: options.clocks)
        lastMetrics = options.clocks.monotonic()
        watchdog = notifier.watchdogInterval.map { WatchdogPacer(interval: $0, clocks: options.clocks) }
        daily = DailyLearning(at: options.config.home.learnAt, last: DailyLearning.learned(options.home))
        morning = MorningSchedule(at: options.config.morningSummary.at, last: options.clocks.wall().timeIntervalSince1970)
        let profile: Profile
        do { profile = try ProfileLoader(directory: options.profileDirectory).load(options.config.profile) } catch {
            throw .profile(error)
        }
        // Read before this session writes its first record.
        unclean = UncleanEnd.scan(options.config.log)
        do { log = try DurableLog(path: options.config.log, logger: logger, clock: options.clocks.io) } catch { throw .log(error) }
        self.source = source
        hub = SinkHub(configs: options.config.sinksInForce, room: options.config.room, profile: profile, version: Release.version, logger: logger,
                      page: options.config.http, clock: options.clocks.io)
        metrics = Metrics(room: options.config.room, profile: profile)
        var factory = SessionFactory(profile: profile, watch: options.config.watchLimits)
        factory.home = options.home
        factory.fit = options.fit
        if options.config.clips.enabled {
            factory.clips = (options.config.clips.policy, options.config.clipsDirectory)
            let remembered = RememberedClips(log: options.config.log, memory: options.homePath)
            factory.clipsGoFirst = { remembered.names() }
        }
        if options.config.nightAudio.enabled { factory.nightAudio = (options.config.nightAudio, options.config.nightAudioDirectory) }
        let clock = clock, wall = clocks.wall
        session = factory.session(sinks: [log, hub, metrics, AlertJournal(logger: logger, time: clock.time)],
                                  idPrefix: "s\(Int(wall().timeIntervalSince1970))-e",
                                  times: .init(unix: clock.unix, now: { _ in WallClock.iso8601(wall()) }))
        log.streamSeconds = { [unowned session] in session.streamSeconds }
    }

    /// Listens until graceful shutdown or `maxSeconds` of audio. A device lost is
    /// `device_lost` (a critical alert) and is reopened by the source; only a
    /// permission error ends the session, thrown as `Failure.device`.
    public func run() async throws {
        if !hub.isEmpty {
            logger.info("sinks: \(config.sinks.map { "\($0.name) (\($0.typeName), \($0.minTier.rawValue) and above)" }.joined(separator: ", ")) for room \(config.room)")
        }
        // What is optional and cannot be used costs itself, never the session's start
        // record or the listening: a clips or night-audio path that is a file, a memory
        // file that cannot be read, a metrics file that cannot be written, a token file.
        var refused = options.refused
        if let clips = session.clips {
            do { try clips.prepare() } catch {
                refused.append(Refused(what: "clips", path: error.path, problem: error.problem,
                                       said: "\(error); no clips are kept this session"))
                session.clips = nil
            }
        }
        if let nightAudio = session.nightAudio {
            do { try nightAudio.prepare() } catch {
                refused.append(Refused(what: "night_audio", path: error.path, problem: error.problem,
                                       said: "\(error); no night audio is kept this session"))
                session.nightAudio = nil
            }
        }
        if let path = config.metricsPath {
            // Written once at start, so that a path that cannot take it is said now.
            do { try metrics.write(to: path) } catch {
                metricsFailing = true
                refused.append(Refused(what: "metrics", path: path, problem: "\(error)",
                                       said: "\(error); no metrics file is written until it can be (tried again every minute)"))
            }
        }
        deliver { try session.start(source.source) }
        homeInForce(journal: true)
        for r in refused {
            status(.optionalRefused, alert: true, details: r.details)
            logger.error("\(r.said)")
        }
        lastAudio = clocks.monotonic()
        if let unclean {
            logger.warning("the previous session ended without closing the log (killed, or a power cut); \(unclean.count) open event(s) closed as truncated")
            deliver { try session.closeUnclean(unclean) }
        }
        let reason: LogRecord.EndReason
        do {
            reason = try await listenUntilShutdown()
        } catch let error as CaptureError {
            deviceDown()
            status(.deviceLost, alert: true, details: [.error(error.description)])
            shutdown(reason: .deviceUnavailable)
            throw Failure.device(error)
        } catch {
            // Nothing else is thrown today; should anything be, the log still ends whole.
            shutdown(reason: .error)
            throw error
        }
        shutdown(reason: reason)
    }

    /// `listen`, cancelled when a graceful shutdown is asked (SIGTERM, SIGINT), as when the
    /// task is. ServiceLifecycle's `cancelWhenGracefulShutdown` did this with a waiter that
    /// an unstructured `Task {}` resumed, on the cooperative pool, and its task group waited
    /// for that waiter before `run` could write `session_end`: a stop needed a thread of the
    /// pool (a test holding them all hung there). Here the stop needs nothing beyond the
    /// executor the listening runs on (the pool in the product, a thread of its own in a test).
    private func listenUntilShutdown() async throws -> LogRecord.EndReason {
        let (shutdown, asked) = AsyncStream<Never>.makeStream()
        return try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: LogRecord.EndReason?.self) { group in
                group.addTask { try await self.listen() }
                // Ends when a shutdown is asked, or when the group is cancelled.
                group.addTask {
                    for await _ in shutdown {}
                    return nil
                }
                // The first to end cancels the other; `listen` then says why it ended.
                var reason = LogRecord.EndReason.signal
                for try await ended in group {
                    group.cancelAll()
                    if let ended { reason = ended }
                }
                return reason
            }
        } onGracefulShutdown: {
            asked.finish()
        }
    }

    /// The stream, the control messages and the metrics timer, until the stream ends:
    /// `end_of_input` after `maxSeconds`, `signal` when cancelled.
    private func listen() async throws -> LogRecord.EndReason {
        // Each second of the daemon's clock (a test's steps it by hand).
        let io = clocks.io
        @Sendable func tick() async -> Bool { (try? await io.sleep(until: io.now + .seconds(1))) != nil }
        return try await withThrowingDiscardingTaskGroup(returning: LogRecord.EndReason.self) { group in
            group.addTask { await self.takeControls() }
            group.addTask {
                while await tick() {
                    await self.checkStall()
                    await self.sinksChanged()
                    await self.publishLive()
                }
            }
            group.addTask {
                while await tick() { await self.learnHomeIfDue() }
            }
            group.addTask {
                while await tick() { await self.sendMorningSummaryIfDue() }
            }
            defer { group.cancelAll() }
            return try await hear()
        }
    }

    private func hear() async throws -> LogRecord.EndReason {
        let maxFrames = options.maxSeconds.map { Int64($0 * Double(StreamClock.sampleRate)) }
        for try await event in source {
            switch event {
            case let .samples(block):
                let count = maxFrames.map { Swift.min(block.samples.count, Int(Swift.max(0, $0 - pipeline.streamFrames))) } ?? block.samples.count
                if stalled { resumed() }
                lastAudio = clocks.monotonic()
                // Timed before the samples go in: the events they confirm are timed by it. A
                // block arrived when its read returned, not when its turn came in the queue:
                // the capture thread stamps that on the daemon's clock (`clocks.io`, the
                // capture's), so its wait is measured on it.
                let start = session.streamSeconds
                clock.heard(from: start, to: start + StreamClock.seconds(Int64(count)),
                            waited: block.read.map { (clocks.io.now - $0).inSeconds } ?? 0)
                deliver { try session.push(UnsafeBufferPointer(rebasing: block.samples[0..<count])) }
                log.flush()
                metrics.deviceUp = true
                metrics.lastAudio = clocks.wall()
                pingWatchdog()
                everyMinute()
                if let maxFrames, pipeline.streamFrames >= maxFrames { return .endOfInput }
            case .listening:
                let now = clocks.wall().timeIntervalSince1970
                options.live?.update {
                    $0.stalled = false
                    $0.listening = true
                    $0.since = now
                    $0.lastAudio = $0.since
                    $0.lost = nil
                }
                var details: [LogRecord.Status.Detail] = [.device(config.device)]
                if let since = unheardSince { details.append(.unheard(seconds(since: since).asLogged(1))) }
                unheardSince = nil
                stalled = false
                lastAudio = clocks.monotonic()
                status(.listening, details: details)
                notifier.notify("READY=1\nSTATUS=listening on \(LogText.escape(config.device))")
                logger.info("listening on \(config.device)")
            case let .overrun(frames):
                metrics.overrunFrames += frames
                status(.overrun, details: [.framesLost(frames)])
                logger.warning("capture overrun: \(frames) frames lost")
            case let .lost(error, retry, wasListening):
                deviceDown()
                if unheardSince == nil { unheardSince = lastAudio ?? clocks.monotonic() }
                stalled = false
                options.live?.update {
                    $0.listening = false
                    $0.lost = String(cFormat: "%@; retrying in %.0f s", error.description, retry)
                }
                status(.deviceLost, alert: true, details: [.error(error.description), .retry(retry)])
                logger.error("\(error); \(wasListening ? "reopening" : "retrying")")
            }
        }
        // The source ended by itself (`run --play`: the recording is played): end of input.
        if !Task.isCancelled { return .endOfInput }
        stopSeen = clocks.monotonic()
        return .signal
    }

    /// Closes open events (truncated), gives the sinks up to 1.5 s to deliver what they
    /// hold (then kills an exec program still running, with its process group), writes
    /// `session_end`, and flushes the log.
    ///
    /// Stopped by a signal, the whole must take less than 2 s (the unit's promise): the
    /// sinks get what is left of 1.2 s since the stop was seen, at least 0.3 s, since a
    /// reader blocked on a stalled device may take up to 1 s of it to let go.
    private func shutdown(reason: LogRecord.EndReason) {
        // Listening's code goes before stopping runs code of its own (closing events and
        // clips, the sinks, session_end), so the process does not hold both: about 2.4 MB
        // more at its end than while listening, the daemon's peak once starting had let go
        // (docs/benchmarks.md, "Live: the gates, and the peaks at start and at stop"). A
        // refusal was said at start, and costs memory only.
        _ = StartupPages.release()
        source.close()
        notifier.notify("STOPPING=1")
        // Clips still open are cut short and written, waiting up to 3 s for the disk; the
        // night audio's part under way is finished, within 0.5 s (a disk that holds it up
        // longer leaves it readable, without its length in its header).
        deliver { try session.finish(clipsWithin: .seconds(3), nightAudioWithin: .milliseconds(500)) }
        hub.shutdown(within: stopSeen.map { Swift.max(.milliseconds(300), .milliseconds(1200) - (clocks.monotonic() - $0)) } ?? .milliseconds(1500))
        reportSinkDrops()
        metrics.deviceUp = false
        writeMetrics()
        deliver { try session.end(reason: reason) }
        log.close()
    }

    /// Runs a session step. The daemon's sinks do not throw (the log holds what the disk
    /// refuses; the hub queues); should one ever, it is said, and listening goes on.
    private func deliver(_ step: () throws -> Void) {
        do { try step() } catch { logger.error("\(error)") }
    }

    private func deviceDown() {
        guard metrics.deviceUp else { return }
        metrics.deviceUp = false
        writeMetrics()
    }

    /// Said when an open device has sent no audio for `stallSeconds` (checked each second):
    /// a critical `capture_stalled`, through every sink, and the page's "not listening".
    /// A stall is no loss to the capture (its read may return any moment), so the device
    /// is left open; when audio comes back, `resumed` says so.
    func checkStall() {
        // Before the first block, the wait counts from the start: a device that opens and
        // never sends anything is as deaf as one that stops.
        guard !stalled, unheardSince == nil, let last = lastAudio else { return }
        let quiet = seconds(since: last)
        guard quiet >= config.stallSeconds else { return }
        stalled = true
        unheardSince = last
        deviceDown()
        options.live?.update { $0.stalled = true }
        let device = config.device
        status(.captureStalled, alert: true, details: [.device(device), .seconds(quiet.asLogged(1))])
        notifier.notify("STATUS=no audio from \(LogText.escape(device))")
        logger.critical("no audio from \(device) for \(Int(quiet)) s: the device is open but sends nothing (a stuck USB device, a stalled sound server?); somniq cannot hear the room until audio comes back")
    }

    /// Audio arrives again after a stall: `listening`, with how long the room went unheard.
    /// (The stream stood still while the wall clock ran on: the block's arrival times it,
    /// by `LiveClock`'s rule.)
    private func resumed() {
        let unheard = unheardSince.map { seconds(since: $0) } ?? 0
        stalled = false
        unheardSince = nil
        options.live?.update { $0.stalled = false }
        let device = config.device
        status(.listening, details: [.device(device), .unheard(unheard.asLogged(1))])
        notifier.notify("STATUS=listening on \(LogText.escape(device))")
        logger.notice("audio from \(device) again after \(Int(unheard)) s without")
    }

    private func seconds(since instant: Duration) -> Double { (clocks.monotonic() - instant).inSeconds }

    /// Once a minute while audio arrives: the metrics file, and what sink
    /// queues dropped.
    private func everyMinute() {
        guard clocks.monotonic() - lastMetrics >= .seconds(60) else { return }
        reportSinkDrops()
        writeMetrics()
    }

    /// A sink delivered, failed or dropped since the metrics file was written: it is
    /// written again (at most once a second), and drops go to the log, so that a sink
    /// that has stopped delivering shows within seconds, not at the next minute.
    private func sinksChanged() {
        guard !hub.isEmpty, clocks.monotonic() - lastMetrics >= .seconds(1) else { return }
        let totals = hub.counts.flatMap { [$0.counts.delivered, $0.counts.failures, $0.counts.dropped] }
        guard totals != lastSinkTotals else { return }
        lastSinkTotals = totals
        reportSinkDrops()
        writeMetrics()
    }

    /// The web page's copy of the session's state: the level now, the last audio, the metrics.
    private func publishLive() {
        guard let live = options.live else { return }
        metrics.sinks = hub.counts
        metrics.streamSeconds = session.streamSeconds
        let text = metrics.render()
        let level = Double(pipeline.levelDbfs), floor = Double(pipeline.floorDbfs)
        let last = metrics.lastAudio?.timeIntervalSince1970
        let seconds = session.streamSeconds
        live.update {
            $0.levelDbfs = level
            $0.floorDbfs = floor
            $0.lastAudio = last
            $0.streamSeconds = seconds
            $0.metrics = text
            $0.profile = self.pipeline.profile.name
        }
    }

    private func reportSinkDrops() {
        for (name, dropped) in hub.newDrops() {
            status(.sinkDropped, details: SinkHub.droppedDetails(sink: name, dropped: dropped))
            logger.warning("sink \(name): \(dropped) notifications dropped (queue full or endpoint down); the event log has them all")
        }
    }

    private func writeMetrics() {
        lastMetrics = clocks.monotonic()
        guard let path = config.metricsPath else { return }
        metrics.sinks = hub.counts
        metrics.streamSeconds = session.streamSeconds
        do {
            try metrics.write(to: path)
            if metricsFailing { logger.notice("metrics file writable again: \(LogText.escape(path))") }
            metricsFailing = false
        } catch {
            if !metricsFailing { logger.error("\(error)") }
            metricsFailing = true
        }
    }

    /// The control messages, one at a time, until the stream ends. A reload is read on a
    /// thread of its own (`onAThreadOfItsOwn`); one being read when the stream ends is left
    /// to finish alone, and dropped: the session's shutdown does not wait for a slow disk.
    private func takeControls() async {
        for await control in controls {
            switch control {
            case .reload:
                let options = options, running = config
                guard let prepared = await onAThreadOfItsOwn("somniq-reload", { Self.prepareReload(options, running: running) }),
                      !Task.isCancelled else { return }
                apply(prepared)
            }
        }
    }

    /// What a reload read: the configuration and its profile, or why it was refused.
    enum Prepared: Sendable {
        case config(DaemonConfig, Profile, HomeReload, FitReload)
        case configRejected(String)
        case profileRejected(String)
    }

    /// This home's memory, read again on a reload (after `somniq learn --home` by hand).
    enum HomeReload: Sendable {
        /// No memory file: the memory in force (if any) stays.
        case none
        case memory(HomeMemory)
        /// The file could not be read: the memory in force stays.
        case refused(String)
    }

    /// This home's fit, read again on a reload, beside the memory file.
    enum FitReload: Sendable {
        /// No fit file: the fit in force (if any) stays.
        case none
        case fit(HomeFit)
        /// The file could not be read: the fit in force stays.
        case refused(String)
    }

    /// Reads and validates the configuration and the profile for a reload, off the actor:
    /// the file again, with the command line's values over it (`running` without a file).
    nonisolated static func prepareReload(_ options: Options, running: DaemonConfig) -> Prepared {
        var config = running
        if let path = options.configPath {
            // The clips and night-audio directories and the web page are a restart's (as at
            // start, one that cannot be used is listened without): a reload does not check them.
            do { config = try DaemonConfig.read(path: path, checkingOptional: false).overridden(by: options.overrides) } catch {
                return .configRejected(error.description)
            }
        }
        let profile: Profile
        do { profile = try ProfileLoader(directory: options.profileDirectory).load(config.profile) } catch {
            return .profileRejected(error.description)
        }
        // The memory file in force, read here, off the audio path (it may be tens of MB).
        // The running log's (a log moved by a reload takes effect after a restart).
        var home = HomeReload.none
        if HomeMemoryFile.present(options.homePath) {
            do { home = .memory(try HomeMemoryFile.read(path: options.homePath)) } catch { home = .refused(error.description) }
        }
        var fit = FitReload.none
        do { if let f = try HomeFitFile.readBeside(options.homePath) { fit = .fit(f) } } catch { fit = .refused(error.description) }
        return .config(config, profile, home, fit)
    }

    /// Puts a prepared reload in force, between two blocks of audio.
    private func apply(_ prepared: Prepared) {
        switch prepared {
        case let .configRejected(error):
            status(.profileRejected, details: [.error(error)])
            logger.error("reload refused, keeping the running configuration: \(error)")
        case let .profileRejected(error):
            status(.profileRejected, details: [.error(error)])
            logger.error("reload refused, keeping profile \(pipeline.profile.name): \(error)")
        case let .config(new, profile, home, fit):
            deliver { try session.reload(profile) }
            let running = config
            config = running.reloaded(from: new)
            pipeline.watchLimits = config.watchLimits
            var details: [LogRecord.Status.Detail] = [.profile(profile.name), .profileSHA256(profile.sha256)]
            if running.restartNeeded(for: new) {
                details.append(.restartNeeded("device, log, night_audio and http changes take effect after a restart"))
                logger.warning("device, log, night_audio and http changes take effect after a restart (systemctl restart somniq)")
            }
            switch home {
            case .none: break
            case let .memory(memory):
                if pipeline.replaceHome(memory) {
                    details.append(.home(HomeMemoryFile.summary(memory)))
                    logger.info("reloaded this home's memory: \(options.homePath): \(HomeMemoryFile.summary(memory))")
                    homeInForce(journal: false)
                } else {
                    details.append(.homeRefused("this session computes no learned inputs (it has no learned rules)"))
                    logger.warning("this home's memory is not in force: this session has no learned rules; restart somniq to use it")
                }
            case let .refused(error):
                details.append(.homeRefused(error))
                logger.warning("this home's memory was not reloaded; the one in force is kept: \(error)")
            }
            switch fit {
            case .none: break
            case let .fit(f):
                pipeline.homeFit = f
                details.append(.homeFit(HomeFitFile.said(f)))
                logger.info("reloaded this home's fit: \(HomeFitFile.beside(options.homePath)): \(HomeFitFile.said(f))")
                homeInForce(journal: false)
            case let .refused(error):
                details.append(.homeFitRefused(error))
                logger.warning("this home's fit was not reloaded; the one in force is kept: \(error)")
            }
            status(.profileReloaded, details: details)
            logger.info("reloaded profile \(profile.name)")
        }
    }

    /// This home's memory in force.
    var homeMemory: HomeMemory? { pipeline.homeMemory }
    /// This home's fit in force.
    var homeFit: HomeFit? { pipeline.homeFit }

    /// Says what this home's memory and fit in force hold, for /healthz and the page, and
    /// with `journal` in the journal (at start: a reload and the daily learning say what they
    /// put in force in their own lines).
    private func homeInForce(journal: Bool) {
        let holdings = homeMemory.map(HomeMemoryFile.holdings)
        let fit = pipeline.homeFit.map(HomeFitFile.said)
        options.live?.update {
            $0.home = holdings
            $0.homeFit = fit
        }
        if journal, let holdings { logger.info("\(holdings)") }
        if journal, let fit { logger.info("\(fit)") }
    }

    /// With `"home": {"learn_daily": true}`, learns this home's memory when it is due
    /// (`DailyLearning`, on the wall clock), as `somniq learn --home` would from the log,
    /// with the profile in force: in a child process (`LearningProcess`), so that nothing
    /// the learning meets, a trap included, can stop the listening. The memory file in
    /// force (`homePath`) is rewritten whole, and the new memory put in force between two
    /// blocks; one journal line says what was learned, or why not (no label yet, a log
    /// that cannot be read, a disk that refuses), and the memory in force is then kept. A
    /// child that ends without saying (a signal, an exit status, a timeout) is also a
    /// `home_learning_failed` status record naming the signal or status. Returns once the
    /// learning is done, or at once when the task is cancelled (the child is killed).
    func learnHomeIfDue() async {
        guard config.home.learnDaily else { return }
        daily.at = config.home.learnAt
        let now = clocks.wall()
        guard daily.due(now: now.timeIntervalSince1970) else { return }
        daily.last = now.timeIntervalSince1970
        let child = LearningProcess(executable: options.executable, log: config.log, output: options.homePath, profile: config.profile,
                                    profileDirectory: options.profileDirectory, now: now, timeout: options.learnTimeout, clock: clocks.io)
        guard let learned = await child.run(), !Task.isCancelled else { return }
        switch learned {
        case let .refused(error):
            logger.warning("this home's memory was not learned; the one in force is kept: \(error)")
        case let .failed(failure):
            status(.homeLearningFailed, details: failure.details)
            logger.warning("this home's memory was not learned; the one in force is kept: \(failure)")
        case let .learned(memory, report):
            var said = "learned this home's memory: \(child.output): \(HomeMemoryFile.summary(memory))"
            if let reused = report.reusedText { said += "; " + reused }
            if report.missing > 0 { said += "; \(report.missing) labelled event(s) left out (somniq learn --home says which and why)" }
            if report.skipped > 0 {
                said += "; \(report.skipped) labelled event(s) skipped, their log records damaged (somniq learn --home says which and why)"
            }
            if report.notFound > 0 { said += "; \(report.notFound) label(s) name no event the log holds (somniq learn --home says which)" }
            if let refused = report.previousRefused { said += "; the memory it replaced was not kept: \(refused)" }
            // The fit the child wrote beside the memory: one that cannot be read leaves the one in force.
            do {
                if let fit = try HomeFitFile.readBeside(child.output) {
                    pipeline.homeFit = fit
                    said += "; " + HomeFitFile.said(fit)
                }
            } catch {
                logger.warning("this home's fit was not put in force; the one in force is kept: \(error)")
            }
            if pipeline.replaceHome(memory) {
                logger.info("\(said); in force now")
            } else {
                logger.warning("\(said); not in force: this session computes no learned inputs (it has no learned rules); restart somniq to use it")
            }
            // The fit is in force either way.
            homeInForce(journal: false)
        }
    }

    /// At `morning_summary.at` (`MorningSchedule`, on the wall clock), last night in three
    /// lines (`MorningSummary`, from the log, read off the actor) into the log, as a
    /// `morning_summary` record the night's page shows, and to the sinks that take it; one
    /// journal line says what was sent, or why nothing was (no night in the log). Returns
    /// at once when it is not due or it is off.
    func sendMorningSummaryIfDue() async {
        guard config.morningSummary.enabled else { return }
        morning.at = config.morningSummary.at
        let now = clocks.wall()
        guard let slot = morning.due(now: now.timeIntervalSince1970) else { return }
        morning.last = now.timeIntervalSince1970
        let key = MorningSchedule.night(before: slot), path = config.log, page = config.http
        // The log read on a thread of its own; nothing is sent when the task is cancelled first.
        let reading = await onAThreadOfItsOwn("somniq-summary") { () -> (summary: MorningSummary?, error: String?) in
            do {
                let summary = MorningSummary(try NightReports.night(in: path, key: key), page: page)
                return (summary, summary == nil ? "the night of \(key) has no wall-clock times" : nil)
            } catch { return (nil, "\(error)") }
        }
        guard let read = reading, !Task.isCancelled else { return }
        guard let summary = read.summary else {
            logger.notice("no morning summary: \(read.error ?? "")")
            return
        }
        let time = WallClock.iso8601(now)
        log.append(summary.record(room: config.room, time: time).json)
        log.flush()
        let sent = hub.morningSummary(summary, time: time)
        logger.info("morning summary of the night of \(key) sent to \(sent) sink\(sent == 1 ? "" : "s"): \(summary.headline)")
    }

    /// Tied to audio arriving: a stalled device stops the pings, and systemd restarts us.
    private func pingWatchdog() {
        guard watchdog?.due() == true else { return }
        notifier.notify("WATCHDOG=1")
    }

    private func status(_ name: LogStatus, alert: Bool = false, details: [LogRecord.Status.Detail] = []) {
        deliver { try session.status(name, alert: alert, details: details) }
    }
}

/// `body` on a thread of its own (`PosixThread`), never on Swift's cooperative pool, whose
/// few threads a blocking read of the disk must not hold (the session's listening runs
/// there in the product); nil at once when the calling task is cancelled, before or while
/// it waits: the thread then finishes alone, and what it returns is dropped.
func onAThreadOfItsOwn<T: Sendable>(_ name: String, _ body: @escaping @Sendable () -> T) async -> T? {
    guard !Task.isCancelled else { return nil }
    let first = FirstResult<T>()
    PosixThread.start(name: name) { first.set(body()) }
    return await withTaskCancellationHandler {
        await first.value()
    } onCancel: {
        first.set(nil)
    }
}

/// The first of several results, awaited once: whichever `set` comes first wins, before
/// or after `value` is awaited.
final class FirstResult<T: Sendable>: Sendable {
    private struct State {
        var result: T??
        var waiter: CheckedContinuation<T?, Never>?
    }
    private let state = Mutex(State())

    func set(_ value: T?) {
        let waiting: CheckedContinuation<T?, Never>?? = state.withLock { s in
            guard s.result == nil else { return nil }
            s.result = .some(value)
            defer { s.waiter = nil }
            return .some(s.waiter)
        }
        if case let .some(waiter?) = waiting { waiter.resume(returning: value) }
    }

    /// Whether `value` is being awaited, no result set yet.
    var awaited: Bool { state.withLock { $0.waiter != nil } }

    func value() async -> T? {
        await withCheckedContinuation { c in
            let result: T?? = state.withLock { s in
                if s.result == nil { s.waiter = c }
                return s.result
            }
            if let result { c.resume(returning: result) }
        }
    }
}
