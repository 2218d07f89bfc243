/// Hand-written rules that give every window a score in [0, 1] for each class.
///
/// Instantaneous rules (`Rules`) look at one window; pattern detectors that span
/// windows (`AlarmCadence`, `SnoreTrain`, `Persistence`) hold or raise the scores of
/// later windows. Every input is relative to the tracked floor, a ratio or a
/// frequency, so the scores do not depend on microphone gain.
public struct Classifier: Sendable {
    private var alarm = AlarmCadence()
    private var snores = SnoreTrain()
    private var thunder = Rumble()
    private var music = Persistence(startWindows: 0, fullWindows: 2)
    private var talking = Hold(windows: 4)
    private var words = Persistence(startWindows: 0, fullWindows: 2)
    private var sentences = Hold(windows: 2)
    private var coughs = Hold(windows: 2)
    private var barks = Hold(windows: 2)
    private var cries = Hold(windows: 3)
    private var laughs = Hold(windows: 2)
    private var breaths = BreathTrain()

    public init() {}

    public mutating func score(_ f: WindowFeatures, into s: inout ClassScores) {
        s.reset()
        let r = Rules(f)
        s[.smokeAlarm] = alarm.update(instant: r.smokeAlarm, toneHz: f.tonalHz)
        s[.phoneRing] = r.phoneRing * (1 - s[.smokeAlarm])
        // A snore's flutter is broadband too, but its low-frequency burst is not a shatter.
        s[.glassBreak] = r.glassBreak * (1 - r.snore)
        // A cry is sustained, strongly voiced and repeated; a scream is neither of those.
        // Alarm tones and ringers are voiced-looking too, but steady.
        s[.scream] = r.scream * (1 - 0.5 * r.babyCry) * (1 - s[.smokeAlarm]) * (1 - r.phoneRing)
        s[.gasp] = r.gasp * (1 - r.snore)
        s[.door] = r.door
        // A cry is sustained phonation; a short, abrupt voiced burst is a bark.
        let bark = r.impulsive * ramp(f.longestRunSeconds, 0.5, 0.3)
        s[.babyCry] = cries.update(r.babyCry * (1 - s[.smokeAlarm]) * (1 - bark))
        // A word needs a second window of voice: a single voiced burst is a cough or a bark.
        s[.speech] = sentences.update(words.update(r.speech))
        // Voiced onsets inside running speech are syllables, not coughs or barks.
        let speaking = talking.update(r.speech)
        s[.cough] = coughs.update(r.cough * (1 - speaking))
        s[.dogBark] = barks.update(r.dogBark * (1 - speaking) * (1 - s[.babyCry]))
        s[.laughter] = laughs.update(r.laughter)
        // A gasp-like burst that recurs at a breathing rhythm is heavy breathing.
        s[.breathing] = breaths.update(instant: max(r.breathing, r.gasp), frame: f.index)
        if breaths.active { s[.gasp] *= 0.3 }

        let rumble = thunder.update(instant: r.thunder, full: f.activeFraction >= 0.7,
                                    lowExcessDb: max(f.excessDb[0], f.excessDb[1]))
        s[.thunder] = rumble
        let sustained = music.update(r.music)
        s[.music] = sustained * (1 - s[.smokeAlarm])
        // Music carries voices and beats: while it plays, speech and laughter are its parts.
        s[.speech] *= 1 - 0.7 * sustained
        s[.laughter] *= 1 - 0.7 * sustained

        // A long continuous rumble is thunder (or traffic), not a snore.
        // A slam or knock is not a snore.
        let impact = r.impulsive * ramp(f.longestRunSeconds, 0.35, 0.2)
        let snore = snores.update(instant: r.snore * (1 - rumble) * (1 - impact) * (1 - sustained),
                                  gasp: r.gasp, frame: f.index)
        s[.snoring] = snore.snoring
        // Snores come with breaths: during a snore train the breaths belong to it.
        s[.breathing] *= 1 - snore.snoring
        s[.breathingPause] = snore.pause
    }
}
