import FoundationEssentials
import SomniqCore
import SomniqLog
import SomniqSupport

/// An event in a carer's words, the same on the report, the web page and a notification:
/// what was heard, the score its profile compared (`confidence`: the peak smoothed score,
/// which the rule's `on` is measured against) and how far it stood over the room.
public enum EventWords {
    // `name(_:)` ("cough", "smoke alarm", "low-battery chirp"), `one(_:)` ("a dog bark",
    // "snoring") and `sensor(_:)` (its Home Assistant binary sensor's device class: "smoke",
    // "sound") are made at build time from classes/classes.tsv's `words`, `one` and `sensor`
    // (Plugins/EmbedData, scripts/embed-class-looks.sh).

    /// "Cough", "Smoke alarm".
    public static func title(_ c: SoundClass) -> String {
        let n = name(c)
        return n.prefix(1).uppercased() + n.dropFirst()
    }

    /// What this home's memory made of an event of class `c`, in the words of whoever marked
    /// the sound it was like: "held back: like the sound you marked “not a dog bark” on
    /// 2026-11-22 at 23:40 (distance 0.40)"; "held back and logged as snoring: like the sound
    /// you marked “it was snoring” on …"; on the event logged so, "sounds like the snoring you
    /// marked on 2026-11-22 at 02:14 (distance 0.31), heard as another class (event e6)" (for a
    /// critical class its own rule did not hear, `unheard`, with "; not raised as urgent:
    /// this home's marks say so, somniq's own rules did not confirm it"); "held
    /// back: more like the dog bark you marked right on … than any door you marked right" (where
    /// the trace names no class it knows, "more like a sound you marked right"); where the
    /// class was the one the home confirmed at the marked sound (`heard`), "held back and
    /// logged as snoring: like the sound you marked “not a cough” on … (distance 0.31), where
    /// you marked the snoring right". An event held back only, too far from a sound said to be
    /// snoring to be logged as snoring (`said`), keeps the words said: "held back: like the
    /// sound you marked “it was snoring” on … (distance 1.40)".
    /// The date and time are the box's local ones.
    public static func home(_ h: LogRecord.Home, _ c: SoundClass) -> String {
        var when = ""
        if let t = h.at.flatMap(WallClock.parse) {
            when = " on \(WallClock.localDate(t)) at \(WallClock.localTime(t))"
        } else {
            when = " (event \(h.like))"
        }
        when += String(cFormat: " (distance %.2f)", h.distance)
        if h.label == HomeMemory.Kind.right.rawValue {
            // A log whose `class` is missing or names a class this somniq does not know still
            // says a sound marked right, never a "not" mark.
            let other = h.confirmed.map { "the \(name($0))" } ?? "a sound"
            return "held back: more like \(other) you marked right\(when) than any \(name(c)) you marked right"
        }
        if let from = h.from, let was = h.was {
            // Where the class was the home's own (`heard`), the event marked was marked "not
            // this"; the sound marked right was another event at its moment.
            let marked = h.heard ? "sound you marked “not this”\(when), where you marked the \(name(was)) right," : "\(name(was)) you marked\(when),"
            // A critical class its own rule did not hear alerts at the tier of what was heard
            // (`unheard`): the carer reads why it did not wake them.
            let unheard = h.unheard ? "; not raised as urgent: this home's marks say so, somniq's own rules did not confirm it" : ""
            return "sounds like the \(marked) heard as another class (event \(from))" + unheard
        }
        // Where the class was the home's own (`heard`), the words are the listener's "not" and
        // the sound they marked right there.
        let said = h.heard ? nil : h.was ?? h.said
        let like = "like the sound you marked “" + (said.map { "it was \(one($0))" } ?? "not \(one(c))") + "”" + when
            + (h.heard ? h.was.map { ", where you marked the \(name($0)) right" } ?? "" : "")
        if h.kept != nil { return like + ", alerted all the same: \(one(c)) is never held back by what this home taught" }
        return (h.was.map { "held back and logged as \(name($0)): " } ?? "held back: ") + like
    }

    /// How loud a sound was, as a person standing in the room would put it, from how far
    /// the loudest second of it stood over the room's background (the trace's `level_dbfs`
    /// over its `floor_dbfs`): "loud, about 22 dB over the room". 10 dB is twice as loud
    /// to the ear; 20 dB over a quiet bedroom is a sound that wakes a sleeper.
    public static func loudness(over: Double) -> String {
        howLoud(over: over) + (over < 3 ? "" : ", " + howFar(over: over))
    }

    /// "about 22 dB over the room".
    public static func howFar(over: Double) -> String { String(cFormat: "about %.0f dB over the room", over) }

    /// The word of `loudness`: "hardly louder than the room's background", "quiet",
    /// "clearly heard", "loud", "very loud".
    public static func howLoud(over: Double) -> String {
        switch over {
        case ..<3: "hardly louder than the room's background"
        case ..<10: "quiet"
        case ..<20: "clearly heard"
        case ..<35: "loud"
        default: "very loud"
        }
    }

    /// How loud an event was, in words (`loudness`), from its trace; nil without levels.
    public static func loudness(trace t: LogRecord.Trace?) -> String? {
        guard let level = t?.levelDbfs, let floor = t?.floorDbfs else { return nil }
        return loudness(over: level - floor)
    }

    /// How loud a minute was, in words (`loudness`): its Leq over the room's background then.
    public static func loudness(minute m: Night.Minute) -> String { loudness(over: m.leq - m.floor) }

    /// Why an event was raised, from its `event_start` record's trace: how loud, in words,
    /// then the score its profile compared, "loud, about 22 dB over the room; score 98 %
    /// (alerts from 70 %)". A score is how well the sound fits the class's rules, not a
    /// probability: the words say so and give the line it had to cross. With the event's
    /// class, what this home's memory made of it follows (`home`).
    public static func why(trace t: LogRecord.Trace?, of c: SoundClass? = nil) -> String {
        let score = t?.peakSmoothed ?? 0
        let on = t?.on ?? 0
        var s = loudness(trace: t).map { $0 + "; " } ?? ""
        s += String(cFormat: "score %.0f %% (alerts from %.0f %%)", 100 * score, 100 * on)
        if let f = t?.fit { s += "; " + fit(f) }
        if let h = t?.home, let c { s += "; " + home(h, c) }
        return s
    }

    /// "decided with this home's fit for cough, learned 22 Nov from 14 marks" (`HomeFit`).
    public static func fit(_ f: LogRecord.Fit) -> String {
        "decided with this home's fit for \(f.soundClass.replacing("_", with: " "))"
            + (f.learned.flatMap(WallClock.parse).map { ", learned \(WallClock.localDate($0))" } ?? "")
            + " from \(f.marks) mark\(f.marks == 1 ? "" : "s")"
    }

    /// What a carer is asked to do about an alert of `tier`.
    public static func todo(_ tier: Tier) -> String {
        switch tier {
        case .critical: "Check the room now."
        case .high: "Listen in or look in when you can."
        case .medium, .low: "Nothing to do unless it goes on."
        }
    }
}
