import SomniqCore
import SomniqSupport

/// `"night_audio"` in config.json: whether the daemon keeps the audio it hears, where, and
/// within what disk. Off unless `"enabled": true`.
///
/// 16 kHz mono 16-bit FLAC takes 17 kB a second of a bedroom's sound (measured on the demo
/// night and the corpus's quiet room alike: a microphone's noise floor leaves FLAC little
/// to compress), 61 MB an hour, 490 MB for 8 h, 1.5 GB for the 24 h of a night (noon to
/// noon) when the daemon listens round the clock.
public struct NightAudioConfig: Sendable, Equatable {
    public var enabled = false
    /// nil: `nights/` beside the event log (`/var/lib/somniq/nights`).
    public var directory: String?
    /// The oldest whole nights are deleted past this many megabytes (10^6 bytes). 3000 MB
    /// holds two nights of round-the-clock listening (2 × 1.5 GB), so that last night stays
    /// whole all day while tonight is written; or six nights of 8 h.
    public var maxMB = 3000.0
    /// Nights kept, tonight's among them: a week.
    public var keepNights = 7
    /// Seconds of a part: a new file starts at each multiple of it on the local clock (each
    /// hour), at noon and when the audio's wall-clock time jumps. An hour is a file of 61 MB,
    /// found by its time; shorter parts are for tests (10 s at least).
    public var partSeconds = 3600

    public var maxBytes: Int64 { Int64(maxMB * 1_000_000) }

    public init() {}

    public static let keys = ["enabled", "dir", "max_mb", "keep_nights", "part_s"]

    /// The directory in force for a log at `log`.
    public func directory(besideLog log: String) -> String {
        directory ?? (PathText.deletingLastComponent(log) + "/nights")
    }

    /// Parses `"night_audio"`; errors name the key path (`night_audio.max_mb`).
    static func parse(_ field: JSONField<ConfigError>) throws(ConfigError) -> NightAudioConfig {
        let fields = try field.object()
        try fields.allowOnly(keys)
        var c = NightAudioConfig()
        c.enabled = try fields["enabled"]?.bool() ?? false
        c.directory = try fields["dir"]?.absolutePath()
        // As clips: 1 MB keeps only tonight (never deleted); 1 TB is more than a small
        // machine's disk.
        c.maxMB = try fields["max_mb"]?.number(in: 1...1_000_000, unit: "MB") ?? c.maxMB
        // One is tonight alone; ten years is as long as anyone keeps anything.
        c.keepNights = try fields["keep_nights"]?.integer(in: 1...3650) ?? c.keepNights
        // Under 10 s, parts would be files of a few blocks; over an hour, a larger file to
        // copy or open for one moment of the night.
        c.partSeconds = try fields["part_s"]?.integer(in: 10...3600) ?? c.partSeconds
        return c
    }
}
