import FoundationEssentials
import SomniqConfig
import SomniqCore
import SomniqSupport

/// When the daemon learns this home's memory (`"home": {"learn_daily": true}`): at
/// `learn_at`, local time, once a day; and at once when the last learning is older than
/// the last `learn_at` passed: the daemon was stopped then, or has never learned (so at
/// start when the last learning is older than a day). A time of day is the wall clock's
/// (`DaemonClocks.wall`); a wall clock stepped back (a board without an RTC, before NTP
/// answers) makes nothing due until it has passed the last learning again.
struct DailyLearning {
    var at: HomeConfig.TimeOfDay
    /// When it last learned, or tried to (Unix time): a learning that failed is tried
    /// again at the next `learn_at`, not every second. Nil: never.
    var last: Double?

    func due(now: Double) -> Bool {
        guard let last else { return true }
        return last < Self.lastSlot(at, atOrBefore: now)
    }

    /// The latest `at` at or before `now` (Unix time), local time.
    static func lastSlot(_ at: HomeConfig.TimeOfDay, atOrBefore now: Double) -> Double {
        let today = WallClock.parse(WallClock.localDate(now) + "T" + at.description) ?? now
        if today <= now { return today }
        return WallClock.parse(WallClock.localDate(now - 86_400) + "T" + at.description) ?? today - 86_400
    }

    /// When `memory` was learned, as its `learned` line says; nil when it says nothing
    /// (a memory from elsewhere, or none).
    static func learned(_ memory: HomeMemory?) -> Double? {
        memory?.header.last { $0.key == "learned" }.flatMap { WallClock.parse($0.value) }
    }
}
