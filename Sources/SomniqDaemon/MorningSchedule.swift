/// When the daemon sends the morning summary: at `at`, local time, once a day, when the
/// daemon is listening then. A slot missed (the daemon was stopped, or started after it)
/// is not made up later: news of last night at 15:00 is no morning summary, and a daemon
/// restarted at 07:45 must not send it twice. A time of day is the wall clock's
/// (`DaemonClocks.wall`); a wall clock stepped forward past a slot by more than an hour
/// (a board without an RTC, when NTP first answers) sends nothing for it.
import SomniqConfig
import SomniqSupport

struct MorningSchedule {
    var at: HomeConfig.TimeOfDay { didSet { quiet = nil } }
    /// When it last sent, or when the daemon started (Unix time).
    var last: Double { didSet { quiet = nil } }
    /// A span of Unix time in which no slot is due, for this `at` and `last` (forgotten when
    /// either is set): looking the slot up (`DailyLearning.lastSlot`, local dates written and
    /// parsed) took 0.2 M instructions, asked every second (docs/benchmarks.md, "Where live
    /// CPU goes").
    private var quiet: (from: Double, until: Double)?

    /// How long a span without a due slot is trusted before the slot is looked up again.
    static let longestQuiet: Double = 60

    init(at: HomeConfig.TimeOfDay, last: Double) {
        self.at = at
        self.last = last
    }

    /// The slot due at `now` (Unix time), if one is.
    mutating func due(now: Double) -> Double? {
        if let q = quiet, q.from <= now, now < q.until { return nil }
        let slot = DailyLearning.lastSlot(at, atOrBefore: now)
        if slot > last && now - slot < 3600 { return slot }
        // Not due, and not until the next slot: a day's slots are 23 to 25 h apart (a change
        // of summer time), 22 to 26 h where one falls in the hour the change skips, so the
        // next is the last slot 27 h after this one, and none lies between.
        // The span is kept a minute at most: the machine's time zone may change under a
        // daemon that does not set TZ (`timedatectl set-timezone`, which the lookup follows),
        // and a span worked out in the old zone would then skip the new zone's slot.
        let next = DailyLearning.lastSlot(at, atOrBefore: slot + 27 * 3600)
        if next > slot { quiet = (from: now, until: min(next, now + Self.longestQuiet)) }
        return nil
    }

    /// The night a slot sums up: the one that began the evening before the slot's day
    /// (`2026-11-22` for 07:30 on 2026-11-23, and for 13:00 or 00:30 that day too), however
    /// long past midnight it went on.
    static func night(before slot: Double) -> String {
        let noon = WallClock.parse(WallClock.localDate(slot) + "T12:00") ?? slot
        return WallClock.localDate(noon - 86_400)
    }
}
