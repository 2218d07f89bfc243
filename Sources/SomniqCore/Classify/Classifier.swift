/// Hand-written rules that give every window a score in [0, 1] for each class.
///
/// Instantaneous rules (`Rules`) look at one window; pattern detectors that span
/// windows (`AlarmCadence`, `SnoreTrain`, `Persistence`) hold or raise the scores of
/// later windows. Every input is relative to the tracked floor, a ratio or a
/// frequency, so the scores do not depend on microphone gain.
public struct Classifier: Sendable {
    private var alarm = AlarmCadence()
    private var snores = SnoreTrain()
    private var thunder = Persistence(startWindows: 2, fullWindows: 6)
    private var music = Persistence(startWindows: 1, fullWindows: 4)
    private var talking = Hold(windows: 4)
    private var coughs = Hold(windows: 2)
    private var barks = Hold(windows: 2)
    private var cries = Hold(windows: 3)
    private var laughs = Hold(windows: 2)

    public init() {}

    public mutating func score(_ f: WindowFeatures, into s: inout ClassScores) {
        s.reset()
        let r = Rules(f)
        s[.smokeAlarm] = alarm.update(instant: r.smokeAlarm, toneHz: f.tonalHz)
        s[.phoneRing] = r.phoneRing * (1 - s[.smokeAlarm])
        s[.glassBreak] = r.glassBreak
        // A cry is sustained, strongly voiced and repeated; a scream is neither of those.
        s[.scream] = r.scream * (1 - r.babyCry)
        s[.gasp] = r.gasp
        s[.door] = r.door
        s[.babyCry] = cries.update(r.babyCry * (1 - s[.smokeAlarm]))
        s[.speech] = r.speech
        // Voiced onsets inside running speech are syllables, not coughs or barks.
        let speaking = talking.update(r.speech)
        s[.cough] = coughs.update(r.cough * (1 - speaking))
        s[.dogBark] = barks.update(r.dogBark * (1 - speaking))
        s[.laughter] = laughs.update(r.laughter)
        s[.breathing] = r.breathing

        let rumble = thunder.update(r.thunder)
        s[.thunder] = rumble
        let sustained = music.update(r.music)
        s[.music] = sustained
        // Music carries voices and beats: while it plays, speech and laughter are its parts.
        s[.speech] *= 1 - 0.7 * sustained
        s[.laughter] *= 1 - 0.7 * sustained

        // A long continuous rumble is thunder (or traffic), not a snore.
        // A slam or knock is not a snore.
        let snore = snores.update(instant: r.snore * (1 - rumble) * (1 - r.impulsive), gasp: r.gasp, frame: f.index)
        s[.snoring] = snore.snoring
        s[.breathingPause] = snore.pause
    }
}
