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

    /// Why an event was raised, from its `event_start` record's trace:
    /// "score 98 % (alerts from 70 %), 22 dB over the room's background". A score is how
    /// well the sound fits the class's rules, not a probability: the words say so and
    /// give the line it had to cross.
    public static func why(trace t: LogRecord.Trace?) -> String {
        let score = t?.peakSmoothed ?? 0
        let on = t?.on ?? 0
        var s = String(cFormat: "score %.0f %% (alerts from %.0f %%)", 100 * score, 100 * on)
        if let level = t?.levelDbfs, let floor = t?.floorDbfs {
            let over = level - floor
            s += over >= 0.5 ? String(cFormat: ", %.0f dB over the room's background", over) : ", no louder than the room's background"
        }
        return s
    }
}
