/// Smoke and CO alarms: a steady tonal line at a sounder's frequency that carries most of
/// the energy above the floor, in beeps rather than one continuous tone.
///
/// Across windows `AlarmCadence` holds it through the silences of the T3 pattern. Nothing
/// suppresses it: an alarm explains a window's lines and onsets, so it suppresses the
/// ringer, music, a cry, a scream and the short sounds.
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
    /// Beeps, not a continuous tone: the longest run of sound is at most 0.8 s, and one of
    /// 0.97 s or more counts for nothing.
    static let longestRunSeconds: ClosedRange<Float> = 0.8...0.97

    /// How near the window's line lies to either alarm tone: 1 within a sounder's band.
    static func toneBand(_ f: WindowFeatures) -> Float {
        max(band(f.tonalHz, piezoHz, soft: piezoSoftHz), band(f.tonalHz, lowFrequencyHz, soft: lowFrequencySoftHz))
    }

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        let alarmShare = max(f.share(2400...4000), f.share(300...600))
        return cue.audible * cue.toneLine * toneBand(f) * ramp(alarmShare, up: bandShare)
            * ramp(f.longestRunSeconds, down: longestRunSeconds)
    }
}
