/// Holds the smoke-alarm score through the silences of the alarm's cadence, so one alarm
/// is one event, not one per beep.
///
/// - Temporal-three (ISO 8201, NFPA 72 §18.4.2; smoke and fire): three 0.5 s tones 0.5 s
///   apart, then 1.5 s of silence. The silences last at most three windows: a tone near the
///   same frequency within the last three windows keeps the alarm alive while a tone comes
///   back within the classifier's lookahead.
/// - Temporal-four (NFPA 720, UL 2034; carbon monoxide): four 0.1 s beeps 0.1 s apart, then
///   5 s of silence (each ±10 %). One window holds a whole cluster of beeps: three or more
///   separate bursts, none longer than a quarter second. After such a cluster the alarm is
///   held until the next cluster is due (5.5 s after it, plus 10 %), whether or not the
///   lookahead shows it yet.
/// An alarm that has sounded a whole T3 tone is a T3 alarm until it stops: a T3 tone broken
/// up by a room's echo or a louder sound looks like a T4 cluster, and must not earn T4's
/// long hold. The silence after the alarm's last beep is not held longer than its cadence allows.
struct AlarmCadence: Sendable {
    private var lastScore: Float = 0
    private var lastHz: Float = 0
    private var sinceTone = Int.max / 2
    /// Windows the current silence may last: the T3 gap, or T4's after a cluster of beeps.
    private var bridge = t3Windows
    /// The alarm has sounded a whole T3 tone.
    private var temporalThree = false

    /// Windows (0.5 s each) a T3 tone is remembered: its 1.5 s gap (+10 %) leaves up to
    /// three windows that hold no whole tone.
    static let t3Windows = 3
    /// Windows a T4 cluster is remembered: its 5 s gap (+10 %) after the cluster's window.
    static let t4Windows = 12
    /// A T4 cluster: at least this many separate bursts in one window …
    static let t4Beeps = 3
    /// … each a 0.1 s beep (−10 %, at the 16 ms frame hop), none longer than a beep and its
    /// room tail, seconds.
    static let t4ShortestBeep: Float = 0.07
    static let t4LongestBeep: Float = 0.25
    /// A whole T3 tone: 0.5 s (−10 %), at least 0.3 s of it heard as one run of the line.
    static let t3ShortestTone: Float = 0.3

    /// `resumes`: a tone comes back within the classifier's lookahead. `bursts` and
    /// `longestRun`: the tone's separate runs in the window and the longest, in seconds.
    /// `novel`: how far (0…1) the window stands out of what the last 30 s usually reached
    /// (`RecentPeaks`). An alarm starts only as something new (an insect that has chirped at
    /// 3 kHz all along is none); once it sounds, its cadence carries it however long it goes on.
    mutating func update(instant: Float, toneHz: Float, resumes: Bool = true, bursts: Int = 1, longestRun: Float = 0.5,
                         novel: Float = 1) -> Float {
        let instant = lastScore > 0 ? instant : instant * novel
        if instant > 0.3 {
            let sameTone = lastHz > 0 && abs(toneHz - lastHz) <= 0.05 * lastHz
            lastScore = sameTone ? max(instant, 0.9 * lastScore + 0.1 * instant) : instant
            lastHz = toneHz
            sinceTone = 0
            if longestRun >= Self.t3ShortestTone { temporalThree = true }
            let cluster = !temporalThree && bursts >= Self.t4Beeps && (Self.t4ShortestBeep...Self.t4LongestBeep).contains(longestRun)
            bridge = cluster ? Self.t4Windows : (sameTone ? bridge : Self.t3Windows)
            return max(instant, lastScore)
        }
        sinceTone += 1
        let t4 = bridge > Self.t3Windows
        guard sinceTone <= bridge, resumes || t4 else {
            lastScore = 0; lastHz = 0; bridge = Self.t3Windows; temporalThree = false
            return instant
        }
        return max(instant, lastScore)
    }
}
