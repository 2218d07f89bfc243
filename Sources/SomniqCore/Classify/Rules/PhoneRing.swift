/// Ringers and ringtones: tonal lines outside the alarm band (electronic warbles 1–4.5 kHz,
/// bell partials from about 0.8 kHz), usually with sharp onsets, that sit on one tone or,
/// for a trill ringer, alternate between two (e.g. 875 and 1075 Hz a dozen times a second):
/// nearly every line is on one of at most two frequencies. A voice's harmonic wanders
/// more, even in a steady, tonal scream.
///
/// No detector carries it across windows: a ringer rings on, and each window is judged on
/// its own. The smoke alarm suppresses it; it suppresses the beat of music, a scream (unless
/// a scream follows) and, as a tone, the short sounds.
enum PhoneRing {
    /// A line in 20–45 % of the active frames …
    static let lineFraction: ClosedRange<Float> = 0.2...0.45
    /// … and 85–95 % of the lines within 3 % of one of two tones.
    static let twoTone: ClosedRange<Float> = 0.85...0.95
    /// A ringer that rings on without a break, its line perfectly steady, is one even when a
    /// rumble in the room takes much of the window's energy from the line: a line in only
    /// 15–30 % of the frames …
    static let ringingOnLineFraction: ClosedRange<Float> = 0.15...0.3
    /// … but 95–99 % of the lines on its one or two tones …
    static let ringingOnTwoTone: ClosedRange<Float> = 0.95...0.99
    /// … and sound in 50–80 % of the window.
    static let ringingOnActive: ClosedRange<Float> = 0.5...0.8
    /// The line lies above 0.7–1 kHz, where bell partials and electronic warbles are.
    static let lineHz: ClosedRange<Float> = 350...450
    /// A melody: three to five separate runs of the line in a window, with a line in 50–80 %
    /// of the active frames.
    static let melodyRuns: ClosedRange<Float> = 3...5
    static let melodyLineFraction: ClosedRange<Float> = 0.5...0.8
    /// Below 700–1000 Hz, where barks are pitched too, a bell rings on: its sound runs for
    /// 0.25–0.4 s or more, where a bark is over in a fifth of a second.
    static let barkPitchHz: ClosedRange<Float> = 700...1000
    static let ringSeconds: ClosedRange<Float> = 0.25...0.4

    /// A call of separate croaks: one steady line (60–80 % or more of the lines on it) in
    /// 6–8 or more separate runs a second, none longer than 0.15–0.2 s, in a sound that does
    /// not go on for more than 0.45–0.6 s at a stretch. A frog's croak train or an insect's
    /// chirps are that; a bell struck twenty times a second pulses its line as fast, but
    /// rings on between the strokes.
    static let pulsedLineStability: ClosedRange<Float> = 0.6...0.8
    static let pulsedRuns: ClosedRange<Float> = 6...8
    static let pulsedRunSeconds: ClosedRange<Float> = 0.15...0.2
    static let croakSeconds: ClosedRange<Float> = 0.45...0.6

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float { instant(f, cue, alarm: SmokeAlarm.instant(f, cue)) }

    /// `alarm`: the window's smoke-alarm rule, already judged.
    static func instant(_ f: WindowFeatures, _ cue: Cues, alarm: Float) -> Float {
        let steady = ramp(f.twoToneStability, up: twoTone)
        let ringingOn = ramp(f.tonalFraction, up: ringingOnLineFraction) * ramp(f.twoToneStability, up: ringingOnTwoTone)
            * ramp(f.activeFraction, up: ringingOnActive)
        // An electronic ringtone plays a tune: a run of short, pure notes, each its own
        // steady line, several a second (a voice's line is one continuous glide).
        let melodic = ramp(Float(f.toneRuns), up: melodyRuns) * ramp(f.tonalFraction, up: melodyLineFraction)
        let ringing = max(ramp(f.tonalFraction, up: lineFraction) * steady, ringingOn, melodic)
        let pulsed = ramp(f.tonalStability, up: pulsedLineStability) * ramp(Float(f.toneRuns), up: pulsedRuns)
            * ramp(f.longestToneSeconds, down: pulsedRunSeconds) * ramp(f.longestRunSeconds, down: croakSeconds)
        // A sounder's beeps are left to the smoke alarm, whose pattern `AlarmDetector` checks.
        return cue.novel * cue.audible * ringing * (1 - pulsed) * (1 - alarm) * ramp(f.tonalHz, up: lineHz)
            * max(ramp(f.tonalHz, up: barkPitchHz), ramp(f.longestRunSeconds, up: ringSeconds))
    }
}
