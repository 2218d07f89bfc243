import CNetLibs
import FoundationEssentials
import Glibc
import Logging
import SomniqConfig
import SomniqCore
import SomniqLog
import SomniqReports
import SomniqSupport
import Synchronization

/// Publishes to an MQTT broker through libmosquitto, with QoS 1 throughout:
///
/// - `<prefix>/<room>/event`: each record (event start and end, critical conditions);
/// - `<prefix>/<room>/<class>`: `ON` while an event of the class is open, `OFF` after (retained);
/// - `<prefix>/<room>/status`: `online`, or `offline` (retained; the broker publishes
///   `offline` as the last will when the daemon dies without saying goodbye, and the
///   daemon says it while it cannot hear the room — the device lost, the capture stalled
///   — so that Home Assistant shows every sensor unavailable, none stuck at ON);
/// - `<prefix>/<room>/level`: the last minute's sound level (retained JSON);
/// - `<prefix>/<room>/summary`: last night in three lines each morning (`MorningSummary`,
///   retained JSON), unless the sink says `"morning_summary": false`;
/// - `<prefix>/<room>/sound`: each event's start as Home Assistant's event entity takes it,
///   `{"event_type": "<class>", …}` (not retained: an event is a moment, not a state);
/// - Home Assistant discovery under `homeassistant/`: one device per room, a
///   binary_sensor per class (its device class classes/classes.tsv's `sensor`, `EventWords.sensor`:
///   `smoke` for smoke_alarm, `sound` for the others), an event
///   entity whose event types are the classes, and a sound-level sensor, republished on
///   every connection.
///
/// libmosquitto's own thread keeps the connection and reconnects with backoff
/// (1 … 60 s); a publish while disconnected fails and the worker retries it.
// @unchecked: `client` and `wake` are set in `start`, before libmosquitto's thread begins, and
// `client` cleared in `stop`, after it has ended; what both threads change is in `state`.
final class MQTTSink: SinkEndpoint, @unchecked Sendable {
    private let config: SinkConfig.MQTT
    /// The sink's name, for the log (`mqtt` unless named).
    private let name: String
    private let room: String
    private let classes: [SoundClass]
    private let version: String
    private let logger: Logger
    /// Only for `somniq test-alert`: a client of its own beside the daemon's, which says
    /// nothing of the room (no discovery, states, availability or last will).
    private let testOnly: Bool
    /// The web page's public address: Home Assistant's device links to it.
    private let pageURL: String?
    /// Whether it takes the morning summary, and announces its "Last night" sensor.
    private let summary: Bool
    private var client: OpaquePointer?
    private var wake: (@Sendable () -> Void)?
    private struct State {
        var connected = false
        var everConnected = false
        var open = Set<SoundClass>()
        /// The room cannot be heard (`LogStatus.deafness`) until a `listening` message.
        var deaf = false
        /// QoS 1 messages handed to libmosquitto, and those the broker has acknowledged
        /// (PUBACK): at shutdown the goodbye waits for the last ones to land.
        var published = 0, acknowledged = 0
        /// Why the broker refused the last connection (CONNACK), until one is accepted.
        var refused: String?
    }
    private let state = Mutex(State())
    /// The clock of the waits for the broker (a test's connection, the goodbye's
    /// acknowledgement): the hub's.
    private let clock: any IOClock

    /// Loads libmosquitto (the first MQTT sink does) and initialises it; why it could
    /// not be loaded, if it could not.
    static let loadFailure: String? = {
        if let why = somniq_mosquitto_load() { return String(cString: why) }
        _ = somniq_mosquitto_lib_init()
        return nil
    }()

    /// `classes`: those whose events this sink is sent (its class list and minimum tier,
    /// under the profile in force at start); only they are announced to Home Assistant.
    init(_ config: SinkConfig.MQTT, name: String, room: String, classes: [SoundClass], version: String, logger: Logger,
         pageURL: String? = nil, testOnly: Bool = false, summary: Bool = true, clock: any IOClock = SystemClock()) {
        _ = Self.loadFailure
        self.clock = clock
        self.summary = summary
        self.testOnly = testOnly
        self.pageURL = pageURL
        self.config = config
        self.name = name
        self.room = room
        self.classes = classes
        self.version = version
        self.logger = logger
    }

    var base: String { "\(config.topicPrefix)/\(room)" }
    func stateTopic(_ c: SoundClass) -> String { "\(base)/\(c.rawValue)" }

    func takes(_ kind: SinkMessage.Kind) -> Bool { true }

    func start(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
        if let why = Self.loadFailure {
            logger.error("sink \(name): cannot load libmosquitto: \(LogText.escape(why))")
            return
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        // The broker lets one client of an id connect: the test's must not push the daemon's off.
        guard let m = somniq_mosquitto_new(testOnly ? "somniq-\(room)-test-\(getpid())" : "somniq-\(room)", true, me) else {
            logger.error("sink \(name): cannot create a client: \(LogText.escape(String(cString: strerror(errno))))")
            return
        }
        client = m
        _ = somniq_mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311))
        let offline = Array("offline".utf8)
        if !testOnly { _ = somniq_mosquitto_will_set(m, "\(base)/status", Int32(offline.count), offline, 1, true) }
        if let user = config.username { _ = somniq_mosquitto_username_pw_set(m, user, config.password) }
        if let ca = config.caFile {
            let rc = somniq_mosquitto_tls_set(m, ca, nil, config.certFile, config.keyFile, nil)
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                logger.error("sink \(name): TLS setup failed: \(LogText.escape(String(cString: somniq_mosquitto_strerror(rc)))); check ca_file, cert_file and key_file")
            }
        }
        somniq_mosquitto_connect_callback_set(m) { _, obj, rc in
            guard let obj else { return }
            Unmanaged<MQTTSink>.fromOpaque(obj).takeUnretainedValue().connected(rc: rc)
        }
        somniq_mosquitto_publish_callback_set(m) { _, obj, _ in
            guard let obj else { return }
            Unmanaged<MQTTSink>.fromOpaque(obj).takeUnretainedValue().acknowledge()
        }
        somniq_mosquitto_disconnect_callback_set(m) { _, obj, rc in
            guard let obj else { return }
            Unmanaged<MQTTSink>.fromOpaque(obj).takeUnretainedValue().disconnected(rc: rc)
        }
        _ = somniq_mosquitto_reconnect_delay_set(m, 1, 60, true)
        let rc = somniq_mosquitto_connect_async(m, config.host, Int32(config.port), Int32(config.keepaliveSeconds))
        if rc != MOSQ_ERR_SUCCESS.rawValue {
            logger.error("sink \(name): cannot reach \(LogText.escape(config.host)):\(config.port): \(Self.describe(rc)); retrying")
        }
        // The network thread connects, and reconnects after any failure, until stopped.
        _ = somniq_mosquitto_loop_start(m)
    }

    private func connected(rc: Int32) {
        guard rc == 0, let client else {
            state.withLock { $0.refused = String(cString: somniq_mosquitto_connack_string(rc)) }
            logger.error("sink \(name): \(LogText.escape(config.host)):\(config.port) refused the connection: \(LogText.escape(String(cString: somniq_mosquitto_connack_string(rc))))")
            return
        }
        let (states, available, first) = state.withLock { s in
            defer { (s.connected, s.everConnected, s.refused) = (true, true, nil) }
            return (s.open, !s.deaf, !s.everConnected)
        }
        logger.info("sink \(name): connected to \(LogText.escape(config.host)):\(config.port)\(first ? "" : " again")")
        if testOnly {
            wake?()
            return
        }
        if config.discovery {
            for (topic, payload) in discovery() { publish(client, topic, payload.compactText, retain: true) }
        }
        for c in classes { publish(client, stateTopic(c), states.contains(c) ? "ON" : "OFF", retain: true) }
        publish(client, "\(base)/status", available ? "online" : "offline", retain: true)
        wake?()
    }

    private func disconnected(rc: Int32) {
        let was = state.withLock { s in
            defer { s.connected = false }
            return s.connected
        }
        if was, rc != 0 { logger.error("sink \(name): lost \(LogText.escape(config.host)):\(config.port): \(Self.describe(rc)); reconnecting") }
    }

    @discardableResult
    private func publish(_ m: OpaquePointer, _ topic: String, _ payload: String, retain: Bool) -> Int32 {
        let bytes = Array(payload.utf8)
        state.withLock { $0.published += 1 }
        let rc = somniq_mosquitto_publish(m, nil, topic, Int32(bytes.count), bytes, 1, retain)
        if rc != MOSQ_ERR_SUCCESS.rawValue {
            state.withLock { $0.published -= 1 }
        }
        return rc
    }

    private func acknowledge() {
        state.withLock { $0.acknowledged += 1 }
    }

    func deliver(_ message: SinkMessage, until deadline: ContinuousClock.Instant?) throws(SinkFailure) {
        // A test's client has only just started connecting: it waits for the broker (or its
        // refusal) until the test's deadline, as nothing is published before.
        if testOnly, let deadline {
            while true {
                let (up, refused) = state.withLock { ($0.connected, $0.refused) }
                if up { break }
                if let refused { throw SinkFailure("\(config.host):\(config.port) refused the connection: \(refused)") }
                if clock.now >= deadline { break }
                usleep(5000)   // a poll of libmosquitto's thread (real time); the deadline is the clock's
            }
        }
        let (up, available) = state.withLock { s in
            if s.connected, let c = message.soundClass {
                if message.kind == .eventStart { s.open.insert(c) } else if message.kind == .eventEnd { s.open.remove(c) }
            }
            if s.connected, message.kind == .status {
                if message.isRecovery { s.deaf = false } else if let status = message.status, LogStatus.deafness.contains(status) { s.deaf = true }
            }
            return (s.connected, !s.deaf)
        }
        guard up, let client else { throw SinkFailure("not connected to \(config.host):\(config.port)", unsent: true) }
        var rc: Int32
        switch message.kind {
        case .level:
            rc = publish(client, "\(base)/level", message.record.compactText, retain: true)
        case .test:
            rc = publish(client, "\(base)/event", message.record.compactText, retain: false)
        case .summary:
            rc = publish(client, "\(base)/summary", message.record.compactText, retain: true)
        case .eventStart, .eventEnd, .status:
            rc = publish(client, "\(base)/event", message.record.compactText, retain: false)
            if rc == 0, let c = message.soundClass, message.kind != .status {
                rc = publish(client, stateTopic(c), message.kind == .eventStart ? "ON" : "OFF", retain: true)
            }
            if rc == 0, let c = message.soundClass, case let .eventStart(e) = message.subject {
                rc = publish(client, "\(base)/last_event", Self.lastEvent(c, e, message).compactText, retain: true)
            }
            if rc == 0, let c = message.soundClass, case let .eventStart(e) = message.subject {
                rc = publish(client, "\(base)/sound", Self.soundEvent(c, e, message).compactText, retain: false)
            }
            if rc == 0, message.kind == .status, message.isRecovery || message.status.map(LogStatus.deafness.contains) == true {
                rc = publish(client, "\(base)/status", available ? "online" : "offline", retain: true)
            }
        }
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            throw SinkFailure("publish to \(config.host):\(config.port) failed: \(Self.describe(rc))")
        }
    }

    /// Says `offline` (a clean goodbye, so no last will), waits up to 1 s for the broker
    /// to acknowledge what was published, then disconnects: a disconnect drops what
    /// libmosquitto has not yet sent. Returns once the network thread has ended.
    func stop() {
        guard let client else { return }
        if state.withLock({ $0.connected }), !testOnly {
            publish(client, "\(base)/status", "offline", retain: true)
            _ = acknowledged(until: clock.now + .seconds(1))
        }
        // Disconnecting marks the client as leaving, connected or not, and stopping the
        // loop wakes its thread from any wait, so it ends by itself. It is not cancelled:
        // cancelled inside a callback (at the write of a log line) or a TLS handshake, it
        // took the process down (a replay told of a wrong password died with SIGSEGV).
        _ = somniq_mosquitto_disconnect(client)
        _ = somniq_mosquitto_loop_stop(client, false)
        somniq_mosquitto_destroy(client)
        self.client = nil
    }

    /// Waits until `deadline` for the broker to acknowledge everything published; false
    /// when it has not (or the connection was lost first).
    private func acknowledged(until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let (done, up) = state.withLock { ($0.acknowledged >= $0.published, $0.connected) }
            if done { return true }
            if !up || clock.now >= deadline { return false }
            usleep(5000)   // a poll of libmosquitto's thread (real time); the deadline is the clock's
        }
    }

    func confirm(until deadline: ContinuousClock.Instant) -> String? {
        acknowledged(until: deadline) ? nil : "published, but \(config.host):\(config.port) did not acknowledge it in time"
    }

    /// The last alert, for Home Assistant's "last event" sensor: its class (the state), tier,
    /// time, score, the notification's words (`message`) and link (attributes). `e`: the
    /// alert's `event_start`, which `m` tells of.
    static func lastEvent(_ c: SoundClass, _ e: LogRecord.EventStart, _ m: SinkMessage) -> JSONValue {
        var fields: [(String, JSONValue)] = [("class", .string(c.rawValue)), ("tier", .string(m.tier.rawValue))]
        if let t = e.onsetTime { fields.append(("time", .string(t))) }
        if let score = e.trace?.peakSmoothed { fields.append(("confidence", .rounded(score))) }
        fields.append(("id", .string(e.id)))
        fields.append(("message", .string(m.text)))
        if let link = m.link { fields.append(("link", .string(link))) }
        return .object(fields)
    }

    /// An event's start for Home Assistant's MQTT event entity: the class as `event_type`
    /// (the one key it requires), the other fields become the entity's attributes.
    static func soundEvent(_ c: SoundClass, _ e: LogRecord.EventStart, _ m: SinkMessage) -> JSONValue {
        guard case let .object(fields) = lastEvent(c, e, m) else { return .object([("event_type", .string(c.rawValue))]) }
        return .object([("event_type", .string(c.rawValue))] + fields.filter { $0.0 != "class" })
    }

    /// Home Assistant MQTT discovery: (topic, config) for the room's device.
    func discovery() -> [(String, JSONValue)] {
        let id = "somniq_\(room)"
        let device: JSONValue = .object([
            ("identifiers", .array([.string(id)])),
            ("name", .string("somniq \(room)")),
            ("manufacturer", .string("somniq")),
            ("model", .string("sleep sound monitor")),
            ("sw_version", .string(version)),
        ] + (pageURL.map { [("configuration_url", .string($0))] } ?? []))
        let availability: [(String, JSONValue)] = [
            ("availability_topic", .string("\(base)/status")),
            ("payload_available", .string("online")),
            ("payload_not_available", .string("offline")),
        ]
        /// One entity of the device: its name, ids, what is its own, then what all share.
        func entity(_ component: String, _ key: String, _ name: String, _ own: [(String, JSONValue)]) -> (String, JSONValue) {
            ("\(config.discoveryPrefix)/\(component)/\(id)/\(key)/config", .object(
                [("name", .string(name)), ("unique_id", .string("\(id)_\(key)")), ("object_id", .string("\(id)_\(key)"))]
                    + own + [("qos", .number(1))] + availability + [("device", device)]))
        }
        var out = classes.map { c in
            entity("binary_sensor", c.rawValue, EventWords.title(c), [
                ("device_class", .string(EventWords.sensor(c))),
                ("state_topic", .string(stateTopic(c))),
                ("payload_on", .string("ON")),
                ("payload_off", .string("OFF")),
            ])
        }
        // The room's sounds as one event entity, beside the binary sensors, so that an
        // automation can trigger on "a cough in the nursery" without a template. Home
        // Assistant's MQTT event schema (https://www.home-assistant.io/integrations/event.mqtt/):
        // `state_topic` and `event_types` are required; each message is a JSON object whose
        // `event_type` is one of them, its other keys the event's attributes.
        out.append(entity("event", "sound", "Sound", [
            ("state_topic", .string("\(base)/sound")),
            ("event_types", .array(classes.map { .string($0.rawValue) })),
            ("icon", .string("mdi:waveform")),
        ]))
        out.append(entity("sensor", "level", "Sound level", [
            ("state_topic", .string("\(base)/level")),
            ("value_template", .string("{{ value_json.leq_dbfs }}")),
            ("json_attributes_topic", .string("\(base)/level")),
            // Digital full scale, not sound pressure: no device_class claims dB SPL.
            ("unit_of_measurement", .string("dBFS")),
            ("state_class", .string("measurement")),
        ]))
        out.append(entity("sensor", "last_event", "Last event", [
            ("state_topic", .string("\(base)/last_event")),
            ("value_template", .string("{{ value_json.class }}")),
            ("json_attributes_topic", .string("\(base)/last_event")),
            ("icon", .string("mdi:bell-ring")),
        ]))
        if summary {
            // The morning summary: its headline the state (a sensor's state holds 255
            // characters), the three lines and figures its attributes.
            out.append(entity("sensor", "summary", "Last night", [
                ("state_topic", .string("\(base)/summary")),
                ("value_template", .string("{{ value_json.headline }}")),
                ("json_attributes_topic", .string("\(base)/summary")),
                ("icon", .string("mdi:weather-sunset-up")),
            ]))
        }
        return out
    }

    private static func describe(_ rc: Int32) -> String {
        if rc == MOSQ_ERR_ERRNO.rawValue { return LogText.escape(String(cString: strerror(errno))) }
        return LogText.escape(String(cString: somniq_mosquitto_strerror(rc)))
    }
}
