/// Holds the smoke-alarm score through the silences of the alarm's cadence.
///
/// The temporal-three pattern (ISO 8201, NFPA 72 §18.4.2: three 0.5 s tones 0.5 s
/// apart, then 1.5 s of silence) leaves up to two whole windows without a tone. A
/// tone near the same frequency in the last two windows keeps the alarm alive, so
/// one T3 alarm is one event, not one per beep. (The CO temporal-four pattern, with
/// 5 s of silence, is not bridged yet: each of its cycles is an event of its own.)
struct AlarmCadence: Sendable {
    private var lastScore: Float = 0
    private var lastHz: Float = 0
    private var sinceTone = Int.max / 2

    /// Windows (0.5 s each) a tone is remembered: covers the 1.5 s gap of T3.
    static let holdWindows = 2

    /// `resumes`: a tone comes back within the classifier's lookahead. The silence
    /// after the alarm's last beep is not held: the event ends with the alarm.
    mutating func update(instant: Float, toneHz: Float, resumes: Bool = true) -> Float {
        if instant > 0.3 {
            let sameTone = lastHz > 0 && abs(toneHz - lastHz) <= 0.05 * lastHz
            lastScore = sameTone ? max(instant, 0.9 * lastScore + 0.1 * instant) : instant
            lastHz = toneHz
            sinceTone = 0
            return max(instant, lastScore)
        }
        sinceTone += 1
        guard sinceTone <= Self.holdWindows, resumes else { lastScore = 0; lastHz = 0; return instant }
        return max(instant, lastScore)
    }
}
