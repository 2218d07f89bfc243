/// Follows snores across windows.
///
/// Snores come one per breath, every 2–8 s (12–30 breaths a minute in sleep), and each
/// lasts 0.5–2.5 s, with the exhalation up to a whole breath (Pevernagie et al. 2010). After a
/// snore burst the snoring score is held until the next one is due: for 5 s after a
/// burst, and in a train of regularly spaced bursts until one period (plus a quarter
/// for its jitter) after the last burst began. So a night of snoring is one event with its
/// gaps, not one per breath. A lone burst scores just under an alert; the second burst,
/// a breath later, starts a train, and snoring started with the first (`startedAt`);
/// when the next one was due and did not come, snoring ended with the last (`endedAt`).
/// The classifier applies both to the windows it holds back. A burst that goes on for
/// longer than a breath (thunder, traffic, a drum loop), or that sounds unlike the
/// train's snores, is not a snore: it scores nothing and leaves the train.
///
/// `breathing_pause` (derived): a regular train of at least three snores stops for
/// ≥ 10 s and resumes with a gasp or a snore at least 3 dB louder than the train's
/// loudest that sounds like its snores. This is a pattern worth a look, not a diagnosis.
/// The 10 s must be heard: quiet enough that a snore would have stood out. A window in
/// which other sound goes on as a snore's would (`otherSound`: a cry, a voice, a roll of
/// thunder) could hold a snore unheard, masked or mixed with it, and the stretch of quiet
/// starts again after it; once 10 s of quiet were heard, the pause stands until the
/// recovery breath.
/// A burst that would end the pause but runs on unbroken (`runsOn`: a roll of thunder, a
/// tune setting in) is no recovery breath: it leaves the train as a foreign burst does,
/// and the pause goes on to the next burst that may end it.
struct SnoreTrain: Sendable {
    private var inBurst = false
    private var bursts: [Int] = { var b = [Int](); b.reserveCapacity(keptBursts + 1); return b }()   // starts of recent bursts
    /// Loudest burst of the train so far, dB above the floor.
    private var trainLevel: Float = -.infinity
    private var burstLevel: Float = -.infinity
    private var lastBurstEnd = Int.min / 2
    /// The last window in which other sound went on that could have hidden a snore.
    private var lastOtherSound = Int.min / 2
    /// 10 s of quiet were heard since the train's last snore: the train has paused.
    private var quietHeard = false
    /// `quietHeard` before the current burst joined the train, for when it leaves it.
    private var quietBeforeBurst = false
    /// Windows of the current burst that were entirely filled with sound.
    private var fullWindows = 0
    /// The current burst is no snore of the train (too long, or sounding unlike it).
    private var foreign = false
    /// Spectral centroid where the last snore of the train began.
    private var timbreHz: Float = 0

    /// A snore lasts at most one breath, inhalation and exhalation (at most 5 s at 12
    /// breaths a minute), so at most nine 1 s windows at a 0.5 s hop lie entirely inside it.
    private static let mostFullWindows = 9

    /// Windows per second.
    private static let rate = 2

    /// The second snore that confirms a train comes within 6 s of the first: a sleeper
    /// breathes 10–24 times a minute (2.5–6 s a breath). Two bursts further apart, a low
    /// crackle of passing traffic or a gust every 7 s, are no snoring yet.
    static let pairSeconds = 6

    /// The score a train holds between its snores; a regular one a little more. Both over
    /// the balanced profile's `on` (0.7): a train is snoring.
    static let held: Float = 0.8
    static let regularHeld: Float = 0.85
    /// A lone burst scores at most 0.65, just under the balanced profile's `on` (0.7).
    static let lone: Float = 0.65
    /// A burst starts at a snore score of `Arbitration.heard` and ends below
    /// `Arbitration.released`; a gasp that may end a pause scores 0.6 or more.
    static let gaspScore: Float = 0.6
    /// A pause: no snore for 10 s or more, as an apnea is scored (airflow stops for 10 s or
    /// more; AASM Manual for the Scoring of Sleep), in a train whose last snore began at
    /// most 60 s before.
    static let pauseSeconds = 10, pauseWithinSeconds = 60
    /// A pause ends with a gasp, or a snore scoring 0.8 and 3 dB louder than the train's
    /// loudest that sounds like the train's snores: the recovery breath through a reopened
    /// airway.
    static let resumeScore: Float = 0.8, resumeLouderDb: Float = 3
    /// After 20 s without a snore (three breaths missed at the slowest sleeping rate), the
    /// bursts before are forgotten.
    static let forgetSeconds = 20
    /// The bursts a train keeps in view (its period is their median interval).
    static let keptBursts = 8
    /// Within 8 s of the last snore, a burst whose centroid lies more than a factor of 3
    /// (1.6 octaves) from that snore's is something else.
    static let timbreSeconds = 8, timbreRatio: Float = 3
    /// Snores come every 2–8 s (7.5–30 breaths a minute, the range of sleep); the snore
    /// after the pair may come up to 8 s on.
    static let periodSeconds = 2...8
    /// A regular train's intervals lie within 35 % of their median; the next snore is due
    /// one period after the last began, plus a quarter for its jitter.
    static let regularity = 0.35, jitter = 0.25
    /// Before the train is regular, the next snore is due 5 s after the last one ended; in
    /// any train, at most 9 s after (a snore lasts one breath, at most 5 s, and the next
    /// breath's follows within 4).
    static let unevenDueSeconds = 5, latestDueSeconds = 9

    /// Two or more snores a breath apart: a burst now belongs to the train.
    private(set) var inTrain = false

    /// Set by the update that starts a train: the window where its first snore began (or,
    /// if a train ended since, the window after that). Snoring began there, a breath before
    /// the update could know it; the classifier raises those windows, which it holds back.
    private(set) var startedAt: Int?
    private var lastInTrain = Int.min / 2
    /// Set by the update that ends a train: the first window after its last snore. The
    /// train was held until the next snore was due; none came, so snoring ended there,
    /// and the classifier lowers the windows since.
    private(set) var endedAt: Int?
    /// Set by an update whose window goes on with a snore of the train that began in an
    /// earlier window (the snore may end in it): the loudest the train's snores stood over the floor before this
    /// window (its finished snores and this one's earlier windows), dB. A sound inside a
    /// snore that stands no louder than the snores is the snore's own (a snort, the
    /// rattle of its second half), whatever its spectrum; `nil` outside such a window.
    private(set) var snoreGoingOnDb: Float?

    /// `levelDb`: how far the window's loudest frame stands above the floor; `full`: the
    /// window is filled with sound from start to end; `centroidHz`: its spectral centroid.
    /// `nextInView`: a snore comes within the next `horizon` windows (the lookahead); once
    /// the next one is due within them and none is in view, the train has ended. `runsOn`:
    /// sound goes on without a break for longer than one inhalation from this window's start.
    /// `otherSound`: sound goes on in the window that could hide a snore (outside the train's
    /// own snores).
    mutating func update(instant: Float, gasp: Float, levelDb: Float, full: Bool, centroidHz: Float = 0, frame: Int,
                         nextInView: Bool = true, horizon: Int = 0, runsOn: Bool = false, otherSound: Bool = false) -> (snoring: Float, pause: Float) {
        var pause: Float = 0
        startedAt = nil
        snoreGoingOnDb = nil
        let wasInTrain = inTrain
        defer {
            endedAt = wasInTrain && !inTrain ? lastBurstEnd : nil
            if otherSound && !(inBurst && !foreign) { lastOtherSound = frame }
        }
        if !inBurst, frame - max(lastBurstEnd, lastOtherSound) >= Self.pauseSeconds * Self.rate { quietHeard = true }
        let starting = instant >= Arbitration.heard && !inBurst
        var rollsOn = false
        if starting || (gasp >= Self.gaspScore && !inBurst) {
            // A new burst (or a gasp): was it the end of a pause in a regular train?
            if let last = bursts.last, bursts.count >= 3, regular, quietHeard,
               frame - last <= Self.pauseWithinSeconds * Self.rate,
               gasp >= Self.gaspScore || (instant >= Self.resumeScore && levelDb > trainLevel + Self.resumeLouderDb && soundsLikeTheTrain(centroidHz)) {
                if runsOn { rollsOn = true } else { pause = 1 }
            }
        }
        if starting {
            inBurst = true
            burstLevel = levelDb
            fullWindows = full ? 1 : 0
            // No recovery breath: the train and its pause are kept for the next burst.
            if rollsOn {
                foreign = true
                return (0, pause)
            }
            if let last = bursts.last, frame - last > Self.forgetSeconds * Self.rate { bursts.removeAll(keepingCapacity: true); trainLevel = -.infinity }
            // One sleeper snores through one airway into one microphone: the snores of a
            // train sound alike. A burst whose centroid lies more than a factor of 3 (1.6
            // octaves) from the last snore's is something else (a door, a voice) in a pause.
            if let last = bursts.last, frame - last <= Self.timbreSeconds * Self.rate, !soundsLikeTheTrain(centroidHz) {
                foreign = true
                return (0, pause)
            } else {
                foreign = false
                quietBeforeBurst = quietHeard
                quietHeard = false
                bursts.append(frame)
                if bursts.count > Self.keptBursts { bursts.removeFirst() }
                timbreHz = centroidHz
            }
        } else if inBurst {
            let loudest = max(trainLevel, burstLevel)
            burstLevel = max(burstLevel, levelDb)
            fullWindows += full ? 1 : 0
            if !foreign, fullWindows > Self.mostFullWindows {
                // Too long for a snore: whatever it is, it is not part of the train. It was
                // other sound all along, which a snore could have hidden in.
                foreign = true
                bursts.removeLast()
                quietHeard = quietBeforeBurst
            }
            if foreign {
                if instant < Arbitration.released { inBurst = false }
                return (0, pause)
            }
            // The burst was under way when this window began: what it holds goes on from a
            // snore, even if the snore ends in it.
            if wasInTrain { snoreGoingOnDb = loudest }
            if instant < Arbitration.released {
                inBurst = false
                lastBurstEnd = frame
                trainLevel = max(trainLevel, burstLevel)
            }
        }

        guard let last = bursts.last else { return (instant, pause) }
        // A lone burst is not yet snoring: a gasp, a thump or the start of a rumble look
        // the same. A second burst a breath later confirms it (just below the balanced `on`):
        // two of the recent bursts within `pairSeconds`; then the next may come up to 8 s on.
        var confirmed = false
        for k in bursts.indices.dropFirst() where bursts[k] - bursts[k - 1] <= Self.pairSeconds * Self.rate { confirmed = true }
        let paired = confirmed && bursts.count >= 2 && bursts[bursts.count - 1] - bursts[bursts.count - 2] <= Self.periodSeconds.upperBound * Self.rate
        inTrain = false
        if !paired { return (min(instant, Self.lone), pause) }
        // The next snore is due one period after the last one began (± 25 % jitter);
        // before the train is regular, 5 s after the last snore ended.
        let due = regular ? last + period + Int((Self.jitter * Double(period)).rounded(.up))
                          : (inBurst ? frame : lastBurstEnd) + Self.unevenDueSeconds * Self.rate
        let end = min(due, lastBurstEnd + Self.latestDueSeconds * Self.rate)
        guard inBurst || (frame <= end && (nextInView || frame + horizon < end)) else { return (instant, pause) }
        if frame > lastInTrain + 1 { startedAt = max(bursts[bursts.count - 2], lastInTrain + 1) }
        inTrain = true
        lastInTrain = frame
        return (max(instant, regular ? Self.regularHeld : Self.held), pause)
    }

    /// A burst's centroid lies within a factor of 3 (1.6 octaves) of the last snore's, or
    /// either is unknown. A snore that ends a pause is the recovery breath through the same
    /// airway as the train's: a door, a crash or a ringer's tail after a quiet spell is not.
    private func soundsLikeTheTrain(_ centroidHz: Float) -> Bool {
        timbreHz <= 0 || centroidHz <= 0 || abs(Float.log2(centroidHz / timbreHz)) <= Float.log2(Self.timbreRatio)
    }

    /// Median interval between recent bursts, in windows.
    private var period: Int { medianInterval(bursts) }

    /// At least two intervals, all 2–8 s and within 35 % of the median.
    private var regular: Bool {
        guard bursts.count >= 3 else { return false }
        let p = period
        guard p >= Self.periodSeconds.lowerBound * Self.rate, p <= Self.periodSeconds.upperBound * Self.rate else { return false }
        for k in 1..<bursts.count where abs(Double(bursts[k] - bursts[k - 1] - p)) > Self.regularity * Double(p) { return false }
        return true
    }
}
