import FoundationEssentials
import Glibc
import Logging
import SomniqConfig
import SomniqCore
import SomniqLog
import SomniqReports
import SomniqSupport

/// Hands notifications to the configured sinks, each through its own bounded queue
/// and thread (`SinkWorker`), so that nothing here waits on a network or a program.
///
/// What goes out: an alerted event's start (tier at least the sink's `min_tier`, class
/// in its list, within its rate limit), that event's end, and the daemon's critical
/// conditions (`device_lost`, `capture_stalled`, `input_silent`, `clipping`), and the
/// `listening` that ends a lost device or a stalled capture. Suppressed events stay in
/// the log only. MQTT also gets the minute's sound level.
///
/// The rate limit counts stream time (event onsets), so a replayed night is limited as
/// the same night heard live would be, however fast it is replayed.
public final class SinkHub: RecordSink {
    private struct Entry {
        var config: SinkConfig
        var worker: SinkWorker
        /// Onsets (stream seconds) of the event starts sent in the last minute.
        var recent: [Double] = []
        /// Events whose start was sent, with their tier: their end follows.
        var sent: [String: Tier] = [:]
        var droppedReported = 0
    }

    public let room: String
    /// The web page, whose public address links each alert to its event.
    private let page: HTTPConfig?
    private var entries: [Entry] = []
    private let logger: Logger
    /// The deadlines' and the back-offs' clock.
    private let clock: any IOClock
    /// Whether the minute levels go out (live: yes; a replay's levels are not the room's now).
    public var forwardsLevels = true
    /// The sinks were told the room cannot be heard (the device lost, the capture
    /// stalled): the next `listening` is sent to them too, so that they hear it is over.
    private var saidDeaf = false
    /// When the events whose start was sent began (Unix time, their `onset_time`): their
    /// end says it.
    private var onsets: [String: Double] = [:]

    /// `profile`: the profile in force, whose tiers decide which classes can reach each
    /// sink (and so which Home Assistant announces).
    public init(configs: [SinkConfig], room: String, profile: Profile, version: String, logger: Logger, page: HTTPConfig? = nil,
                clock: any IOClock = SystemClock()) {
        self.room = room
        self.clock = clock
        self.page = page
        self.logger = logger
        for config in configs {
            let endpoint = Self.endpoint(config, room: room, profile: profile, version: version, logger: logger, page: page, clock: clock)
            entries.append(Entry(config: config, worker: SinkWorker(name: config.name, endpoint: endpoint,
                                                                     capacity: config.queueSize, logger: logger, clock: clock)))
        }
        for e in entries { e.worker.start() }
        // The MQTT sink says so when it starts; a webhook would say it only at its first
        // notification.
        for config in configs {
            if case .webhook = config.kind, let (problem, package) = Self.libraryProblem(config.kind) {
                logger.error("sink \(config.name): \(problem); its notifications fail until \(package) is installed")
            }
        }
    }

    /// The endpoint a sink's configuration describes.
    static func endpoint(_ config: SinkConfig, room: String, profile: Profile, version: String, logger: Logger,
                                 page: HTTPConfig? = nil, test: Bool = false, clock: any IOClock = SystemClock()) -> SinkEndpoint {
        switch config.kind {
        case let .exec(e): ExecSink(e, clock: clock)
        case let .webhook(w): WebhookSink(w, version: version, clock: clock)
        case let .mqtt(m):
            MQTTSink(m, name: config.name, room: room, classes: SoundClass.allCases.filter { config.admits($0, tier: profile.rule(for: $0).tier) },
                     version: version, logger: logger, pageURL: page?.publicURL, testOnly: test, summary: config.morningSummary, clock: clock)
        }
    }

    /// What became of a test notification at one sink.
    public struct TestResult: Sendable {
        public var sink: String
        public var type: String
        /// Nil when delivered; else why not, in words.
        public var failure: String?
        public var seconds: Double
    }

    /// The first sink of `configs` whose network library cannot be loaded, said as
    /// `run --check-config` reports it; nil when every one loads.
    public static func unloadableLibrary(_ configs: [SinkConfig]) -> String? {
        for config in configs {
            if let (problem, package) = libraryProblem(config.kind) { return "sink \(config.name): \(problem); install \(package)" }
        }
        return nil
    }

    /// Why the network library a kind of sink needs (libcurl for a webhook, libmosquitto
    /// for MQTT) cannot be loaded, and the Debian package that brings it; nil when it loads.
    static func libraryProblem(_ kind: SinkConfig.Kind) -> (problem: String, package: String)? {
        switch kind {
        case .webhook: WebhookSink.loadFailure.map { ("cannot load libcurl: \(LogText.escape($0))", "libcurl4") }
        case .mqtt: MQTTSink.loadFailure.map { ("cannot load libmosquitto: \(LogText.escape($0))", "libmosquitto1") }
        case .exec: nil
        }
    }

    public var isEmpty: Bool { entries.isEmpty }

    public func write(_ record: SessionRecord, logged: LogRecord?) {
        switch (record, logged) {
        case let (.output(.start(e)), .eventStart(r)?): eventStart(e, logged: r)
        case let (.output(.end(e)), .eventEnd(r)?): eventEnd(e, logged: r)
        case let (.output(.input), .status(s)?): status(s)
        case let (.status(status, alert: true), .status(s)?):
            if LogStatus.deafness.contains(status) { saidDeaf = true }
            self.status(s)
        case let (.status(.listening, alert: false), .status(s)?) where saidDeaf:
            saidDeaf = false
            status(s)
        case let (.output(.level), .level(m)?) where forwardsLevels: level(m)
        default: break
        }
    }

    /// An event has started (any event: suppressed ones are not sent); `logged`: its record.
    public func eventStart(_ e: EventStart, logged: LogRecord.EventStart) {
        guard e.alert else { return }
        let now = e.onset
        let onsetTime = logged.onsetTime.flatMap(WallClock.parse)
        let link = onsetTime.flatMap { page?.link(night: WallClock.night($0), event: e.id) }
        let message = SinkMessage(room: room, soundClass: e.soundClass, tier: e.tier, subject: .eventStart(logged), link: link)
        for i in entries.indices where entries[i].config.admits(e.soundClass, tier: e.tier) {
            // Critical alerts are neither held back nor counted against the others.
            if e.tier != .critical {
                entries[i].recent.removeAll { now - $0 >= 60 }
                if entries[i].recent.count >= entries[i].config.maxPerMinute {
                    entries[i].worker.countRateLimited()
                    continue
                }
                entries[i].recent.append(now)
            }
            entries[i].sent[e.id] = e.tier
            entries[i].worker.offer(message)
            onsets[e.id] = onsetTime
        }
    }

    /// An event has ended: sent, at its start's tier, where its start was; `logged`: its record.
    public func eventEnd(_ e: EventEnd, logged: LogRecord.EventEnd) {
        let startedAt = onsets.removeValue(forKey: e.id)
        for i in entries.indices {
            guard let tier = entries[i].sent.removeValue(forKey: e.id) else { continue }
            var message = SinkMessage(room: room, soundClass: e.soundClass, tier: tier, subject: .eventEnd(logged))
            message.startedAt = startedAt
            entries[i].worker.offer(message)
        }
    }

    /// A critical condition of the daemon (a `status` record with `alert: true`), or the
    /// `listening` that ends one.
    public func status(_ s: LogRecord.Status) {
        let message = SinkMessage(room: room, soundClass: nil, tier: .critical, subject: .status(s))
        for e in entries where e.worker.takes(.status) { e.worker.offer(message) }
    }

    /// A minute's `level` record (MQTT's level sensor).
    public func level(_ m: LogRecord.Level) {
        let message = SinkMessage(room: room, soundClass: nil, tier: .low, subject: .level(m))
        for e in entries where e.worker.takes(.level) { e.worker.offer(message) }
    }

    /// The morning summary, made at `time` (ISO 8601 UTC), to the sinks that take it
    /// (`MorningSummary.record`): how many.
    @discardableResult
    public func morningSummary(_ summary: MorningSummary, time: String) -> Int {
        let message = SinkMessage(room: room, soundClass: nil, tier: .medium, subject: .summary(summary, time: time), link: summary.link)
        let takers = entries.filter { $0.config.morningSummary && $0.worker.takes(.summary) }
        for e in takers { e.worker.offer(message) }
        return takers.count
    }

    /// Each sink's counts, in configuration order.
    public var counts: [(name: String, counts: SinkCounts)] { entries.map { ($0.config.name, $0.worker.snapshot) } }

    /// Sinks whose queue dropped messages since the last call, and how many: for a
    /// `sink_dropped` status record in the log.
    public func newDrops() -> [(name: String, dropped: Int)] {
        var out: [(String, Int)] = []
        for i in entries.indices {
            let dropped = entries[i].worker.snapshot.dropped
            if dropped > entries[i].droppedReported {
                out.append((entries[i].config.name, dropped - entries[i].droppedReported))
                entries[i].droppedReported = dropped
            }
        }
        return out
    }

    /// The details of a `sink_dropped` status record.
    public static func droppedDetails(sink name: String, dropped: Int) -> [LogRecord.Status.Detail] {
        [.sink(name), .dropped(dropped)]
    }

    /// Gives every queue up to `timeout` (together) to deliver what it holds, failed
    /// messages retried at once and then after 1, 2, 4 … s, however long they have been
    /// failing; then gives up on what is left (counted as dropped, for `newDrops`). The
    /// sinks keep running. For the end of a replay, which is over long before a dead
    /// endpoint's backoff has run its course.
    public func drain(within timeout: Duration) {
        let deadline = clock.now + timeout
        for e in entries { e.worker.startDrain() }
        for e in entries { e.worker.waitDrained(until: deadline) }
    }

    /// Gives every queue up to `timeout` (together) to drain, then stops the sinks: one
    /// still inside a delivery is cut short (an exec program's process group is killed).
    public func shutdown(within timeout: Duration) {
        let deadline = clock.now + timeout
        for e in entries { e.worker.requestStop() }
        for e in entries { e.worker.waitStopped(until: deadline) }
    }
}
