/// The instantaneous rules: one score per class from one window's features, each decided
/// in its class's file under `Rules/`, from the cues they share (`Cues`).
struct Rules: Sendable {
    let smokeAlarm, phoneRing, glassBreak, scream, gasp, cough, dogBark, door, slamHit: Float
    let babyCry, speech, laughter, breathing, heavyBreath, snore, thunder, music, beat: Float
    /// How much the window is a short, sharp burst (`Cues.impulsive`).
    let impulsive: Float

    init(_ f: WindowFeatures) {
        let cue = Cues(f)
        smokeAlarm = SmokeAlarm.instant(f, cue)
        phoneRing = PhoneRing.instant(f, cue, alarm: smokeAlarm)
        snore = Snoring.instant(f, cue)
        glassBreak = GlassBreak.instant(f, cue, snore: snore)
        scream = Scream.instant(f, cue)
        gasp = Gasp.instant(f, cue)
        cough = Cough.instant(f, cue)
        dogBark = DogBark.instant(f, cue)
        door = Door.instant(f, cue)
        slamHit = Door.slamHit(f, cue)
        babyCry = BabyCry.instant(f, cue)
        speech = Speech.instant(f, cue)
        laughter = Laughter.instant(f, cue)
        breathing = Breathing.instant(f, cue)
        heavyBreath = Breathing.heavy(f, cue)
        thunder = Thunder.instant(f, cue)
        music = Music.instant(f, cue)
        beat = Music.beat(f, cue)
        impulsive = cue.impulsive
    }
}

extension ClassScores {
    /// What each class's own rule says of one window, before the patterns across windows
    /// and the arbitration (`Classifier.score`): for `somniq features --rules`, to see
    /// which rule missed a sound and which one was overruled.
    public init(rulesOf f: WindowFeatures) {
        let r = Rules(f)
        var s = ClassScores()
        s[.smokeAlarm] = f.alarm?.overlaps(f.startSeconds...(f.startSeconds + 1)) == true ? 1 : 0
        s[.phoneRing] = r.phoneRing; s[.glassBreak] = r.glassBreak; s[.scream] = r.scream
        s[.gasp] = r.gasp; s[.cough] = r.cough; s[.dogBark] = r.dogBark; s[.door] = max(r.door, r.slamHit)
        s[.babyCry] = r.babyCry; s[.speech] = r.speech; s[.laughter] = r.laughter; s[.breathing] = max(r.breathing, r.heavyBreath)
        s[.snoring] = r.snore; s[.thunder] = r.thunder; s[.music] = max(r.music, r.beat)
        self = s
    }
}
