import FoundationEssentials
import Glibc
import SomniqCore
import SomniqSupport

/// A configuration file that cannot be used: which file, which key, what is wrong.
public struct ConfigError: FieldError, CustomStringConvertible, Equatable {
    public var file: String, keyPath: String, problem: String
    public init(file: String, keyPath: String, problem: String) {
        self.file = file
        self.keyPath = keyPath
        self.problem = problem
    }
    public var description: String { keyPath.isEmpty ? "\(file): \(problem)" : "\(file): \(keyPath): \(problem)" }
}

/// `/etc/somniq/config.json`: what the daemon listens to, how eagerly, and where it writes.
public struct DaemonConfig: Sendable, Equatable {
    public var device = "default"
    public var profile = "balanced"
    public var log = DaemonConfig.defaultLog
    /// In the service's state directory, which systemd creates (`StateDirectory=somniq`).
    public static let defaultLog = "/var/lib/somniq/events.jsonl"
    /// Seconds of digital silence or a stuck value before `input_silent`.
    public var silenceSeconds = InputWatch.Limits().silenceSeconds
    /// Seconds of continuous clipping before `clipping`.
    public var clippingSeconds = InputWatch.Limits().clippingSeconds
    public var watchLimits: InputWatch.Limits { .init(silenceSeconds: silenceSeconds, clippingSeconds: clippingSeconds) }
    /// Seconds without any audio from an open device before `capture_stalled`: `silence_s`,
    /// or 10 s if that is sooner. A capture that stalls (a stuck USB device, a stalled sound
    /// server) sends nothing at all, so no window reaches the pipeline's silence check; 10 s
    /// is twice the 5 s a loaded machine may hold a read (`LiveState.stalledSeconds`) and a
    /// third of the unit's `WatchdogSec=30`, so the alert is out well before systemd
    /// restarts the daemon.
    public var stallSeconds: Double { min(silenceSeconds, 10) }
    /// The room this daemon listens to: its MQTT topics, Home Assistant device and labels.
    public var room = "bedroom"
    /// The Prometheus textfile, rewritten each minute; nil writes none. By default
    /// `somniq.prom` beside the log.
    public var metrics: String??
    /// Where alerts go besides the log.
    public var sinks: [SinkConfig] = []
    /// Clips of alerted events (off by default).
    public var clips = ClipConfig()
    /// The clips directory in force.
    public var clipsDirectory: String { clips.directory(besideLog: log) }
    /// The audio heard, kept night by night (off by default).
    public var nightAudio = NightAudioConfig()
    /// The night audio directory in force.
    public var nightAudioDirectory: String { nightAudio.directory(besideLog: log) }
    /// The web page (off unless configured).
    public var http: HTTPConfig?
    /// Why the configured web page is off: its token file cannot be used (read with
    /// `checkingOptional` false; else it is thrown).
    public var httpRefused: TokenFileRefused?
    public struct TokenFileRefused: Sendable, Equatable {
        public var path: String
        public var error: ConfigError
    }
    /// This home's memory learned by the daemon once a day (off by default).
    public var home = HomeConfig()
    /// Last night in three lines, each morning, to the sinks that take it (on by default).
    public var morningSummary = MorningSummaryConfig()
    /// The time zone people read times in (notifications, the page, reports): an IANA
    /// name, `Europe/Berlin`; nil keeps the machine's (or `TZ`'s).
    public var timeZone: String?

    /// The metrics file in force: the configured one, or `somniq.prom` beside the log.
    public var metricsPath: String? {
        if let metrics { return metrics }
        return PathText.deletingLastComponent(log) + "/somniq.prom"
    }

    public init() {}

    /// Values given on the command line: they win over the file, on reload too.
    public struct Overrides: Sendable, Equatable {
        public var device: String?, profile: String?, log: String?
        public init(device: String? = nil, profile: String? = nil, log: String? = nil) {
            self.device = device
            self.profile = profile
            self.log = log
        }
    }

    /// This configuration with the command line's values put over it.
    public func overridden(by o: Overrides) -> DaemonConfig {
        var c = self
        if let d = o.device { c.device = d }
        if let p = o.profile { c.profile = p }
        if let l = o.log { c.log = l }
        return c
    }

    /// The sinks as the daemon makes them at start: none takes the morning summary when it
    /// is off (`"morning_summary": {"enabled": false}`), so that MQTT announces no "Last
    /// night" sensor that nothing would fill (turned on by a reload, it takes a restart).
    public var sinksInForce: [SinkConfig] {
        sinks.map { var s = $0; s.morningSummary = s.morningSummary && morningSummary.enabled; return s }
    }

    /// What a reload puts in force over this configuration: `new`'s profile, input-watch
    /// limits, daily learning (`home`) and morning summary. The device, the log, the sinks, clips, night
    /// audio and http stay as they are until a restart (`restartNeeded`).
    public func reloaded(from new: DaemonConfig) -> DaemonConfig {
        var c = self
        c.profile = new.profile
        c.home = new.home
        c.morningSummary = new.morningSummary
        c.silenceSeconds = new.silenceSeconds
        c.clippingSeconds = new.clippingSeconds
        return c
    }

    /// Whether `new` changes what only a restart puts in force, of what a reload is told of.
    public func restartNeeded(for new: DaemonConfig) -> Bool {
        new.device != device || new.log != log || new.http != http || new.nightAudio != nightAudio
    }

    /// The ranges of `silence_s` and `clipping_s` (as schemas/config.schema.json gives them).
    public static let silenceRange = 1.0...3600, clippingRange = 0.5...3600

    public static let keys = ["device", "profile", "log", "silence_s", "clipping_s", "room", "metrics", "sinks", "clips", "night_audio", "http", "time_zone", "home", "morning_summary"]

    /// The file read when none is named.
    public static let defaultPath = "/etc/somniq/config.json"

    /// The configuration in force: `path` when given, else the default file when it exists,
    /// else the built-in defaults (path nil).
    public static func inForce(path given: String?, checkingOptional: Bool = true) throws(ConfigError) -> (config: DaemonConfig, path: String?) {
        let path = given ?? (FileManager.default.fileExists(atPath: defaultPath) ? defaultPath : nil)
        guard let path else { return (DaemonConfig(), nil) }
        return (try read(path: path, checkingOptional: checkingOptional), path)
    }

    /// Reads and validates a configuration file; and, unless told not to, what it names
    /// that is optional: its clips and night-audio directories (`checkDirectories`) and
    /// the web page's token file. The daemon is told not to: it listens without what
    /// cannot be used, and says so (`SessionService.Refused`); the web page is then off
    /// (`httpRefused`).
    public static func read(path: String, checkingOptional: Bool = true) throws(ConfigError) -> DaemonConfig {
        switch TextFile.read(path, what: "a configuration (.json)") {
        // Bytes that are not UTF-8 are decoded as U+FFFD, which `string()` refuses with its key.
        case let .success(bytes):
            let c = try parse(String(decoding: bytes, as: UTF8.self), file: path, refusingOptional: !checkingOptional)
            if checkingOptional { try c.checkDirectories(file: path) }
            return c
        case let .failure(e):
            throw ConfigError(file: path, keyPath: "", problem: e.problem == "no such file; check the path"
                              ? "no such file; create it or pass --config" : e.problem)
        }
    }

    /// With clips or night audio enabled, their directory in force must be a directory, or
    /// not exist yet (it is made when first needed): a regular file there would keep
    /// nothing all night. `read` checks it; after `--log` is put over the file, check again.
    /// `run --check-config` refuses such a directory; `run` listens without it.
    public func checkDirectories(file: String?) throws(ConfigError) {
        if clips.enabled, let reason = ClipStore.notADirectory(clipsDirectory) {
            throw ConfigError(file: file ?? "(built-in defaults)", keyPath: clips.directory == nil ? "log" : "clips.dir",
                              problem: "the clips directory \(clipsDirectory) \(reason), so no clip could be kept; "
                              + (clips.directory == nil ? "set clips.dir to a directory" : "name a directory") + ", or move the file away")
        }
        if nightAudio.enabled, let reason = ClipStore.notADirectory(nightAudioDirectory) {
            throw ConfigError(file: file ?? "(built-in defaults)", keyPath: nightAudio.directory == nil ? "log" : "night_audio.dir",
                              problem: "the night audio directory \(nightAudioDirectory) \(reason), so no audio could be kept; "
                              + (nightAudio.directory == nil ? "set night_audio.dir to a directory" : "name a directory")
                              + ", or move the file away")
        }
    }

    public static func parse(_ text: String, file: String) throws(ConfigError) -> DaemonConfig {
        try parse(text, file: file, refusingOptional: false)
    }

    /// `refusingOptional`: a web page whose token file cannot be used is off, and why is
    /// `httpRefused`, rather than thrown.
    static func parse(_ text: String, file: String, refusingOptional: Bool) throws(ConfigError) -> DaemonConfig {
        let root = try JSONField<ConfigError>(parsing: text, file: file).object("must be a JSON object")
        var c = DaemonConfig()
        for (key, field) in root.entries {
            switch key {
            case "device": c.device = try field.text()
            case "profile": c.profile = try field.text()
            case "log": c.log = try field.absolutePath()
            // Under a second, the gap between two ALSA periods would be "silent"; over an
            // hour, a dead microphone would go unsaid for a sleep cycle or more.
            case "silence_s": c.silenceSeconds = try field.number(in: Self.silenceRange, unit: "seconds")
            // Under half a second, any slam near the microphone would be "clipping"; over an
            // hour, the same as silence_s.
            case "clipping_s": c.clippingSeconds = try field.number(in: Self.clippingRange, unit: "seconds")
            case "room": c.room = try field.safeName(because: "it names MQTT topics")
            case "metrics":
                if case .null = field.value { c.metrics = .some(nil); continue }
                c.metrics = try field.absolutePath(or: "null for none")
            case "sinks":
                c.sinks = try field.array("must be an array of sinks").map { item throws(ConfigError) in try SinkConfig.parse(item) }
                try SinkConfig.nameDistinctly(&c.sinks, file: file)
            case "clips": c.clips = try ClipConfig.parse(field)
            case "night_audio": c.nightAudio = try NightAudioConfig.parse(field)
            case "http":
                var refused: TokenFileRefused?
                c.http = try HTTPConfig.parse(field, tokenFileRefused: refusingOptional ? { refused = TokenFileRefused(path: $0, error: $1) } : nil)
                // Never a page without its token: it is off.
                if let refused {
                    c.http = nil
                    c.httpRefused = refused
                }
            case "home": c.home = try HomeConfig.parse(field)
            case "morning_summary": c.morningSummary = try MorningSummaryConfig.parse(field)
            case "time_zone":
                let zone = try field.text()
                guard TimeZoneName.exists(zone) else {
                    throw field.error("\"\(LogText.escape(zone))\" is not a time zone this machine knows (a name under /usr/share/zoneinfo, such as \"Europe/Berlin\"; install tzdata)")
                }
                c.timeZone = zone
            // A comment ("//http": "…"), as the default configuration shows what is off.
            case let comment where comment.hasPrefix("//"): _ = try field.text()
            default: throw root.unknownKey(key, expected: keys)
            }
        }
        return c
    }
}

/// What is wrong with a string from a configuration, if anything: a control character
/// (a device name with a newline in it would reach systemd as a line of its own) or bytes
/// that were not UTF-8 (a path would silently name another file).
public enum ConfigText {
    public static func problem(_ s: String) -> String? {
        if s.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "must not contain control characters"
        }
        if s.unicodeScalars.contains("\u{FFFD}") { return "is not valid UTF-8" }
        return nil
    }
}

/// IANA time zone names, as glibc reads them from the tz database (`/usr/share/zoneinfo`).
public enum TimeZoneName {
    /// Whether `name` is a zone of the database: `Region/City` (letters, digits, `_+-`),
    /// a file there that starts as every compiled zone does (`TZif`).
    public static func exists(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.count <= 64, parts.allSatisfy({ p in
            !p.isEmpty && p != "." && p != ".." && p.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_+-".unicodeScalars.contains($0)) }
        }) else { return false }
        let fd = open("/usr/share/zoneinfo/" + name, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var st = stat()
        var magic = [UInt8](repeating: 0, count: 4)
        return fstat(fd, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && read(fd, &magic, 4) == 4 && magic == Array("TZif".utf8)
    }

    /// Puts `name` in force for this process: every local time from here on is in it.
    public static func use(_ name: String) {
        setenv("TZ", name, 1)
        tzset()
    }
}
