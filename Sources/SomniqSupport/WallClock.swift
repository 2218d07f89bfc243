import FoundationEssentials
import Glibc

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
        return String(cFormat: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), millis)
    }
}

extension WallClock {
    /// Unix time of an ISO 8601 time as the log writes it (`2026-11-22T23:30:25.787Z`, UTC)
    /// or as a person types it (`2026-11-22T23:10`, `2026-11-22 23:10:30`: local time).
    public static func parse(_ text: String) -> Double? {
        let utc = text.hasSuffix("Z")
        let body = utc ? String(text.dropLast()) : text
        let parts = body.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-").compactMap { Int($0) }
        let clock = parts[1].split(separator: ":")
        guard date.count == 3, clock.count == 2 || clock.count == 3,
              let hour = Int(clock[0]), let minute = Int(clock[1]) else { return nil }
        let second = clock.count == 3 ? Double(clock[2]) : 0
        // Years as ISO 8601 writes them without an expansion: a larger one (from a damaged
        // log, or typed) is no time, not an overflow of `tm_year`.
        guard let second, (1...9999).contains(date[0]), (1...12).contains(date[1]), (1...31).contains(date[2]), (0...23).contains(hour),
              (0...59).contains(minute), second >= 0, second < 61 else { return nil }
        var t = tm()
        t.tm_year = Int32(date[0] - 1900)
        t.tm_mon = Int32(date[1] - 1)
        t.tm_mday = Int32(date[2])
        t.tm_hour = Int32(hour)
        t.tm_min = Int32(minute)
        t.tm_isdst = -1
        let whole = utc ? timegm(&t) : mktime(&t)
        return Double(whole) + second
    }

    /// Local time of day, `23:10`, or with seconds `23:10:05`.
    public static func localTime(_ unix: Double, seconds: Bool = false) -> String {
        let t = local(unix)
        return seconds ? String(cFormat: "%02d:%02d:%02d", Int(t.tm_hour), Int(t.tm_min), Int(t.tm_sec))
            : String(cFormat: "%02d:%02d", Int(t.tm_hour), Int(t.tm_min))
    }

    /// Local time of day with its zone, as a person reads it in a notification:
    /// `03:12:08 CET` (the zone of `TZ`, the configuration's `time_zone`, or the machine's).
    public static func localTimeWithZone(_ unix: Double) -> String {
        var t = local(unix)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, "%H:%M:%S %Z", &t)
        return n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : localTime(unix, seconds: true)
    }

    /// Local date, `2026-11-22`.
    public static func localDate(_ unix: Double) -> String {
        let t = local(unix)
        return String(cFormat: "%04d-%02d-%02d", Int(t.tm_year) + 1900, Int(t.tm_mon) + 1, Int(t.tm_mday))
    }

    /// The night a time belongs to: the local date of the evening it began (a night runs
    /// from noon to noon), `2026-11-22` for 03:00 on the 23rd.
    public static func night(_ unix: Double) -> String { localDate(unix - 12 * 3600) }

    /// To the millisecond first, as `iso8601` writes it: a time read back from the log
    /// (`…:05.000Z`, less a night's start plus it again) is the same second here.
    private static func local(_ unix: Double) -> tm {
        var seconds = time_t(((unix * 1000).rounded() / 1000).rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return parts
    }
}

extension WallClock {
    /// The first time after `unix` at which a stretch of `seconds` ends when stretches are
    /// laid end to end from local midnight: the next multiple of `seconds` of the local day,
    /// or midnight, or noon (where a night ends), whichever comes first. With `seconds` a
    /// divisor of an hour, cuts fall on the clock's round times (every hour: 00:00, 01:00…).
    /// A cut the clock skips or repeats (a daylight-saving change) is moved to keep every
    /// stretch after `unix` and at most `seconds` long.
    public static func nextCut(after unix: Double, every seconds: Int) -> Double {
        var whole = time_t(unix.rounded(.down))
        var t = tm()
        localtime_r(&whole, &t)
        let ofDay = Int(t.tm_hour) * 3600 + Int(t.tm_min) * 60 + Int(t.tm_sec)
        var cut = min((ofDay / seconds + 1) * seconds, 86_400)
        if ofDay < 43_200 { cut = min(cut, 43_200) }
        var at = t
        at.tm_hour = Int32(cut / 3600)
        at.tm_min = Int32(cut / 60 % 60)
        at.tm_sec = Int32(cut % 60)
        at.tm_isdst = -1
        let found = Double(mktime(&at))
        let latest = unix + Double(seconds)
        return found > unix && found <= latest ? found : latest
    }
}
