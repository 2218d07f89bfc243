/// The numbers the arbitration (`Classifier.score`) and the trains' backlog weigh classes
/// with, named and sourced as the rules' are (`Rules/`).
enum Arbitration {
    /// A class counts as heard in a window from a score of 0.5, the balanced profile's
    /// `off`: the score at which the middle profile keeps an event open.
    static let heard: Float = 0.5
    /// What a train held for a snore or breath that did not come falls to: 0.3, the most
    /// sensitive profile's `off`, on which no built-in profile keeps the event open.
    static let released: Float = 0.3
    /// A new sound's attack: a rise of 8 dB within 47 ms, the lower edge of a sharp onset
    /// (`Cues.sharpRiseDb`).
    static let attackDb = Cues.sharpRiseDb.lowerBound
    /// An attack this far into the window (its second half, one hop) lies wholly in the next
    /// window, which reports it.
    static let lateOnsetSeconds = Float(StreamClock.frameSeconds)
    /// Sound goes on through the window: active (6 dB over the floor) in 30 % of its
    /// frames, 0.3 s, longer than an impact rings (a slam or a crash dies within 0.2 s).
    static let goingOnFraction: Float = 0.3
    /// Sound without a break: active in 90 % of the frames, so at most 0.1 s of gap, where
    /// a snore train pauses 1–2 s between snores for the inhalation.
    static let unbrokenFraction: Float = 0.9
    /// Thunder's roll fills the window: active in 70 % of the frames (`Rumble`).
    static let rollingFraction: Float = 0.7
    /// Another sound over a rumble: a frame 18 dB over the floor, the top of `Cues.loudDb`.
    static let overRumbleDb = Cues.loudDb.upperBound
    /// A crash inside a snore stands out of it: its loudest frame more than 3 dB over the
    /// train's loudest snore, the margin by which a recovery breath outdoes the train's snores
    /// (`SnoreTrain.resumeLouderDb`). A snorer's snores hold their level within it.
    static let overSnoreDb = SnoreTrain.resumeLouderDb
    /// A bass under a held note: a pitch of 60–300 Hz (give or take 30 Hz), the bass and
    /// baritone range of instruments and voices. A bell or a ringer sounds alone.
    static let bassF0Hz: ClosedRange<Float> = 60...300
    static let bassF0SoftHz: Float = 30
    /// An impact (a slam, a knock) sounds for less than 0.2–0.35 s; a snore lasts 0.5 s
    /// or more.
    static let impactSeconds: ClosedRange<Float> = 0.2...0.35
    /// A bark is a short voiced burst, under 0.3–0.5 s; a cry holds its phonation for
    /// 0.5 s or more.
    static let barkSeconds: ClosedRange<Float> = 0.3...0.5
    /// Within music a voice is singing: sustained music lowers speech and laughter by 70 %.
    static let singing: Float = 0.7
    /// A door's swing before its slam scores 80 % of the slam: the event opens at the swing
    /// under the balanced profile (`on` 0.7) when the slam ahead scores 0.875 or more.
    static let swing: Float = 0.8
    /// A scream within running speech stands out of it by a shout's effort: 6 dB, the step
    /// between vocal efforts (normal, raised, loud, shout) of ANSI S3.5-1997's speech levels.
    /// A syllable no louder than that is the speech's own, however shrill.
    static let overSpeechDb: Float = 6
    /// Within a breathing rhythm, a gasp keeps 30 % of its score, under every built-in
    /// profile's `on` (0.5–0.9): a deep breath of the rhythm reads as a gasp.
    static let gaspInRhythm: Float = 0.3
}
