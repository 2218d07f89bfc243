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
        public var details: [Detail]

        public init(_ status: LogStatus, streamSeconds: Double, alert: Bool = false, details: [Detail] = [],
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
            details = members.filter { !Self.ownKeys.contains($0.0) }.map(Detail.init)
        }

        var members: [(String, JSONValue)] {
            var m: [(String, JSONValue)] = [("status", .string(status.rawValue))]
            m.append("stream_s", streamSeconds.map { .rounded($0) })
            m.append("time", time.map(JSONValue.string))
            if alert { m += [("alert", .bool(true)), ("tier", .string(Tier.critical.rawValue))] }
            return m + details.map { ($0.key, $0.json) }
        }

        /// The first detail of that name, as the log writes it.
        public subscript(_ name: Detail.Name) -> JSONValue? { details.first { $0.name == name }?.json }

        /// `seconds`: how long the condition had lasted when it was said.
        public var seconds: Double? { self[.seconds]?.numberValue }
        /// `unheard_s` of `listening`: how long the room went unheard before it.
        public var unheardSeconds: Double? { self[.unheard]?.numberValue }
        /// `retry_s` of `device_lost`: how long until the device is tried again.
        public var retrySeconds: Double? { self[.retry]?.numberValue }
        /// `id` of `clip_skipped`: the event whose clip was not kept.
        public var id: String? { self[.id]?.stringValue }
        public var error: String? { self[.error]?.stringValue }
    }
}

extension LogRecord.Status {
    /// One member of a status's details. A status says what it has to say with these (the
    /// doc comment of each `LogStatus` names its details); a log's member of a name this
    /// version does not know, or of another type than its name's, is kept as it was written
    /// (`other`), and written again the same.
    public enum Detail: Sendable, Equatable {
        /// The capture device.
        case device(String)
        case error(String)
        /// How long the condition had lasted (input silent or clipping, a stall, a log that
        /// could not be written, night audio not kept).
        case seconds(Double)
        /// `listening`: how long the room went unheard.
        case unheard(Double)
        /// `device_lost`: until the device is tried again.
        case retry(Double)
        case framesLost(Int)
        /// `sink_dropped`: the sink, and how many messages its queue dropped.
        case sink(String), dropped(Int)
        /// `log_write_failed`: records held in memory, and dropped.
        case recordsHeld(Int), recordsDropped(Int)
        /// `previous_session_unclean`: the events it left open.
        case openIDs([String])
        /// `clip_skipped`: the event whose clip was not kept.
        case id(String)
        case path(String)
        case reason(String)
        /// `length_mismatch`: the header's length (nil: it gives none) and the audio's.
        case headerSeconds(Double?), audioSeconds(Double)
        /// `bad_samples`: how many samples were not numbers, and where the first was.
        case samples(Int), firstSeconds(Double)
        /// `optional_refused`: what could not be used.
        case what(String)
        /// `profile_reloaded`: the profile in force, what waits for a restart, this home's memory
        /// and its fit.
        case profile(String), profileSHA256(String), restartNeeded(String), home(String), homeRefused(String)
        case homeFit(String), homeFitRefused(String)
        /// `home_learning_failed`: how the learning ended.
        case signal(Int), exitStatus(Int)
        /// Night audio: the night, a part's start, the audio not kept from, megabytes deleted.
        case night(String), startSeconds(Double), startTime(String), fromSeconds(Double), fromTime(String), megabytes(Double)
        /// A member of another name, or another type.
        case other(String, JSONValue)

        /// The names of the details, as the log writes them.
        public enum Name: String, Sendable, CaseIterable {
            case device, error, seconds, unheard = "unheard_s", retry = "retry_s", framesLost = "frames_lost", sink, dropped
            case recordsHeld = "records_held", recordsDropped = "records_dropped", openIDs = "open_ids", id, path, reason
            case headerSeconds = "header_s", audioSeconds = "audio_s", samples, firstSeconds = "first_s", what
            case profile, profileSHA256 = "profile_sha256", restartNeeded = "restart_needed", home, homeRefused = "home_refused"
            case homeFit = "home_fit", homeFitRefused = "home_fit_refused"
            case signal, exitStatus = "exit_status", night, startSeconds = "start_s", startTime = "start_time"
            case fromSeconds = "from_s", fromTime = "from_time", megabytes = "mb"
        }

        /// Its name; for `other`, the name its key spells, if any.
        public var name: Name? {
            switch self {
            case .device: .device
            case .error: .error
            case .seconds: .seconds
            case .unheard: .unheard
            case .retry: .retry
            case .framesLost: .framesLost
            case .sink: .sink
            case .dropped: .dropped
            case .recordsHeld: .recordsHeld
            case .recordsDropped: .recordsDropped
            case .openIDs: .openIDs
            case .id: .id
            case .path: .path
            case .reason: .reason
            case .headerSeconds: .headerSeconds
            case .audioSeconds: .audioSeconds
            case .samples: .samples
            case .firstSeconds: .firstSeconds
            case .what: .what
            case .profile: .profile
            case .profileSHA256: .profileSHA256
            case .restartNeeded: .restartNeeded
            case .home: .home
            case .homeRefused: .homeRefused
            case .homeFit: .homeFit
            case .homeFitRefused: .homeFitRefused
            case .signal: .signal
            case .exitStatus: .exitStatus
            case .night: .night
            case .startSeconds: .startSeconds
            case .startTime: .startTime
            case .fromSeconds: .fromSeconds
            case .fromTime: .fromTime
            case .megabytes: .megabytes
            case let .other(key, _): Name(rawValue: key)
            }
        }

        var key: String {
            if case let .other(key, _) = self { return key }
            return name!.rawValue
        }

        /// Its value as the log writes it. Numbers are written as given (the caller rounds
        /// them, `Double.asLogged`); one that is not a number is written null.
        public var json: JSONValue {
            func number(_ x: Double) -> JSONValue { x.isFinite ? .number(x) : .null }
            return switch self {
            case let .device(s), let .error(s), let .sink(s), let .id(s), let .path(s), let .reason(s), let .what(s), let .profile(s),
                 let .profileSHA256(s), let .restartNeeded(s), let .home(s), let .homeRefused(s), let .homeFit(s), let .homeFitRefused(s), let .night(s), let .startTime(s),
                 let .fromTime(s):
                .string(s)
            case let .seconds(x), let .unheard(x), let .retry(x), let .audioSeconds(x), let .firstSeconds(x), let .startSeconds(x),
                 let .fromSeconds(x), let .megabytes(x):
                number(x)
            case let .headerSeconds(x): x.map(number) ?? .null
            case let .framesLost(n), let .dropped(n), let .recordsHeld(n), let .recordsDropped(n), let .samples(n), let .signal(n),
                 let .exitStatus(n):
                .number(Double(n))
            case let .openIDs(ids): .array(ids.map(JSONValue.string))
            case let .other(_, value): value
            }
        }

        /// A member of a status record as written.
        init(_ member: (key: String, value: JSONValue)) {
            let (key, v) = member
            let s = v.stringValue, x = v.numberValue, n = x.flatMap { Int(exactly: $0) }
            let read: Detail? = switch Name(rawValue: key) {
            case .device: s.map(Detail.device)
            case .error: s.map(Detail.error)
            case .seconds: x.map(Detail.seconds)
            case .unheard: x.map(Detail.unheard)
            case .retry: x.map(Detail.retry)
            case .framesLost: n.map(Detail.framesLost)
            case .sink: s.map(Detail.sink)
            case .dropped: n.map(Detail.dropped)
            case .recordsHeld: n.map(Detail.recordsHeld)
            case .recordsDropped: n.map(Detail.recordsDropped)
            case .openIDs: JSONValue.object([(key, v)]).strings(key).map(Detail.openIDs)
            case .id: s.map(Detail.id)
            case .path: s.map(Detail.path)
            case .reason: s.map(Detail.reason)
            case .headerSeconds: v == .null ? .headerSeconds(nil) : x.map(Detail.headerSeconds)
            case .audioSeconds: x.map(Detail.audioSeconds)
            case .samples: n.map(Detail.samples)
            case .firstSeconds: x.map(Detail.firstSeconds)
            case .what: s.map(Detail.what)
            case .profile: s.map(Detail.profile)
            case .profileSHA256: s.map(Detail.profileSHA256)
            case .restartNeeded: s.map(Detail.restartNeeded)
            case .home: s.map(Detail.home)
            case .homeRefused: s.map(Detail.homeRefused)
            case .homeFit: s.map(Detail.homeFit)
            case .homeFitRefused: s.map(Detail.homeFitRefused)
            case .signal: n.map(Detail.signal)
            case .exitStatus: n.map(Detail.exitStatus)
            case .night: s.map(Detail.night)
            case .startSeconds: x.map(Detail.startSeconds)
            case .startTime: s.map(Detail.startTime)
            case .fromSeconds: x.map(Detail.fromSeconds)
            case .fromTime: s.map(Detail.fromTime)
            case .megabytes: x.map(Detail.megabytes)
            case nil: nil
            }
            // Read back, it must write what was there (a number like 1e300 is no Int).
            if let read, read.json == v { self = read } else { self = .other(key, v) }
        }
    }
}
