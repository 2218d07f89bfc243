import Foundation
import Logging
import SomniqCore

/// `somniq run`: listens on an ALSA device through exactly the replay pipeline, writes
/// the event log, tells the sinks, and keeps the metrics file, until told to stop.
public final class LiveSession {
    public struct Options: Sendable {
        public var config: DaemonConfig
        public var configPath: String?
        /// Values given on the command line: they win over the file, on reload too.
        public var overrides = DaemonConfig.Overrides()
        public var profileDirectory = "/etc/somniq/profiles"
        /// Stop after this much audio (for tests and fixtures); nil listens until signalled.
        public var maxSeconds: Double?
        public init(config: DaemonConfig, configPath: String?) {
            self.config = config
            self.configPath = configPath
        }
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

    private var options: Options
    private let logger: Logger
    private let notifier = SystemdNotifier()
    private let log: DurableLog
    private let session: Session
    private var pipeline: Pipeline { session.pipeline }
    private let transform = FFTWTransform(size: 1024)
    private let clock = StreamWallClock()
    private var lastWatchdog = Date.distantPast
    private let hub: SinkHub
    private let metrics: Metrics
    private var lastMetrics = Date()
    private var metricsFailing = false
    /// Each sink's deliveries, failures and drops when `sinksChanged` last looked.
    private var lastSinkTotals: [Int] = []

    /// When the loop saw a stop request: SIGTERM's 2 s count from then.
    private var stopSeen: Date?
    /// Set from signal handlers; read by the loop.
    private let stopRequested = Flag()
    private let reloadRequested = Flag()
    private let pendingReload = PendingReload()
    /// The events the log's previous session left open, if it ended uncleanly.
    private let unclean: [UncleanEnd.OpenEvent]?

    /// The session's records go to the event log first (the record of truth), then to
    /// the notification sinks, the metrics and the journal.
    public init(options: Options, logger: Logger, version: String) throws(Failure) {
        self.options = options
        self.logger = logger
        let profile: Profile
        do { profile = try ProfileLoader(directory: options.profileDirectory).load(options.config.profile) } catch {
            throw .profile(error)
        }
        // Read before this session writes its first record.
        unclean = UncleanEnd.scan(options.config.log)
        do { log = try DurableLog(path: options.config.log, logger: logger) } catch { throw .log(error) }
        let pipeline: Pipeline
        do {
            pipeline = try Pipeline(transform: transform, profile: profile, idPrefix: "s\(Int(Date().timeIntervalSince1970))-e",
                                    watch: options.config.watchLimits)
        } catch {
            fatalError("FFT length is fixed at 1024: \(error)")
        }
        hub = SinkHub(configs: options.config.sinks, room: options.config.room, profile: profile, version: version, logger: logger)
        metrics = Metrics(room: options.config.room, profile: profile)
        let clock = clock
        session = Session(pipeline: pipeline, sinks: [log, hub, metrics, AlertJournal(logger: logger, time: clock.time)],
                          version: version)
        session.times = .init(unix: clock.unix, now: { WallClock.iso8601(Date()) })
        let clips = options.config.clips
        if clips.enabled {
            session.clips = ClipCapture(policy: clips.policy, directory: options.config.clipsDirectory, profile: profile)
        }
        log.streamSeconds = { [unowned session] in session.streamSeconds }
    }

    /// Closures that signal handlers may call from any thread.
    public var requestStop: @Sendable () -> Void { let f = stopRequested; return { f.set() } }
    public var requestReload: @Sendable () -> Void { let f = reloadRequested; return { f.set() } }

    /// Listens until a stop is requested or `maxSeconds` of audio have been heard.
    ///
    /// A device that cannot be opened or goes away is logged (`device_lost`, a critical
    /// alert), then reopened with backoff (1, 2, 4 … 30 s) until it returns (`listening`).
    /// Only a permission error ends the session: waiting will not fix it.
    public func run() throws(Failure) {
        if !hub.isEmpty {
            logger.info("sinks: \(options.config.sinks.map { "\($0.name) (\($0.typeName), \($0.minTier.rawValue) and above)" }.joined(separator: ", ")) for room \(options.config.room)")
        }
        // A clips path that became a file since the configuration was checked costs the
        // clips, never the session's start record or the listening.
        if let clips = session.clips {
            do { try clips.prepare() } catch {
                logger.error("\(error); no clips are kept this session")
                session.clips = nil
            }
        }
        deliver { try session.start(.device(name: options.config.device)) }
        if let unclean {
            logger.warning("the previous session ended without closing the log (killed, or a power cut); \(unclean.count) open event(s) closed as truncated")
            deliver { try session.closeUnclean(unclean) }
        }
        let maxFrames = options.maxSeconds.map { Int64($0 * Double(StreamClock.sampleRate)) }
        var reason = "signal"
        var backoff = 1.0
        var lostReported = false
        session: while !stopRequested.isSet {
            let capture: AlsaCapture
            do { capture = try AlsaCapture(device: options.config.device) } catch {
                deviceDown()
                if error.kind == .permission {
                    status("device_lost", alert: true, details: [("error", .string(error.description))])
                    shutdown(reason: "device_unavailable")
                    throw .device(error)
                }
                if !lostReported {
                    lostReported = true
                    status("device_lost", alert: true, details: [("error", .string(error.description)),
                                                                 ("retry_s", .number(backoff))])
                    logger.error("\(error); retrying")
                }
                if sleep(backoff) { break session }
                backoff = min(30, backoff * 2)
                continue
            }
            let (outcome, readerExited) = listen(capture, maxFrames: maxFrames)
            // A reader still blocked in a read keeps the device; the process ends soon anyway.
            if readerExited { capture.close() }
            switch outcome {
            case .stopped:
                break session
            case .finished:
                reason = "end_of_input"
                break session
            case let .lost(error):
                deviceDown()
                status("device_lost", alert: true, details: [("error", .string(error.description)), ("retry_s", .number(1))])
                logger.error("\(error); reopening")
                lostReported = true
                backoff = 1
                if sleep(backoff) { break session }
                backoff = 2
            }
        }
        shutdown(reason: reason)
    }

    /// Closes open events (truncated), gives the sinks up to 1.5 s to deliver what they
    /// hold (then kills an exec program still running, with its process group), writes
    /// `session_end`, and flushes the log.
    ///
    /// Stopped by a signal, the whole must take less than 2 s (the unit's promise): the
    /// sinks get what is left of 1.2 s since the stop was seen, at least 0.3 s, since a
    /// reader blocked on a stalled device may have taken up to 1 s of it.
    private func shutdown(reason: String) {
        notifier.notify("STOPPING=1")
        // Clips still open are cut short and written, waiting up to 3 s for the disk.
        deliver { try session.finish(clipSeconds: 3) }
        hub.shutdown(within: stopSeen.map { max(0.3, 1.2 - Date().timeIntervalSince($0)) } ?? 1.5)
        reportSinkDrops()
        metrics.deviceUp = false
        writeMetrics()
        deliver { try session.end(reason: reason) }
        log.close()
    }

    private enum Outcome { case stopped, finished, lost(CaptureError) }

    /// Reads from an open device until it fails, the session is stopped, or enough audio was heard.
    private func listen(_ capture: AlsaCapture, maxFrames: Int64?) -> (Outcome, readerExited: Bool) {
        let thread = CaptureThread(capture: capture)
        thread.start()
        let outcome = read(from: thread, maxFrames: maxFrames)
        return (outcome, thread.stop())
    }

    private func read(from thread: CaptureThread, maxFrames: Int64?) -> Outcome {
        var first = true
        while true {
            if stopRequested.isSet {
                stopSeen = Date()
                return .stopped
            }
            sinksChanged()
            if reloadRequested.take() { pendingReload.start { [options] in Self.prepareReload(options) } }
            if let prepared = pendingReload.take() { apply(prepared) }
            guard let item = thread.next(timeout: 0.2) else { continue }
            switch item {
            case let .failed(error):
                return .lost(error)
            case let .samples(slot, count, overrun):
                if overrun > 0 {
                    metrics.overrunFrames += overrun
                    status("overrun", details: [("frames_lost", .number(Double(overrun)))])
                    logger.warning("capture overrun: \(overrun) frames lost")
                }
                let take = maxFrames.map { min(count, Int(max(0, $0 - pipeline.streamFrames))) } ?? count
                if first, take > 0 {
                    first = false
                    // Wall-clock times are stream time from here on, anchored at this moment.
                    clock.anchor(at: session.streamSeconds)
                    status("listening", details: [("device", .string(options.config.device))])
                    notifier.notify("READY=1\nSTATUS=listening on \(LogText.escape(options.config.device))")
                    logger.info("listening on \(options.config.device)")
                }
                thread.withSamples(slot: slot, count: take) { samples in
                    deliver { try session.push(samples) }
                }
                log.flush()
                metrics.deviceUp = true
                metrics.lastAudio = Date()
                pingWatchdog()
                everyMinute()
                if let maxFrames, pipeline.streamFrames >= maxFrames { return .finished }
            }
        }
    }

    /// Waits `seconds`, waking early for a stop request. True if a stop was requested.
    private func sleep(_ seconds: Double) -> Bool {
        let end = Date(timeIntervalSinceNow: seconds)
        while Date() < end {
            if stopRequested.isSet {
                stopSeen = Date()
                return true
            }
            sinksChanged()
            Thread.sleep(forTimeInterval: 0.05)
        }
        return stopRequested.isSet
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

    /// Once a minute of wall time: the metrics file, and what sink queues dropped.
    private func everyMinute() {
        guard Date().timeIntervalSince(lastMetrics) >= 60 else { return }
        reportSinkDrops()
        writeMetrics()
    }

    /// A sink delivered, failed or dropped since the metrics file was written: it is
    /// written again (at most once a second), and drops go to the log, so that a sink
    /// that has stopped delivering shows within seconds, not at the next minute.
    private func sinksChanged() {
        guard !hub.isEmpty, Date().timeIntervalSince(lastMetrics) >= 1 else { return }
        let totals = hub.counts.flatMap { [$0.counts.delivered, $0.counts.failures, $0.counts.dropped] }
        guard totals != lastSinkTotals else { return }
        lastSinkTotals = totals
        reportSinkDrops()
        writeMetrics()
    }

    private func reportSinkDrops() {
        for (name, dropped) in hub.newDrops() {
            status("sink_dropped", details: SinkHub.droppedDetails(sink: name, dropped: dropped))
            logger.warning("sink \(name): \(dropped) notifications dropped (queue full or endpoint down); the event log has them all")
        }
    }

    private func writeMetrics() {
        lastMetrics = Date()
        guard let path = options.config.metricsPath else { return }
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

    /// What a reload read: the configuration and its profile, or why it was refused.
    enum Prepared: Sendable {
        case config(DaemonConfig, Profile)
        case configRejected(String)
        case profileRejected(String)
    }

    /// Reads and validates the configuration and the profile for a reload. Runs on a
    /// thread of its own (`PendingReload`): a slow disk or a large file never holds up
    /// the audio.
    static func prepareReload(_ options: Options) -> Prepared {
        var config = options.config
        if let path = options.configPath {
            do { config = try DaemonConfig.read(path: path).overridden(by: options.overrides) } catch {
                return .configRejected(error.description)
            }
        }
        do { return .config(config, try ProfileLoader(directory: options.profileDirectory).load(config.profile)) } catch {
            return .profileRejected(error.description)
        }
    }

    /// Swaps a prepared reload in, between two blocks of audio.
    private func apply(_ prepared: Prepared) {
        switch prepared {
        case let .configRejected(error):
            status("profile_rejected", details: [("error", .string(error))])
            logger.error("reload refused, keeping the running configuration: \(error)")
        case let .profileRejected(error):
            status("profile_rejected", details: [("error", .string(error))])
            logger.error("reload refused, keeping profile \(pipeline.profile.name): \(error)")
        case let .config(config, profile):
            deliver { try session.reload(profile) }
            pipeline.watchLimits = config.watchLimits
            options.config.profile = config.profile
            options.config.silenceSeconds = config.silenceSeconds
            options.config.clippingSeconds = config.clippingSeconds
            var details: [(String, JSONValue)] = [("profile", .string(profile.name)), ("profile_sha256", .string(profile.sha256))]
            if config.device != options.config.device || config.log != options.config.log {
                details.append(("restart_needed", .string("device and log changes take effect after a restart")))
                logger.warning("device and log changes take effect after a restart (systemctl restart somniq)")
            }
            status("profile_reloaded", details: details)
            logger.info("reloaded profile \(profile.name)")
        }
    }

    private func pingWatchdog() {
        guard let interval = notifier.watchdogInterval, Date().timeIntervalSince(lastWatchdog) >= interval else { return }
        lastWatchdog = Date()
        notifier.notify("WATCHDOG=1")
    }

    private func status(_ name: String, alert: Bool = false, details: [(String, JSONValue)] = []) {
        deliver { try session.status(name, alert: alert, details: details) }
    }
}

/// Maps stream time to wall-clock time, anchored when audio (re)starts arriving; before
/// the first audio, now.
final class StreamWallClock {
    private var anchor: (date: Date, stream: Double)?

    func anchor(at streamSeconds: Double) { anchor = (Date(), streamSeconds) }

    func unix(_ streamSeconds: Double) -> Double {
        guard let anchor else { return Date().timeIntervalSince1970 }
        return anchor.date.timeIntervalSince1970 + streamSeconds - anchor.stream
    }

    func time(_ streamSeconds: Double) -> String { WallClock.iso8601(Date(timeIntervalSince1970: unix(streamSeconds))) }
}

/// A flag set from a signal handler's queue and read by the capture loop.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func take() -> Bool { lock.lock(); defer { value = false; lock.unlock() }; return value }
}

/// A reload read on a thread of its own; the listening loop takes the result when it is
/// ready. A request while one is being read is folded into it.
final class PendingReload: @unchecked Sendable {
    private let lock = NSLock()
    private var busy = false, again = false
    private var result: LiveSession.Prepared?

    func start(_ work: @escaping @Sendable () -> LiveSession.Prepared) {
        lock.lock()
        defer { lock.unlock() }
        guard !busy else { again = true; return }
        busy = true
        Thread.detachNewThread { [self] in
            var prepared = work()
            while true {
                lock.lock()
                if again {
                    again = false
                    lock.unlock()
                    prepared = work()
                    continue
                }
                result = prepared
                busy = false
                lock.unlock()
                return
            }
        }
    }

    func take() -> LiveSession.Prepared? {
        lock.lock()
        defer { result = nil; lock.unlock() }
        return result
    }
}
