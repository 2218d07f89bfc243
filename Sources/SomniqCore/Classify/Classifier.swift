/// Hand-written rules that give every window a score in [0, 1] for each class.
///
/// Instantaneous rules (`Rules`, one file per class in `Rules/`) look at one window;
/// pattern detectors that span windows (`AlarmDetector`, `SnoreTrain`, `BreathTrain`,
/// `Rumble`, `Beat`, `Persistence`, `Hold`) hold or raise the scores of later windows;
/// `Familiarity` holds back what the last two minutes have heard again and again (a clock,
/// insects, rain's gusts): it opens no short event, thunder or train (habituation);
/// `score` arbitrates between the classes. Where a learned rule decides a class
/// (`LearnedRules`), it takes the window's features, those of the windows ±1 s around it,
/// the rules' scores and the arbitration's (`LearnedInputs`), and its score replaces the
/// arbitration's; the gates that keep a quiet room quiet still apply to it.
/// A window is decided `lookahead` windows after it arrives, with those windows in
/// view (`Lookahead`). Every input is relative to the tracked floor, a ratio or a
/// frequency, so the scores do not depend on microphone gain.
public struct Classifier: Sendable {
    /// Windows a decision waits for: 1.5 s at the 0.5 s hop.
    public static let lookahead = 3
    /// Windows the trains wait further (`TrainBacklog`): 8 s, the longest a snore may follow
    /// the one before it in a train (a breath follows the one before within 7 s).
    public static let trainDelay = 16
    /// The classes decided `trainDelay` windows after the others.
    public static let trainClasses = SoundClass.all(\.train)
    /// The classes a familiar sound does not open (`unlessFamiliar`), besides the trains:
    /// the short ones and thunder. Not the alarm, decided by its own cadence, nor a voice,
    /// a cry, a ringer or music, which go on for long and are not mistaken for a background.
    static let habituated = SoundClass.all(\.habituated)
    public static let promptClasses: [SoundClass] = SoundClass.allCases.filter { !trainClasses.contains($0) }

    /// What a decision settles.
    public enum Decision: Sendable, Equatable {
        /// The scores of `promptClasses` for the window `lookahead` windows back.
        case prompt
        /// The scores of every class for the window `lookahead + trainDelay` windows back.
        case final
    }

    private var pending = Lookahead(capacity: lookahead + 1) { .empty }
    private var backlog = TrainBacklog(capacity: trainDelay + 1)
    private var ending = false
    private var snores = SnoreTrain()
    private var thunder = Rumble()
    private var music = Persistence(startWindows: 0, fullWindows: Music.fullWindows)
    private var beats = Beat()
    private var talking = Hold(windows: Speech.runningHold)
    private var words = Persistence(startWindows: 0, fullWindows: Speech.wordWindows)
    private var sentences = Hold(windows: Speech.hold)
    private var coughs = Hold(windows: Cough.hold)
    private var barks = Hold(windows: DogBark.hold)
    private var cries = Hold(windows: BabyCry.hold)
    private var laughs = Hold(windows: Laughter.hold)
    private var breaths = BreathTrain()
    private var inhales = BreathTrain()
    private var shards = Hold(windows: GlassBreak.hold)
    private var gasping = Hold(windows: Gasp.hold)
    private var shouting = Hold(windows: Scream.hold, tail: Scream.holdsTail)
    private var slams = Hold(windows: Door.hold)
    private var familiarity = Familiarity()
    /// The habituated classes' scores of the window before, and for how many windows in a
    /// row they have scored 0.5 or more (`unlessFamiliar`).
    private var before = ClassScores()
    private var underWay = [Int](repeating: 0, count: SoundClass.allCases.count)
    /// How familiar the sound was whose onset a class's score was held back for, while that
    /// score (or its hold) stays up; 0 when none was.
    private var quelled = [Float](repeating: 0, count: SoundClass.allCases.count)
    /// A train that opened (scored 0.5 or more) and whose rhythm has held since.
    private var trainOpen = [Bool](repeating: false, count: SoundClass.allCases.count)
    private var cryBefore: Float = 0
    /// The speech scores of the two windows decided before the one being decided, newest first.
    private var speechBefore: (Float, Float) = (0, 0)
    /// The windows decided before the one being decided, newest first, as far back as running
    /// speech goes on (`Speech.runningHold`): their speech scores, loudest frames over the
    /// floor and pitches.
    private var spoken = [Spoken](repeating: Spoken(), count: Speech.runningHold)
    private var gaspBefore: Float = 0
    private var wasActive = false
    /// The two windows decided before the one being decided, newest first.
    private var decided: (LookaheadEntry?, LookaheadEntry?) = (nil, nil)
    private let learned: LearnedRules?
    /// The classes whose learned rule decides them.
    private let learnedClasses: [SoundClass]
    /// The learned rules' inputs for the window decided last (`LearnedInputs.names`).
    public private(set) var inputs: [Float]
    /// The latest alarm the detector has found, as known at the newest window pushed: from
    /// its first beep to its last so far. The smoke alarm's event opens and closes on it.
    public private(set) var alarm: AlarmDetector.Span?
    /// Each class's learned score in the window before.
    private var learnedBefore = [Float](repeating: 0, count: SoundClass.allCases.count)

    /// `learned`: the learned rules and which classes they decide (nil: hand rules alone).
    /// `fillsInputs`: keep `inputs` for every decided window, for fitting the learned rules.
    public init(learned: LearnedRules? = LearnedRules.builtin, fillsInputs: Bool = false) {
        self.learned = learned
        learnedClasses = LearnedRules.candidates.filter { learned?.decides($0) == true }
        inputs = [Float](repeating: 0, count: fillsInputs || !learnedClasses.isEmpty ? LearnedInputs.count : 0)
    }

    /// The inputs that weighed most in class `c`'s learned score of the window decided last,
    /// heaviest first; empty when a hand rule decides the class.
    public func weights(_ c: SoundClass, count: Int = 3) -> [LearnedRules.Weight] {
        guard learnedClasses.contains(c), let rule = learned?.rule(for: c) else { return [] }
        return inputs.withUnsafeBufferPointer { rule.weights($0, count: count) }
    }

    /// Whether the learned rules' inputs are computed: the spectrogram network's outputs
    /// (`WindowFeatures.net`) are among them.
    public var needsNetwork: Bool { !inputs.isEmpty && learned?.network != nil }

    /// Takes the next window (with its network outputs, `SpectrogramNet.Runner.listen`, when
    /// `needsNetwork`). Call `next` until it returns nil before pushing another.
    public mutating func push(_ f: WindowFeatures) {
        if let a = f.alarm { alarm = a }
        pending.append(.init(features: f, rules: Rules(f)))
    }

    /// The stream has ended: `next` goes on to decide every window still waiting, with
    /// silence after the last one.
    public mutating func finish() { ending = true }

    /// The next decision: writes its scores into `s` (all classes; those it does not settle
    /// are provisional) and returns it with its window's features. Nil when nothing more can
    /// be decided until another window arrives, or, after `finish`, when all is decided.
    public mutating func next(into s: inout ClassScores) -> (Decision, WindowFeatures)? {
        let ready = pending.isFull || (ending && pending.count > 0)
        if ready && !backlog.isFull {
            let now = pending[0]!
            let breathing = score(now.features, now.rules, into: &s)
            pending.dropOldest()
            decided = (now, decided.0)
            backlog.append(now.features, s, breathing: breathing)
            // A train that starts here started with its first snore or breath, which the
            // backlog still holds.
            // (Unless the train is a familiar sound, which opens nothing.)
            if let first = snores.startedAt, s[.snoring] >= Arbitration.heard { backlog.raise(.snoring, to: SnoreTrain.held, from: first) }
            // One that ends here ended with its last snore or breath: what was held for the
            // next one, which did not come, was silence.
            if let end = snores.endedAt { backlog.lower(.snoring, to: Arbitration.released, from: end + 1) }
            let breathEnd = max(breaths.endedAt ?? .min, inhales.endedAt ?? .min)
            if breathEnd > .min, !breaths.active, !inhales.active { backlog.lower(.breathing, to: Arbitration.released, from: breathEnd + 1) }
            let firstBreath = min(breaths.startedAt ?? .max, inhales.startedAt ?? .max)
            if firstBreath < .max, breathing >= Arbitration.heard { backlog.raise(.breathing, to: BreathTrain.held, from: firstBreath) }
            return (.prompt, now.features)
        }
        if backlog.isFull || (ending && !ready && backlog.count > 0) {
            return (.final, backlog.releaseOldest(into: &s))
        }
        return nil
    }

    /// The most the cry rule scores in the windows 1 to 1.5 s after `f` (those that no
    /// longer share its samples), counting a window only where its cry is a new call: one
    /// that opens with an attack (`Arbitration.attackDb`) after `f`'s own, in it or in a
    /// window between, or one that comes after a pause, a window between that the sound
    /// does not fill (`Arbitration.unbrokenFraction`). A held scream's falling end may
    /// sound like a cry without being a new call; a shout, a silence, then cries is a
    /// baby crying.
    private func cryCallAfter(_ f: WindowFeatures) -> Float {
        let attackAt = f.startSeconds + Double(f.onsetSeconds)
        var m: Float = 0
        var newCall = false
        for k in 1...Self.lookahead {
            guard let e = pending[k] else { break }
            let g = e.features
            if g.onsetDb >= Arbitration.attackDb && g.startSeconds + Double(g.onsetSeconds) > attackAt { newCall = true }
            if k >= 2 && newCall { m = max(m, e.rules.babyCry) }
            if g.activeFraction < Arbitration.unbrokenFraction { newCall = true }
        }
        return m
    }

    /// The most a rule scores in any window after the one being decided: does the
    /// sound come back within the lookahead?
    private func soon(_ rule: (Rules) -> Float) -> Float { most(rule, from: 1) }

    /// A door slam that comes within the lookahead with the sound running into it without
    /// a break: the window is the door's swing (a hinge creaks, a latch rattles) before
    /// it shuts. Returns the slam's score, or 0.
    private func slamAhead() -> Float {
        for k in 1...Self.lookahead {
            guard let e = pending[k], pending[k - 1]!.features.activeFraction >= Arbitration.goingOnFraction else { return 0 }
            if e.rules.door >= Arbitration.heard { return e.rules.door }
        }
        return 0
    }

    /// Habituation: a sound heard often in the last two minutes (`Familiarity`) opens no
    /// event of a short class, thunder or a train. An event already under way (its class
    /// scored 0.5 or more in the window before) goes on while its own sound may last, the
    /// `Familiarity.own` windows that are not compared with it (a roll of thunder); past
    /// them, an event that has gone on since a clock's first tick ends once the ticks are
    /// familiar. A train that opened goes on for as long as its rhythm holds (`rhythm`:
    /// `SnoreTrain.inTrain`, `BreathTrain.active`), through a burst it leaves out: a minute
    /// of snoring sounds like the snores before it, and is snoring.
    /// The windows a held-back onset is carried into (a `Hold`, a train's held score) are
    /// held back as much as it was.
    private mutating func unlessFamiliar(_ c: SoundClass, _ x: Float, _ familiar: Float, rhythm: Bool = false) -> Float {
        let i = c.index
        let going = (before[c] >= Arbitration.heard && underWay[i] < Familiarity.own) || (rhythm && trainOpen[i])
        let y = going ? x : x * (1 - max(familiar, quelled[i]))
        quelled[i] = x < Arbitration.heard ? 0 : (y < Arbitration.heard ? max(familiar, quelled[i]) : 0)
        underWay[i] = y >= Arbitration.heard ? underWay[i] + 1 : 0
        trainOpen[i] = rhythm && (trainOpen[i] || y >= Arbitration.heard)
        before[c] = y
        return y
    }

    /// Running speech around the window being decided, no quieter than it less
    /// `Arbitration.overSpeechDb`: the highest speech score of 0.5 or more (heard) decided in
    /// either of the two windows before it, or given by the speech rule to a window after it
    /// within the lookahead that the scream rule does not hear too: a window ahead that
    /// sounds like the scream as much as like speech is the scream going on (a scream held
    /// at 150–380 Hz, where the speech rule still hears a voice, lasts longer than a
    /// window), not speech around it. Further back, up to `Speech.runningHold` windows (2 s,
    /// as long as running speech explains a cough or a bark), speech decided no quieter than
    /// that counts where the window is pitched no higher than it: a talker's held syllable
    /// ending a phrase (a pirate's "arr" at 155 Hz, 2 s after his talk at 203 Hz, on the mixed
    /// fold 3–4 nights) is not raised, and a scream is. 0 when there is none.
    private func speechAround(_ f: WindowFeatures) -> Float {
        let near = f.peakSnrDb - Arbitration.overSpeechDb
        var m: Float = 0
        if let e = decided.0, e.features.peakSnrDb >= near { m = max(m, speechBefore.0) }
        if let e = decided.1, e.features.peakSnrDb >= near { m = max(m, speechBefore.1) }
        for k in 1...Self.lookahead {
            if let e = pending[k], e.features.peakSnrDb >= near, e.rules.scream < Arbitration.heard { m = max(m, e.rules.speech) }
        }
        // Further back, while the talk is still running, a voiced window pitched no higher
        // than the speech, and less than an octave under it, is a syllable of it: effort
        // raises a voice's pitch (`Scream.heldF0Hz`), and a talker's phrase falls a few
        // semitones to its end, not an octave (a pitch that reads an octave under the talk is
        // the tracker's octave error or another voice). A window the scream rule itself heard
        // as a scream is no talk, as in the lookahead: a held scream's own earlier windows do
        // not explain its later ones.
        for e in spoken where e.peakDb >= near && e.scream < Arbitration.heard
            && f.f0Hz > 0 && f.f0Hz <= e.f0Hz && 2 * f.f0Hz > e.f0Hz {
            m = max(m, e.speech)
        }
        return m >= Arbitration.heard ? m : 0
    }

    /// Whether the window being decided lies in a bout of laughter: the laughter rule hears
    /// a laugh (0.5 or more) in two of this window and the two before it, over a second. A
    /// bout is a run of calls at 4–5 a second, and its voiced calls are as shrill as a
    /// shriek (mean f0 282 Hz in men and 421 Hz in women, higher still within a bout;
    /// Bachorowski et al. 2001): a shrill call in a bout is the laugh's. A scream's onset
    /// may break once into what the rule hears as a laugh's bursts, in one window only. A
    /// laugh before the window counts only where it was no quieter than the window less
    /// `Arbitration.overSpeechDb`: a scream that breaks out of laughter (a person laughing,
    /// then hurt) stands out of it by a shout's effort, as out of running speech.
    private func inLaughBout(_ r: Rules, _ f: WindowFeatures) -> Bool {
        let near = f.peakSnrDb - Arbitration.overSpeechDb
        var laughs = r.laughter >= Arbitration.heard ? 1 : 0
        for e in [decided.0, decided.1] {
            if let e, e.features.peakSnrDb >= near, e.rules.laughter >= Arbitration.heard { laughs += 1 }
        }
        return laughs >= 2
    }

    private func most(_ rule: (Rules) -> Float, from first: Int) -> Float {
        var m: Float = 0
        for k in first...Self.lookahead { if let e = pending[k] { m = max(m, rule(e.rules)) } }
        return m
    }

    /// Whether an alarm the detector has found sounds in the middle half of the window being
    /// decided: the detector finds an alarm only once its pattern has shown (up to a T4
    /// group and a pause later), so the newest windows in view may know of one that this
    /// window already held. An alarm's span bridges its pattern's silences.
    private func alarmSounds(in f: WindowFeatures) -> Float {
        let middle = (f.startSeconds + 0.25)...(f.startSeconds + 0.75)
        return (0...Self.lookahead).contains { pending[$0]?.features.alarm?.overlaps(middle) == true } ? 1 : 0
    }

    /// Whether a train of low-battery chirps (`ChirpTrain`) was under way in the first half of
    /// the window being decided, as known to the newest window in view: the window that holds
    /// its third chirp's start opens it, and it goes on while the train does.
    private func chirping(in f: WindowFeatures) -> Float {
        let firstHalf = f.startSeconds..<(f.startSeconds + 0.5)
        return (0...Self.lookahead).contains { pending[$0]?.features.lowBattery?.overlaps(firstHalf) == true } ? 1 : 0
    }

    /// Scores one window into `s`; returns its breathing score before snoring (see `TrainBacklog`).
    ///
    /// Each class's instant score comes from its rule (`Rules/`); here the classes are
    /// arbitrated, in this order, each suppressed by what explains the window better:
    /// 1. Smoke alarm: by nothing; a sounder's line explains the window's onsets and lines.
    ///    A smoke alarm's low-battery chirp, by the alarm: where it sounds, no chirp is heard.
    /// 2. Phone ring, by the alarm: the alarm's beeps are tonal lines too.
    /// 3. Thunder, by a snore train: a burst in the train is the next snore, unless it
    ///    fills the whole lookahead (longer than the inhalation the train expects).
    /// 4. Music, by the alarm: a steady beep is not a held note. Its beat, by speech, a
    ///    cry or a ringer: they keep up attacks too.
    /// 5. Snoring, by a storm, an impact, music and a gasp (or the rest of one): a long
    ///    rumble is thunder, a slam is a slam, music's bass is music, a gasp is a gasp.
    /// 6. Breathing, by snoring: during a snore train the breaths belong to it.
    /// 7. Speech and laughter, lowered by music: a voice within music is singing.
    /// 8. Baby cry, by the alarm and a short, abrupt burst: tones look voiced; a bark is short.
    /// 9. Scream, by a cry just before it or a new cry call after it, the alarm, a ringer,
    ///    running speech around it, a bout of laughter and a train of calls: a cry bout
    ///    explains a shriek within it; tones look voiced but are steady; a raised syllable of
    ///    a conversation or a television is speech unless it stands a shout's effort over
    ///    it; a laugh's calls are as shrill, and a scream is one call.
    /// 10. Glass break, by a tone, a snore it goes on from, a voice's line that comes with
    ///     the burst and a cough: the onset of a beep is not a crash; a snore's hiss is its
    ///     own; shards ring far above a cough's voice and above the formants that shape its
    ///     explosive burst.
    /// 11. Door, by a tone, a train and breaking glass: a burst in a train is its next
    ///     snore or breath; a crash that shatters is glass.
    /// 12. Gasp, by a snore train, a breathing rhythm, breaking glass, music and sound that
    ///     runs on unbroken: a burst in a train is its next snore or breath; a crash is glass;
    ///     an attack in music is music; one inhalation is over within 1.5 s, a roll of
    ///     thunder or a tune goes on.
    /// 13. Cough, by running speech, a tone or a train, and a door: a voiced onset in speech
    ///     is a syllable; a slam's attack is not a cough.
    /// 14. Dog bark, by running speech, a cry, a tone or a train: a short voiced burst
    ///     within speech is a syllable, within a cry bout part of the cry.
    /// Then the short classes, thunder and the trains, by a familiar sound (`unlessFamiliar`):
    /// what has recurred for minutes is background, not an event; it still explains the
    /// other classes' bursts as above.
    private mutating func score(_ f: WindowFeatures, _ r: Rules, into s: inout ClassScores) -> Float {
        s.reset()
        let familiar = familiarity.judge(f)
        let cryAfter = cryCallAfter(f)
        // A short sound whose attack lies in the second half of this window lies wholly
        // in the next one, which starts 0.5 s later (and sees the attack too): that window
        // reports it, so its event starts within half a second of the sound rather than
        // up to a second early.
        let early: Float = f.onsetSeconds >= Arbitration.lateOnsetSeconds && f.onsetDb >= Arbitration.attackDb && pending[1] != nil ? 0 : 1
        // What follows a crash, a gasp or a scream without a new attack is the rest of it.
        let goingOn = f.activeFraction >= Arbitration.goingOnFraction && f.onsetDb < Arbitration.attackDb

        // Tones first: an alarm or a ringer explains the window's onsets and lines.
        s[.smokeAlarm] = alarmSounds(in: f)
        s[.lowBattery] = chirping(in: f) * (1 - s[.smokeAlarm])
        // Before its pattern has shown, a window whose line sounds like a sounder's beep
        // (`SmokeAlarm`), or one in view after it, explains a ringer's or a scream's line too.
        let sounder = max(s[.smokeAlarm], most(\.smokeAlarm, from: 0))
        s[.phoneRing] = r.phoneRing * (1 - sounder)
        let tone = max(sounder, r.phoneRing)

        // Long sounds: their patterns span windows.
        // A burst in a snore train is a snore, however rumbling, unless it fills the whole
        // lookahead too: 2.5 s of unbroken sound from this window's start is longer than
        // the inhalation the train expects, and a thunderclap after a snore is thunder.
        let unbroken = (1...Self.lookahead).allSatisfy { (pending[$0]?.features.activeFraction ?? 0) >= Arbitration.unbrokenFraction }
        // A gasp is one inhalation, over within 1.5 s (`Gasp`): a burst that runs on unbroken
        // for 2.5 s from this window's start is thunder's roll or a tune, and ends no pause.
        let gasp = unbroken ? 0 : r.gasp
        let rumble = thunder.update(instant: snores.inTrain && !unbroken ? 0 : r.thunder, full: f.activeFraction >= Arbitration.rollingFraction,
                                    lowExcessDb: f.highestRise(.low), otherSound: f.peakSnrDb >= Arbitration.overRumbleDb, peakDb: f.peakSnrDb)
        s[.thunder] = rumble
        // Running speech, a crying baby and a ringer keep up attacks too; their voices and
        // steady lines tell them apart.
        let sustained = max(music.update(r.music), beats.update(r.beat * (1 - max(r.speech, r.babyCry, r.phoneRing))))
        s[.music] = sustained * (1 - s[.smokeAlarm])
        // A held note over a bass (a pitch of 60–300 Hz under the line) is music going on;
        // a bell or a ringer sounds alone.
        s[.phoneRing] *= 1 - sustained * band(f.f0Hz, Arbitration.bassF0Hz, soft: Arbitration.bassF0SoftHz)
        // Heavy breaths that recur at a breathing rhythm are laboured breathing; heavy
        // inhales mark a rhythm of their own, which long exhales can hide.
        let breath: (Rules) -> Float = { max($0.breathing, $0.heavyBreath) }
        let breathed = max(breaths.update(instant: breath(r), frame: f.index,
                                           nextInView: soon(breath) >= Arbitration.heard, horizon: Self.lookahead),
                            inhales.update(instant: r.heavyBreath, frame: f.index,
                                           nextInView: soon(\.heavyBreath) >= Arbitration.heard, horizon: Self.lookahead))
        let rhythm = breaths.active || inhales.active
        let breathing = unlessFamiliar(.breathing, breathed, familiar, rhythm: rhythm)
        // A long continuous rumble is thunder (or traffic), not a snore; a slam or a knock
        // is not a snore; music's bass is not a snore; a gasp, or the rest of one, is not a snore.
        let impact = r.impulsive * ramp(f.longestRunSeconds, down: Arbitration.impactSeconds)
        let storm: Float = thunder.storming ? rumble : 0
        let snore = snores.update(instant: r.snore * (1 - storm) * (1 - impact) * (1 - sustained) * (1 - max(r.gasp, gaspBefore)),
                                  gasp: gasp, levelDb: f.peakSnrDb, full: f.activeFraction >= Arbitration.unbrokenFraction,
                                  centroidHz: f.centroidHz, frame: f.index,
                                  nextInView: soon(\.snore) >= Arbitration.heard, horizon: Self.lookahead, runsOn: unbroken,
                                  otherSound: f.activeFraction >= Snoring.activeFraction.upperBound && f.peakSnrDb >= Snoring.lowRiseDb.lowerBound)
        s[.snoring] = unlessFamiliar(.snoring, snore.snoring, familiar, rhythm: snores.inTrain)
        // A pause ends with the sleeper's recovery breath, one inhalation (a gasp or a louder
        // snore, over within 1.5 s as a gasp is, `Gasp`): a burst that runs on unbroken for
        // 2.5 s from this window's start is a roll of thunder or a tune, and ends no pause;
        // the next burst that does not run on may (`SnoreTrain`). The pause's 10 s must be
        // heard: a window in which other sound stands out and goes on as a snore's must
        // (its loudest 11 dB over the floor, as a snore's band rises at least, and a quarter of its
        // short frames 6 dB over it, as a snore's sound fills at most: `Snoring`) could hold a snore unheard.
        s[.breathingPause] = snore.pause
        // Snores come with breaths: during a snore train the breaths belong to it.
        s[.breathing] = breathing * (1 - snore.snoring)
        // Inside a snore train or a breathing rhythm, a burst is the next snore or breath.
        let train = max(rumble, rhythm ? breathed * (1 - snore.snoring) : 0, snores.inTrain ? snore.snoring : 0)
        let background = max(tone, train)

        // Voices.
        // A word needs a second window of voice: a single voiced burst is a cough or a bark.
        let said = words.update(r.speech)
        s[.speech] = sentences.update(said) * (1 - Arbitration.singing * sustained)
        // Voiced onsets inside running speech are syllables, not coughs or barks.
        let speaking = talking.update(said)
        // A cry is sustained phonation; a short, abrupt voiced burst is a bark.
        let bark = r.impulsive * ramp(f.longestRunSeconds, down: Arbitration.barkSeconds)
        s[.babyCry] = cries.update(r.babyCry * (1 - s[.smokeAlarm]) * (1 - bark), resumes: soon(\.babyCry) >= Arbitration.heard)
        // A cry is sustained, strongly voiced and repeated; a scream is neither of those.
        // Alarm tones and ringers look voiced too, but are steady. A cry already under
        // way explains a shriek within it, and so does one that goes on: a cry bout is
        // cry after cry (with an inhalation between them), a scream stops.
        // A scream may open on a steady, pure vowel that reads as a ringer's line for half a
        // second; when what follows is a scream and not a ring, it was the scream's start
        // (unless it all is a held note of music).
        let screamAhead = soon { $0.scream * (1 - $0.phoneRing) } * (1 - sustained)
        let ringing = max(sounder, r.phoneRing * (1 - screamAhead))
        // A train of short calls at full strength that the laughter rule hears too is a laugh
        // (`Scream.callTrain`), whose last call may be held as long as a scream: a scream is
        // one call, or a train of calls no laugh ("help! help! help!").
        s[.scream] = shouting.update(early * r.scream * (1 - cryAfter) * (1 - cryBefore) * (1 - ringing) * (1 - speechAround(f)) * (inLaughBout(r, f) ? 0 : 1)
                                         * (1 - Scream.callTrain(f) * ramp(r.laughter, up: Scream.trainLaughter)),
                                     resumes: goingOn)
        cryBefore = s[.babyCry]
        s[.laughter] = laughs.update(early * r.laughter, resumes: soon(\.laughter) >= Arbitration.heard) * (1 - Arbitration.singing * sustained)

        // Short sounds: the onset of a beep, a crash, a breath or a rumble is not one of them.
        // A bright burst inside a snore of the train, no louder than its snores, is that
        // snore's own: one airway, one sleeper, one level. So is one that goes on from a snore
        // the snore rule heard in the window before (half of whose samples this one shares)
        // that the glass rule did not hear as a crash, no louder than that snore: a train's
        // first snore is not yet known as the train's, but the turbulent hiss that follows its
        // low-frequency burst within the breath is its own (a cartoon snore's 4–6 kHz hiss,
        // 0.1 s after its snore, 8 dB under it). A crash heard with a thud the snore rule
        // hears too is heard by the glass rule in both windows that hold its onset, and stays
        // glass. Breaking glass inside a snore is still a new, louder crash
        // (`Arbitration.overSnoreDb`). A line that comes with the burst is compared with the
        // window 1 s before, which shares none of its samples.
        let snoreBeforeDb = decided.0.flatMap { e in
            e.rules.snore >= Arbitration.heard && e.rules.glassBreak < Arbitration.heard ? e.features.peakSnrDb : nil
        }
        let snorersOwn = snores.snoreGoingOnDb.map { f.peakSnrDb <= $0 + Arbitration.overSnoreDb } ?? false
            || snoreBeforeDb.map { f.peakSnrDb <= $0 } ?? false
        // A burst the cough rule hears too, shaped by a vocal tract's formants (`Cough`), is
        // a cough's explosive phase as much as it is a crash: shards ring above the tract's
        // formants, and the cough rule hears breaking glass at 0.14 at most (the 97 windows of
        // true glass the glass rule hears in tune/, check/ and 12 mixed fold 3–4 nights).
        s[.glassBreak] = shards.update(early * r.glassBreak * (1 - tone) * (snorersOwn ? 0 : 1) * (1 - GlassBreak.voiceLine(f, before: decided.1?.features))
                                           * (1 - r.cough),
                                       resumes: goingOn)
        // The swing before a slam: a sound already under way (so not the slam's own attack
        // window, which `early` leaves to the next one) that runs into the slam. A hinge
        // squeak may be as tonal as a ringer, but no ringer ends in a slam.
        let swing = early > 0 || wasActive ? Arbitration.swing * slamAhead() * (1 - train) : 0
        // A loud slam stands alone: no new attack 1–1.5 s after it, where drums go on.
        let alone = (2...Self.lookahead).allSatisfy { (pending[$0]?.features.onsetDb ?? 0) < Arbitration.attackDb }
        let door = max(r.door, alone ? r.slamHit : 0)
        s[.door] = slams.update(max(early * door * (1 - background), swing) * (1 - r.glassBreak), resumes: goingOn)
        // A burst inside a snore train is a snore, inside a breathing rhythm a breath.
        s[.gasp] = gasping.update(early * gasp * (snores.inTrain ? 0 : 1) * (rhythm ? Arbitration.gaspInRhythm : 1) * (1 - s[.glassBreak]) * (1 - sustained),
                                  resumes: goingOn)
        s[.cough] = coughs.update(early * r.cough * (1 - speaking) * (1 - background) * (1 - s[.door]), resumes: soon(\.cough) >= Arbitration.heard)
        s[.dogBark] = barks.update(early * r.dogBark * (1 - speaking) * (1 - s[.babyCry]) * (1 - background),
                                   resumes: soon(\.dogBark) >= Arbitration.heard)
        wasActive = f.activeFraction >= Arbitration.goingOnFraction
        gaspBefore = s[.gasp]
        // The sleeper's own sounds, its snores and breaths and a cough, gasp or scream, are
        // not the room's background: a third bout of coughing is as new as the first.
        let voiced = max(s[.cough], s[.gasp], s[.scream]) >= Arbitration.heard
        // Last, so that a learned score changes its own class alone.
        if !inputs.isEmpty {
            fillInputs(f, r, s, familiar: familiar, rhythm: rhythm)
            decideLearned(f, into: &s)
        }
        for c in Self.habituated { s[c] = unlessFamiliar(c, s[c], familiar) }
        speechBefore = (s[.speech], speechBefore.0)
        spoken.removeLast()
        spoken.insert(Spoken(speech: s[.speech], scream: r.scream, peakDb: f.peakSnrDb, f0Hz: f.f0Hz), at: 0)
        familiarity.remember(f, judged: familiar, sleeper: snores.inTrain || rhythm || voiced)
        return breathing
    }

    /// Fills `inputs` for the window being decided (`pending[0]`), in `LearnedInputs.names` order.
    private mutating func fillInputs(_ f: WindowFeatures, _ r: Rules, _ s: ClassScores, familiar: Float, rhythm: Bool) {
        let window = LearnedInputs.perWindow, c = LearnedInputs.context
        inputs.withUnsafeMutableBufferPointer { x in
            for k in -c...c {
                let at = (k + c) * window
                let e: LookaheadEntry? = k == -2 ? decided.1 : k == -1 ? decided.0 : pending[k]
                if let e { LearnedInputs.fillWindow(e.features, e.rules, into: x, at: at) } else { LearnedInputs.clearWindow(x, at: at) }
            }
            var i = (2 * c + 1) * window
            for cls in LearnedRules.candidates { x[i] = s[cls]; i += 1 }
            x[i] = s[.smokeAlarm]; x[i + 1] = familiar; x[i + 2] = snores.inTrain ? 1 : 0; x[i + 3] = rhythm ? 1 : 0
        }
    }

    /// Replaces the arbitration's score of each class a learned rule decides by the rule's.
    /// The gates stay: a sound must stand out of the floor (`Cues.audibleDb`); a short
    /// sound's first window must stand out of what the room has been doing
    /// (`Cues.noveltyDb`), and a familiar one opens nothing (`unlessFamiliar`, after this);
    /// a sounding alarm explains the window.
    private mutating func decideLearned(_ f: WindowFeatures, into s: inout ClassScores) {
        guard let learned else { return }
        let audible = ramp(f.peakSnrDb, up: Cues.audibleDb)
        let novel = ramp(f.noveltyDb, up: Cues.noveltyDb)
        // A window that does not stand out of the floor, or that a sounding alarm explains, scores
        // nothing whatever the trees say: they are not walked.
        let heard = audible > 0 && s[.smokeAlarm] < 1
        inputs.withUnsafeBufferPointer { x in
            for c in learnedClasses {
                var y = heard ? learned.rules[c.index]!.score(x) * audible * (1 - s[.smokeAlarm]) : 0
                if Self.short.contains(c), learnedBefore[c.index] < Arbitration.heard { y *= novel }
                learnedBefore[c.index] = y
                s[c] = y
            }
        }
    }

    /// The short classes, the habituated ones but thunder (which swells): a burst that
    /// stands out of the room at its first window.
    static let short = SoundClass.all(\.short)
}

/// What the scream's arbitration keeps of a decided window: its speech score, the scream
/// rule's, its loudest frame over the floor (dB) and its pitch (Hz, 0 when unvoiced).
private struct Spoken: Sendable {
    var speech: Float = 0
    var scream: Float = 0
    var peakDb: Float = Decibels.silence
    var f0Hz: Float = 0
}
