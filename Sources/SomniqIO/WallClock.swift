import Foundation

/// ISO 8601 UTC timestamps with milliseconds (`2026-11-22T23:30:25.787Z`), formatted
/// with `gmtime_r`: no locale or ICU data is loaded into a daemon that runs all night.
public enum WallClock {
    public static func iso8601(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        var seconds = time_t(t.rounded(.down))
        var millis = Int(((t - Double(seconds)) * 1000).rounded())
        if millis == 1000 { seconds += 1; millis = 0 }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), millis)
    }
}
