import FoundationEssentials
import Glibc
import SomniqCore
import SomniqSupport

/// `"clips"` in config.json: whether alerted events keep their sound, which, how much,
/// and within what disk. Off unless `"enabled": true`.
public struct ClipConfig: Sendable, Equatable {
    public var enabled = false
    public var policy = ClipPolicy()
    /// nil: `clips/` beside the event log (`/var/lib/somniq/clips`).
    public var directory: String?
    /// The quota, which is the policy's (`ClipPolicy.maxMB`, `maxAgeDays`).
    public var maxMB: Double {
        get { policy.maxMB }
        set { policy.maxMB = newValue }
    }
    public var maxAgeDays: Double {
        get { policy.maxAgeDays }
        set { policy.maxAgeDays = newValue }
    }

    public init() {}

    public static let keys = ["enabled", "min_tier", "pre_s", "post_s", "max_s", "max_mb", "max_age_days", "classes", "dir"]

    /// The directory in force for a log at `log`.
    public func directory(besideLog log: String) -> String {
        directory ?? (PathText.deletingLastComponent(log) + "/clips")
    }

    /// Parses `"clips"`; errors name the key path (`clips.max_mb`).
    static func parse(_ field: JSONField<ConfigError>) throws(ConfigError) -> ClipConfig {
        let fields = try field.object()
        try fields.allowOnly(keys)
        var c = ClipConfig()
        c.enabled = try fields["enabled"]?.bool() ?? false
        c.policy.minTier = try fields["min_tier"]?.tier() ?? c.policy.minTier
        // Up to 30 s either side: the ring holding what precedes an onset is kept in memory.
        c.policy.preSeconds = try fields["pre_s"]?.number(in: 0...30, unit: "seconds") ?? c.policy.preSeconds
        c.policy.postSeconds = try fields["post_s"]?.number(in: 0...30, unit: "seconds") ?? c.policy.postSeconds
        // 5 s holds a bark; 5 minutes of 16 kHz audio is what a clip's buffer may take.
        c.policy.maxSeconds = try fields["max_s"]?.number(in: 5...300, unit: "seconds") ?? c.policy.maxSeconds
        // 1 MB holds a few clips; 1 TB is more than a small machine's disk.
        c.maxMB = try fields["max_mb"]?.number(in: 1...1_000_000, unit: "MB") ?? c.maxMB
        // From a quarter of an hour to ten years.
        c.maxAgeDays = try fields["max_age_days"]?.number(in: 0.01...3650, unit: "days") ?? c.maxAgeDays
        c.policy.classes = try fields["classes"]?.classes()
        c.directory = try fields["dir"]?.absolutePath()
        return c
    }
}
