import Foundation
import Logging
import SomniqCore

/// `somniq run`: listens on an ALSA device through exactly the replay pipeline, writes
/// the event log, tells the sinks, and keeps the metrics file, until told to stop.
public final class LiveSession {
    public struct Options {
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
    private var pipeline: Pipeline
    private let transform = FFTWTransform(size: 1024)
    /// Wall-clock time at a stream time: set when audio (re)starts arriving.
    private var anchor: (date: Date, stream: Double)?
    private var events = 0, alerts = 0
    private var silence = Spell(), clipping = Spell()
    private var lastWatchdog = Date.distantPast
    private var previousLevel: Float = .nan
    private let sinks: SinkHub
    private var metrics: Metrics
    private var lastMetrics = Date()
    private var metricsFailing = false
    private var minute = MinuteLevel()

    /// Set from signal handlers; read by the loop.
    private let stopRequested = Flag()
    private let reloadRequested = Flag()

    public init(options: Options, logger: Logger) throws(Failure) {
        self.options = options
        self.logger = logger
        let profile: Profile
        do { profile = try ProfileLoader(directory: options.profileDirectory).load(options.config.profile) } catch {
            throw .profile(error)
        }
        do { log = try DurableLog(path: options.config.log, logger: logger) } catch { throw .log(error) }
        let session = "s\(Int(Date().timeIntervalSince1970))-e"
        do { pipeline = try Pipeline(transform: transform, profile: profile, idPrefix: session) } catch {
            fatalError("FFT length is fixed at 1024: \(error)")
        }
        sinks = SinkHub(configs: options.config.sinks, room: options.config.room, version: somniqVersion, logger: logger)
        metrics = Metrics(room: options.config.room, profile: profile)
        pipeline.onWindow = { [unowned self] f, _ in
            watchInput(f)
            if let level = minute.add(f) { minuteEnded(level) }
        }
        log.streamSeconds = { [unowned self] in StreamClock.seconds(pipeline.streamFrames) }
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
        if !sinks.isEmpty {
            logger.info("sinks: \(options.config.sinks.map { "\($0.name) (\($0.typeName), \($0.minTier.rawValue) and above)" }.joined(separator: ", ")) for room \(options.config.room)")
        }
        write(Records.sessionStart(source: .device(name: options.config.device), profile: pipeline.profile,
                                   somniqVersion: somniqVersion, startedAt: iso(Date())))
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
    /// hold, writes `session_end`, and flushes the log.
    private func shutdown(reason: String) {
        notifier.notify("STOPPING=1")
        pipeline.finish { record($0) }
        sinks.shutdown(within: 1.5)
        reportSinkDrops()
        metrics.deviceUp = false
        writeMetrics()
        write(Records.sessionEnd(streamSeconds: StreamClock.seconds(pipeline.streamFrames), events: events,
                                 alerts: alerts, reason: reason, endedAt: iso(Date())))
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
            if stopRequested.isSet { return .stopped }
            if reloadRequested.take() { reload() }
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
                    anchor = (Date(), StreamClock.seconds(pipeline.streamFrames))
                    status("listening", details: [("device", .string(options.config.device))])
                    notifier.notify("READY=1\nSTATUS=listening on \(options.config.device)")
                    logger.info("listening on \(options.config.device)")
                }
                thread.withSamples(slot: slot, count: take) { samples in
                    pipeline.push(samples) { record($0) }
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
            if stopRequested.isSet { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return stopRequested.isSet
    }


    /// The log first (the record of truth), then the sinks.
    private func record(_ output: AlertOutput) {
        switch output {
        case let .start(e):
            events += 1
            if e.alert { alerts += 1 }
            metrics.count(e)
            let r = Records.eventStart(e, time: wallClock)
            write(r)
            sinks.eventStart(e, record: r)
            if e.alert {
                logger.log(level: Self.logLevel(e.tier), "\(e.tier.rawValue) alert: \(e.soundClass.rawValue) at \(wallClock(e.onset))")
            }
        case let .end(e):
            let r = Records.eventEnd(e, time: wallClock)
            write(r)
            sinks.eventEnd(e, record: r)
        }
    }

    /// The journal priority of an alert: critical → LOG_CRIT, high → LOG_WARNING,
    /// medium → LOG_NOTICE, low → LOG_INFO.
    static func logLevel(_ tier: Tier) -> Logger.Level {
        switch tier {
        case .critical: .critical
        case .high: .warning
        case .medium: .notice
        case .low: .info
        }
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

    private func reportSinkDrops() {
        for (name, dropped) in sinks.newDrops() {
            status("sink_dropped", details: [("sink", .string(name)), ("dropped", .number(Double(dropped)))])
            logger.warning("sink \(name): \(dropped) notifications dropped (queue full or endpoint down); the event log has them all")
        }
    }

    private func writeMetrics() {
        lastMetrics = Date()
        guard let path = options.config.metricsPath else { return }
        metrics.sinks = sinks.counts
        metrics.streamSeconds = StreamClock.seconds(pipeline.streamFrames)
        do {
            try metrics.write(to: path)
            if metricsFailing { logger.notice("metrics file writable again: \(LogText.escape(path))") }
            metricsFailing = false
        } catch {
            if !metricsFailing { logger.error("\(error)") }
            metricsFailing = true
        }
    }

    /// A minute of windows has passed: its level goes to the metrics and the MQTT sensor.
    private func minuteEnded(_ level: MinuteLevel.Summary) {
        metrics.levelDbfs = level.meanDbfs
        metrics.floorDbfs = level.floorDbfs
        sinks.level(.object([
            ("v", .number(Double(Records.version))), ("kind", .string("level")), ("room", .string(options.config.room)),
            ("stream_s", .rounded(StreamClock.seconds(pipeline.streamFrames))), ("time", .string(iso(Date()))),
            ("level_dbfs", .rounded(level.meanDbfs, 1)), ("peak_dbfs", .rounded(level.peakDbfs, 1)),
            ("floor_dbfs", .rounded(level.floorDbfs, 1)),
        ]))
    }

    /// Digital silence or a stuck value, and sustained clipping, mean the daemon cannot hear.
    private func watchInput(_ f: WindowFeatures) {
        let stuck = f.levelDbfs <= Decibels.silence + 1 || f.activeFraction == 0 && f.levelDbfs == previousLevel
        previousLevel = f.levelDbfs
        if silence.update(stuck, limit: options.config.silenceSeconds) {
            status("input_silent", alert: true, details: [("seconds", .number(options.config.silenceSeconds))])
            logger.critical("input is silent: the microphone may be muted or unplugged")
        }
        if clipping.update(f.clippedSamples > 0, limit: options.config.clippingSeconds) {
            status("clipping", alert: true, details: [("seconds", .number(options.config.clippingSeconds))])
            logger.critical("input is clipping: lower the capture gain (alsamixer)")
        }
    }

    private func reload() {
        var config = options.config
        if let path = options.configPath {
            do { config = try DaemonConfig.read(path: path).overridden(by: options.overrides) } catch {
                status("profile_rejected", details: [("error", .string(error.description))])
                logger.error("reload refused, keeping the running configuration: \(error)")
                return
            }
        }
        do {
            let profile = try ProfileLoader(directory: options.profileDirectory).load(config.profile)
            pipeline.reload(profile) { record($0) }
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
        } catch {
            status("profile_rejected", details: [("error", .string(error.description))])
            logger.error("reload refused, keeping profile \(pipeline.profile.name): \(error)")
        }
    }

    private func pingWatchdog() {
        guard let interval = notifier.watchdogInterval, Date().timeIntervalSince(lastWatchdog) >= interval else { return }
        lastWatchdog = Date()
        notifier.notify("WATCHDOG=1")
    }

    private func status(_ name: String, alert: Bool = false, details: [(String, JSONValue)] = []) {
        let r = Records.status(name, streamSeconds: StreamClock.seconds(pipeline.streamFrames), alert: alert,
                               details: details, time: iso(Date()))
        write(r)
        if alert { sinks.status(name, record: r) }
    }

    private func write(_ record: JSONValue) { log.append(record) }

    private func wallClock(_ streamSeconds: Double) -> String {
        guard let anchor else { return iso(Date()) }
        return iso(anchor.date.addingTimeInterval(streamSeconds - anchor.stream))
    }

    private func iso(_ date: Date) -> String { WallClock.iso8601(date) }

    public var somniqVersion = "0.1.0"
}

/// A flag set from a signal handler's queue and read by the capture loop.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func take() -> Bool { lock.lock(); defer { value = false; lock.unlock() }; return value }
}

/// Levels of a minute of windows: the power mean, the loudest window, the last floor.
struct MinuteLevel {
    struct Summary { var meanDbfs: Double, peakDbfs: Double, floorDbfs: Double }
    private var power = 0.0, peak = -Double.infinity, count = 0

    /// Adds a window; at the 120th (60 s at 2 windows a second) returns the minute's levels.
    mutating func add(_ f: WindowFeatures) -> Summary? {
        power += Double(Decibels.toPower(f.levelDbfs))
        peak = max(peak, Double(f.levelDbfs))
        count += 1
        guard Double(count) * StreamClock.frameSeconds >= 60 else { return nil }
        defer { self = MinuteLevel() }
        return Summary(meanDbfs: 10 * log10(max(power / Double(count), 1e-12)), peakDbfs: peak, floorDbfs: Double(f.floorDbfs))
    }
}

/// A condition of the input that is reported once it has lasted long enough, and once
/// per spell: it may be reported again only after it has cleared.
struct Spell {
    private var windows = 0
    private var reported = false

    /// Feeds one window; true on the window where the spell first reaches `limit` seconds.
    mutating func update(_ holds: Bool, limit: Double) -> Bool {
        windows = holds ? windows + 1 : 0
        if windows == 0 { reported = false; return false }
        guard !reported, Double(windows) * StreamClock.frameSeconds >= limit else { return false }
        reported = true
        return true
    }
}
