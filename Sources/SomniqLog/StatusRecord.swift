import SomniqCore

/// The conditions a `status` record names.
public enum LogStatus: String, Sendable, CaseIterable {
    /// The device is open and sending audio again; `unheard_s`: how long the room went unheard.
    case listening
    /// The capture device is gone (`error`; `retry_s` until it is tried again).
    case deviceLost = "device_lost"
    /// The device is open and has sent no audio for `seconds`.
    case captureStalled = "capture_stalled"
    /// The input is digital silence, or clipping, for `seconds` (InputWatch).
    case inputSilent = "input_silent", clipping
    /// Frames the device dropped (`frames_lost`).
    case overrun
    case profileReloaded = "profile_reloaded", profileRejected = "profile_rejected"
    /// The log could not be written for `seconds`; `records_held`, `records_dropped`.
    case logWriteFailed = "log_write_failed"
    /// A notification sink dropped messages (`sink`, `dropped`).
    case sinkDropped = "sink_dropped"
    /// The session before this one was killed with events open (`open_ids`).
    case previousSessionUnclean = "previous_session_unclean"
    /// A replayed file: its header's length disagrees with its audio, or it holds
    /// samples that are not numbers.
    case lengthMismatch = "length_mismatch", badSamples = "bad_samples"
    /// An event's clip was not kept (`id`, `path`, `reason`, `error`).
    case clipSkipped = "clip_skipped"
    /// The night audio: a part started, a disk that refuses, audio not kept, nights deleted.
    case nightAudio = "night_audio", nightAudioFailed = "night_audio_failed"
    case nightAudioDropped = "night_audio_dropped", nightAudioDeleted = "night_audio_deleted"
    /// Something optional could not be used at start (`what`: `home_memory`, `clips`,
    /// `night_audio`, `metrics` or `http`, the web page's token file; its `path`, the
    /// `error`): a critical alert, and the daemon listens without it.
    case optionalRefused = "optional_refused"
    /// The daily learning of this home's memory ended without one and without saying why
    /// (`error`; the `signal` that killed it, or its `exit_status`): the memory in force is kept.
    case homeLearningFailed = "home_learning_failed"

    /// The daemon cannot hear the room, until `listening`.
    public static let deafness: Set<LogStatus> = [.deviceLost, .captureStalled]
}

extension LogRecord {
    /// `status`: a condition of the daemon or of its input, with what it has to say
    /// (`details`, which differ from one status to another).
    public struct Status: Sendable, Equatable {
        public var status: LogStatus
        public var streamSeconds: Double?
        /// Now, ISO 8601 UTC (live sessions, and replays given a start).
        public var time: String?
        /// A critical condition, which notifications carry too (`"tier": "critical"`).
        public var alert: Bool
        /// The status's own members, in the order written.
        public var details: [(String, JSONValue)]

        public init(_ status: LogStatus, streamSeconds: Double, alert: Bool = false, details: [(String, JSONValue)] = [],
                    time: String? = nil) {
            self.status = status
            self.streamSeconds = streamSeconds.asLogged()
            self.time = time
            self.alert = alert
            self.details = details
        }

        static let ownKeys: Set<String> = ["v", "kind", "status", "stream_s", "time", "alert", "tier"]

        init?(_ r: JSONValue) {
            guard let status = r.string("status").flatMap(LogStatus.init(rawValue:)), case let .object(members) = r else { return nil }
            self.status = status
            streamSeconds = r.number("stream_s")
            time = r.string("time")
            alert = r.isTrue("alert")
            details = members.filter { !Self.ownKeys.contains($0.0) }
        }

        var members: [(String, JSONValue)] {
            var m: [(String, JSONValue)] = [("status", .string(status.rawValue))]
            m.append("stream_s", streamSeconds.map { .rounded($0) })
            m.append("time", time.map(JSONValue.string))
            if alert { m += [("alert", .bool(true)), ("tier", .string(Tier.critical.rawValue))] }
            return m + details
        }

        /// A member of `details`.
        public subscript(detail key: String) -> JSONValue? { details.first { $0.0 == key }?.1 }

        /// `seconds`: how long the condition had lasted when it was said.
        public var seconds: Double? { self[detail: "seconds"]?.numberValue }
        /// `unheard_s` of `listening`: how long the room went unheard before it.
        public var unheardSeconds: Double? { self[detail: "unheard_s"]?.numberValue }
        /// `retry_s` of `device_lost`: how long until the device is tried again.
        public var retrySeconds: Double? { self[detail: "retry_s"]?.numberValue }
        /// `id` of `clip_skipped`: the event whose clip was not kept.
        public var id: String? { self[detail: "id"]?.stringValue }
        public var error: String? { self[detail: "error"]?.stringValue }

        public static func == (a: Status, b: Status) -> Bool {
            a.status == b.status && a.streamSeconds == b.streamSeconds && a.time == b.time && a.alert == b.alert
                && JSONValue.object(a.details) == JSONValue.object(b.details)
        }
    }
}
