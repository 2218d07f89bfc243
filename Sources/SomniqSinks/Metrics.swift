import FoundationEssentials
import Glibc
import SomniqCore
import SomniqLog
import SomniqSupport

/// Why the metrics file could not be written.
public struct MetricsWriteError: Error, CustomStringConvertible {
    public var path: String
    public var errno: Int32
    public var description: String {
        "\(LogText.escape(path)): cannot write the metrics file: \(String(cString: strerror(errno))); check the directory exists and is writable, or set \"metrics\": null"
    }
}

/// The daemon's counters in the Prometheus text format (version 0.0.4), for
/// node_exporter's textfile collector: written to a temporary file beside `path` and
/// renamed over it, so a scrape never reads half a file. No port is opened. As a sink,
/// it counts a session's events and keeps its last minute's levels.
public final class Metrics: RecordSink {
    public struct Key: Hashable, Comparable {
        public var soundClass: SoundClass, tier: Tier
        public static func < (a: Key, b: Key) -> Bool { (a.soundClass, a.tier) < (b.soundClass, b.tier) }
    }

    public var room: String
    public var events: [Key: Int] = [:]
    public var alerts: [Key: Int] = [:]
    public var overrunFrames = 0
    public var deviceUp = false
    /// The last minute's mean level and the background floor, dBFS.
    public var levelDbfs: Double?
    public var floorDbfs: Double?
    /// Unix time of the last audio read from the device.
    public var lastAudio: Date?
    public var streamSeconds = 0.0
    public var sinks: [(name: String, counts: SinkCounts)] = []

    /// Every class starts at 0 under its tier in `profile`, so that a rate or an
    /// absence alert has a series to look at before the first event.
    public init(room: String, profile: Profile) {
        self.room = room
        for c in SoundClass.allCases {
            let key = Key(soundClass: c, tier: profile.rule(for: c).tier)
            events[key] = 0
            alerts[key] = 0
        }
    }

    public func write(_ record: SessionRecord, logged: LogRecord?) {
        switch record {
        case let .output(.start(e)): count(e)
        case let .output(.level(minute)):
            levelDbfs = minute.leqDbfs
            floorDbfs = minute.floorDbfs
        default: break
        }
    }

    public func count(_ e: EventStart) {
        let key = Key(soundClass: e.soundClass, tier: e.tier)
        events[key, default: 0] += 1
        alerts[key, default: 0] += e.alert ? 1 : 0
    }

    public func render() -> String {
        var out = ""
        let room = "room=\"\(room)\""
        func family(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Double)]) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for s in samples {
                let labels = s.labels.isEmpty ? room : "\(room),\(s.labels)"
                out += "\(name){\(labels)} \(JSONValue.format(s.value))\n"
            }
        }
        func byClass(_ counts: [Key: Int]) -> [(String, Double)] {
            counts.keys.sorted().map { ("class=\"\($0.soundClass.rawValue)\",tier=\"\($0.tier.rawValue)\"", Double(counts[$0]!)) }
        }
        family("somniq_events_total", "counter", "Sound events detected, by class and tier (suppressed ones too).", byClass(events))
        family("somniq_alerts_total", "counter", "Events that alerted (not suppressed by cooldown), by class and tier.", byClass(alerts))
        func bySink(_ pick: (SinkCounts) -> Int) -> [(String, Double)] {
            sinks.map { ("sink=\"\($0.name)\"", Double(pick($0.counts))) }
        }
        family("somniq_sink_deliveries_total", "counter", "Notifications a sink delivered.", bySink(\.delivered))
        family("somniq_sink_dropped_total", "counter", "Notifications a sink's full queue (or shutdown) dropped.", bySink(\.dropped))
        family("somniq_sink_failures_total", "counter", "Failed delivery attempts (each retry counts).", bySink(\.failures))
        family("somniq_sink_rate_limited_total", "counter", "Event starts a sink's rate limit held back.", bySink(\.rateLimited))
        family("somniq_sink_queue_length", "gauge", "Notifications waiting in a sink's queue.", bySink(\.queued))
        family("somniq_overrun_frames_total", "counter", "Audio frames lost to capture overruns.", [("", Double(overrunFrames))])
        family("somniq_device_up", "gauge", "1 while audio arrives from the capture device.", [("", deviceUp ? 1 : 0)])
        family("somniq_stream_seconds_total", "counter", "Seconds of audio analysed since the daemon started.", [("", streamSeconds)])
        if let levelDbfs {
            family("somniq_level_dbfs", "gauge", "Mean sound level over the last minute, dB full scale.", [("", (levelDbfs * 10).rounded() / 10)])
        }
        if let floorDbfs {
            family("somniq_floor_dbfs", "gauge", "Background noise floor, dB full scale.", [("", (floorDbfs * 10).rounded() / 10)])
        }
        if let lastAudio {
            family("somniq_last_audio_timestamp_seconds", "gauge", "Unix time of the last audio read.",
                   [("", (lastAudio.timeIntervalSince1970 * 1000).rounded() / 1000)])
        }
        return out
    }

    /// Replaces `path` with the rendered metrics in one rename.
    public func write(to path: String) throws(MetricsWriteError) {
        if let failure = replaceContents(of: path, with: Array(render().utf8)) {
            throw MetricsWriteError(path: failure.path, errno: failure.errno)
        }
    }
}
