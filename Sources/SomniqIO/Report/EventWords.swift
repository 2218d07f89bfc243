import FoundationEssentials
import SomniqCore
import SomniqLog

/// An event in a carer's words, the same on the report, the web page and a notification:
/// what was heard, the score its profile compared (`confidence`: the peak smoothed score,
/// which the rule's `on` is measured against) and how far it stood over the room.
public enum EventWords {
    /// "cough", "smoke alarm".
    public static func name(_ c: SoundClass) -> String { c.rawValue.replacing("_", with: " ") }

    /// "Cough", "Smoke alarm".
    public static func title(_ c: SoundClass) -> String {
        let n = name(c)
        return n.prefix(1).uppercased() + n.dropFirst()
    }

    /// "a dog bark", "snoring": the class as a sentence names one of it.
    public static func one(_ c: SoundClass) -> String {
        switch c {
        case .smokeAlarm, .gasp, .scream, .cough, .babyCry, .dogBark, .door, .phoneRing, .breathingPause: "a " + name(c)
        case .glassBreak, .snoring, .speech, .laughter, .music, .breathing, .thunder: name(c)
        }
    }

    /// What this home's memory made of an event of class `c`, in the words of whoever marked
    /// the sound it was like: "held back: like the sound you marked “not a dog bark” on
    /// 2026-11-22 at 23:40 (distance 0.40)". The date and time are the box's local ones.
    public static func home(_ h: LogRecord.Home, _ c: SoundClass) -> String {
        var like = "like the sound you marked “not \(one(c))”"
        if let t = h.at.flatMap(WallClock.parse) {
            like += " on \(WallClock.localDate(t)) at \(WallClock.localTime(t))"
        } else {
            like += " (event \(h.like))"
        }
        like += String(cFormat: " (distance %.2f)", h.distance)
        return h.kept == nil ? "held back: " + like : like + ", alerted all the same: \(one(c)) this far over its line is never held back"
    }

    /// Why an event was raised, from its `event_start` record's trace:
    /// "score 98 % (alerts from 70 %), 22 dB over the room's background". A score is how
    /// well the sound fits the class's rules, not a probability: the words say so and
    /// give the line it had to cross. With the event's class, what this home's memory made
    /// of it follows (`home`).
    public static func why(trace t: LogRecord.Trace?, of c: SoundClass? = nil) -> String {
        let score = t?.peakSmoothed ?? 0
        let on = t?.on ?? 0
        var s = String(cFormat: "score %.0f %% (alerts from %.0f %%)", 100 * score, 100 * on)
        if let level = t?.levelDbfs, let floor = t?.floorDbfs {
            let over = level - floor
            s += over >= 0.5 ? String(cFormat: ", %.0f dB over the room's background", over) : ", no louder than the room's background"
        }
        if let h = t?.home, let c { s += "; " + home(h, c) }
        return s
    }
}
