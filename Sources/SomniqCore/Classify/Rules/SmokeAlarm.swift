/// A window that sounds like one beep of a smoke or CO alarm's sounder: a steady tonal line
/// at a sounder's frequency that carries most of the energy above the floor, in beeps of the
/// T3 or T4 length rather than one continuous tone.
///
/// It decides nothing about `smoke_alarm`, which `AlarmDetector` alone decides by the
/// alarm's pattern. Before that pattern has shown (4 s of T3, a T4 group and its pause), a
/// window like this, or one in view after it, keeps the beeps from being taken for a ringer
/// or a scream (`Classifier.score`).
enum SmokeAlarm {
    /// Piezo sounders of smoke alarms (UL 217 / EN 14604): 2.8–3.7 kHz …
    static let piezoHz: ClosedRange<Float> = 2800...3700
    /// … give or take 200 Hz.
    static let piezoSoftHz: Float = 200
    /// The 520 Hz square wave of low-frequency alarms (NFPA 72 18.4.6.3): 480–560 Hz …
    static let lowFrequencyHz: ClosedRange<Float> = 480...560
    /// … give or take 30 Hz.
    static let lowFrequencySoftHz: Float = 30
    /// The sounder's band (2.4–4 kHz, or 300–600 Hz for the 520 Hz tone) carries 40–70 %
    /// of the energy above the floor: the alarm is most of what is heard.
    static let bandShare: ClosedRange<Float> = 0.4...0.7
    /// A sounder is band-limited, so it is judged by how far the band that holds its line
    /// rises over that band's floor, 8–14 dB (an alarm 5 dB over a fan broadband stands
    /// 17 dB over the floor at 3 kHz), not by the window's broadband level.
    static let lineRiseDb: ClosedRange<Float> = 8...14
    /// Its beeps, timed on the line itself (ISO 8201, NFPA 720). A whole T3 tone of 0.5 s
    /// (±10 %, and every tone lies wholly inside one window at the 0.5 s hop): a run of the
    /// line of 0.3–0.4 s or more, but not of 0.7–0.9 s (a steady hum or a whistling wind
    /// runs on) …
    static let t3ToneSeconds: ClosedRange<Float> = 0.3...0.4
    static let steadyToneSeconds: ClosedRange<Float> = 0.7...0.9
    /// … or a T4 cluster: two to three or more runs of the line in the window, each a 0.1 s
    /// beep, the longest 0.08–0.25 s (a beep and its room tail; ±0.02 s soft). An insect's
    /// chirps are shorter or come in no such cluster.
    static let t4Runs: ClosedRange<Float> = 2...3
    static let t4BeepSeconds: ClosedRange<Float> = 0.08...0.25
    static let t4BeepSoftSeconds: Float = 0.02

    /// How near the window's line lies to either alarm tone: 1 within a sounder's band.
    static func toneBand(_ f: WindowFeatures) -> Float {
        max(band(f.tonalHz, piezoHz, soft: piezoSoftHz), band(f.tonalHz, lowFrequencyHz, soft: lowFrequencySoftHz))
    }

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        let alarmShare = max(f.share(.piezo), f.share(.lowSounder))
        let t3Tone = ramp(f.longestToneSeconds, up: t3ToneSeconds) * ramp(f.longestToneSeconds, down: steadyToneSeconds)
        let t4Cluster = ramp(Float(f.toneRuns), up: t4Runs) * band(f.longestToneSeconds, t4BeepSeconds, soft: t4BeepSoftSeconds)
        return ramp(f.rise(Bands.band(ofHz: f.tonalHz)), up: lineRiseDb) * cue.toneLine * toneBand(f) * ramp(alarmShare, up: bandShare)
            * max(t3Tone, t4Cluster)
    }
}
