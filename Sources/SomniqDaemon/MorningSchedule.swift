/// When the daemon sends the morning summary: at `at`, local time, once a day, when the
/// daemon is listening then. A slot missed (the daemon was stopped, or started after it)
/// is not made up later: news of last night at 15:00 is no morning summary, and a daemon
/// restarted at 07:45 must not send it twice. A time of day is the wall clock's
/// (`DaemonClocks.wall`); a wall clock stepped forward past a slot by more than an hour
/// (a board without an RTC, when NTP first answers) sends nothing for it.
import SomniqConfig
import SomniqSupport

struct MorningSchedule {
    var at: HomeConfig.TimeOfDay
    /// When it last sent, or when the daemon started (Unix time).
    var last: Double

    /// The slot due at `now` (Unix time), if one is.
    func due(now: Double) -> Double? {
        let slot = DailyLearning.lastSlot(at, atOrBefore: now)
        return slot > last && now - slot < 3600 ? slot : nil
    }

    /// The night a slot sums up: the one that began the evening before the slot's day
    /// (`2026-11-22` for 07:30 on 2026-11-23, and for 13:00 or 00:30 that day too), however
    /// long past midnight it went on.
    static func night(before slot: Double) -> String {
        let noon = WallClock.parse(WallClock.localDate(slot) + "T12:00") ?? slot
        return WallClock.localDate(noon - 86_400)
    }
}
