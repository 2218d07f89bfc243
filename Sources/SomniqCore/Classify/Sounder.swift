/// What an alarm's sounder does that a motor, a fan, the wind or an insect does not, measured
/// on the beeps of one pattern (`AlarmTrack`): a pattern is an alarm only when its beeps are a
/// sounder's.
///
/// A sounder is an oscillator driving a piezo disc at its resonance or a speaker with a square
/// wave: its line is a sinusoid of constant amplitude, its pitch set by the disc or the
/// oscillator (steady to about a percent within and across beeps), its drive the same at every
/// beep. The lines of a motor, a compressor, a fan's whine, wind in a gap or a frog's call are
/// resonances excited by noise: narrowband random processes whose envelope is Rayleigh
/// distributed, so that their level in short frames wanders by about 5.6 dB (standard deviation
/// of the log of an exponential variable), and whose frequency wanders across their bandwidth
/// from frame to frame (Rice 1944, "Mathematical analysis of random noise", §3.7–3.8). Their
/// swells cut into beeps can keep a pattern's cadence by chance; their beeps never hold a level
/// and a pitch as a sounder's do.
///
/// Measured on `make eval`'s background nights (folds 0–2 and 3–4, quiet/, stress/) and the
/// battery: every false temporal-three and temporal-four raised by a compressor, a fan, wind,
/// rain, crickets and frogs had a beep both below 48 % at its top and above 1.1 % in pitch
/// deviation; the sounders of the battery within ±1 % of pitch pass, but for two below the
/// standards' SNR.
enum Sounder {
    /// A beep's top: the frames within 3 dB of its loudest.
    static let topDb: Float = 3
    /// A beep is a noise's when its level is at its top in less than 48 % of its frames …
    static let noiseTopShare: Float = 0.48
    /// … and its pitch deviates from its mean by more than 1.1 % (standard deviation): a
    /// sounder's ±1 % slide is 0.58 %, and the pitch estimate's error at 520 Hz (a sixth of a
    /// 15.6 Hz bin) as much again. Either alone a sounder shows in a room (its level swells as
    /// reverberation builds up and beats with it) or at a low SNR (its pitch estimate wanders);
    /// both together, a noise.
    static let noisePitchDeviation: Float = 0.011
    /// The tones of temporal-three and a steady beeper's beeps come from one drive at one
    /// place: their peaks lie within 6 dB (a beep masked in part by a burst of noise, and a
    /// room's build-up, take some). The microwave's, a tune's and a swelling motor's do not.
    static let levelSpreadDb: Float = 6
    /// A blip on the line 20 dB under a sounder's beeps is another sound's: the sounder's lie
    /// within `levelSpreadDb` of each other, and a room's noise makes such blips at the pitch
    /// (its lines reach `AlarmDetector.startDb` over their neighbourhood now and then) however
    /// loud the alarm is. Measured on the battery: T4 groups broken by blips 30-40 dB under them.
    static let otherSoundDb: Float = 20
    /// T4's groups are one drive's, five seconds apart in the same room: some beep of each
    /// lies within 2 dB of some beep of the other (`Cues.shareALevel`). Noise 20 dB under a
    /// line in its bin (`AlarmDetector.startDb` and the rise to it) moves its peak by 0.8 dB at
    /// most, each way; a tick or a burst that lands on a beep lifts that beep, not its group.
    /// Measured on the battery: every T4 found had its two groups' levels within 0.43 dB of
    /// each other (two of them with a clock's tick on one beep, 4 and 7 dB over the rest); a
    /// tune's notes and a phone's rings that kept T4's cadence, 3.05-6.06 dB apart.
    static let groupLevelDb: Float = 2
    /// Within a T4 group, the two loudest beeps lie within 4.5 dB of each other: each is the
    /// same drive's, and a line `AlarmDetector.startDb` (12 dB) over the noise in its bin has its
    /// peak moved by that noise by +2.0 dB at most (in phase, 20 log(1 + 10^(-12/20))) and
    /// -2.5 dB (out of phase, 20 log(1 - 10^(-12/20))): two equal beeps read at most 4.5 dB
    /// apart. Measured on the battery (seeds 1-3, 2,696 T4 groups found): 0.13 dB apart at the
    /// median, within 2.1 dB in 99 %; one T4 at 6 dB SNR over a ticking clock had its loudest
    /// beep lifted 7 dB by a tick in one frame (`Group.oneLevel` then judges the next two, 1.9
    /// dB apart). On tune-side nights a scream's and tunes' notes that kept T4's cadence, 5.6-11.2 dB.
    static let twoBeepsDb: Float = 4.5

    /// Whether a beep at `level` dB is another sound's beside a sounder's at `sounder` dB: more
    /// than `otherSoundDb` under it.
    static func isOtherSound(_ level: Float, under sounder: Float) -> Bool { level < sounder - otherSoundDb }
    /// A struck case rings down: a clock's tick falls 20 dB in 0.1–0.15 s, 130–200 dB a second,
    /// from its first frame. A sounder's beep holds its level while its drive is on; with a
    /// room's tail after it (up to the coarse cut's 10 dB drop, RT60 up to 0.6 s) a tone's or
    /// a steady beeper's fitted slope falls 70 dB a second at most (the battery's). T4's short
    /// beeps, cut finely, are left to their cadence: there a tail is most of a beep.
    static let longestFallDbPerSecond: Float = 100
    /// A sounder's beep holds its peak while its drive is on, a flat top: within `topDb` of it
    /// for at least 3 frames (47 ms; the battery's steady beeps last 0.1 s and more, T3's tones
    /// 0.34 s and more). A tick's ring is within 3 dB of its peak for 3 / (130–200 dB/s) =
    /// 15–23 ms, one or two frames. A quarter of the beeps may lack it (a beep half masked
    /// by a burst of noise). Measured on the battery: no T3 or steady alarm had more than one
    /// such beep; a ticking clock's steady "beeping" had 18 of 27.
    static let shortestTopFrames = 3
    /// A fixed sounder's beeps keep one level: its drive is the same at every beep, and
    /// nothing between it and the microphone moves. A source that comes nearer or turns away
    /// changes level with its distance (the inverse-square law), gradually: 3 dB is its
    /// distance changed by a factor of 1.4, a lorry reversing and turning in the street. The
    /// change is that of a line fitted to the beeps' peaks over the run's first `hornSeconds`
    /// (`Trend.drift`), where a line fits them better than a step: a door opened or a person
    /// turning their head changes a fixed sounder's level at once, and bursts of noise lift
    /// single peaks. Measured on the battery (seeds 1-3): every steady alarm found changed by
    /// 2.13 dB at most over its first 10 s; the reversing beepers and quickening alarm clocks
    /// raised as steady alarms, by 3.23-5.72 dB.
    static let steadyLevelChangeDb: Float = 3
}

extension Sounder {
    /// How the peaks of a run of beeps move: each beep's peak at its start (seconds from the
    /// first beep's), for the first 64 beeps (a steady run's first 10 s hold 34 at most).
    struct Trend: Sendable, Equatable {
        private var levels = SIMD64<Float>(repeating: 0), times = SIMD64<Float>(repeating: 0)
        private(set) var count = 0

        mutating func add(_ level: Float, at seconds: Float) {
            guard count < SIMD64<Float>.scalarCount else { return }
            levels[count] = level; times[count] = seconds
            count += 1
        }

        /// The rise (dB, from the first beep to the last) of the least-squares line through the
        /// peaks, when it fits them better than the best step (two levels, one before some beep
        /// and one from it on); 0 when a step fits as well, or before three beeps.
        var drift: Float {
            guard count >= 3 else { return 0 }
            let n = Float(count)
            var sumT: Float = 0, sumL: Float = 0
            for k in 0..<count { sumT += times[k]; sumL += levels[k] }
            let (meanT, meanL) = (sumT / n, sumL / n)
            var varT: Float = 0, cov: Float = 0
            for k in 0..<count { varT += (times[k] - meanT) * (times[k] - meanT); cov += (times[k] - meanT) * (levels[k] - meanL) }
            guard varT > 0 else { return 0 }
            let slope = cov / varT
            var line: Float = 0
            for k in 0..<count {
                let r = levels[k] - meanL - slope * (times[k] - meanT)
                line += r * r
            }
            var step = Float.infinity
            for split in 1..<count {
                step = min(step, Self.squares(levels, 0..<split) + Self.squares(levels, split..<count))
            }
            return line < step ? slope * (times[count - 1] - times[0]) : 0
        }

        /// The sum of the squared deviations of `levels` over `range` from their mean.
        private static func squares(_ levels: SIMD64<Float>, _ range: Range<Int>) -> Float {
            var sum: Float = 0
            for k in range { sum += levels[k] }
            let mean = sum / Float(range.count)
            var squares: Float = 0
            for k in range { squares += (levels[k] - mean) * (levels[k] - mean) }
            return squares
        }
    }

    /// The beeps of one pattern, summed up as they are added: how far each holds its level
    /// and pitch, how fast it falls, how alike their levels are.
    struct Cues: Sendable, Equatable {
        var beeps = 0
        /// The lowest share of a beep's frames at its top, and the highest deviation of a beep's pitch.
        var topShare: Float = 1, hzDeviation: Float = 0
        /// The steepest fall of a beep's level over its frames, dB a second (0 when none fell).
        var fall: Float = 0
        /// The loudest and quietest beep (their peaks), dB.
        var loudest: Float = -.infinity, quietest: Float = .infinity
        /// How many beeps had no flat top (`shortestTopFrames`).
        var ringing = 0
        /// The lowest and highest pitch of a beep, Hz.
        var hzLow: Float = .infinity, hzHigh: Float = 0

        init() {}
        init(_ b: BeepSegmenter.Beep) { add(b) }

        mutating func add(_ b: BeepSegmenter.Beep) {
            beeps += 1
            topShare = min(topShare, b.topShare); hzDeviation = max(hzDeviation, b.hzDeviation)
            fall = max(fall, -b.slopeDbPerSecond)
            loudest = max(loudest, b.peakDb); quietest = min(quietest, b.peakDb)
            if b.topFrames < Sounder.shortestTopFrames { ringing += 1 }
            hzLow = min(hzLow, b.hz); hzHigh = max(hzHigh, b.hz)
        }

        static func + (a: Cues, b: Cues) -> Cues {
            var c = a
            c.beeps += b.beeps
            c.topShare = min(a.topShare, b.topShare); c.hzDeviation = max(a.hzDeviation, b.hzDeviation)
            c.fall = max(a.fall, b.fall)
            c.loudest = max(a.loudest, b.loudest); c.quietest = min(a.quietest, b.quietest)
            c.ringing = a.ringing + b.ringing
            c.hzLow = min(a.hzLow, b.hzLow); c.hzHigh = max(a.hzHigh, b.hzHigh)
            return c
        }

        /// Whether the two sets of beeps reach a common level: the quieter of their quietest
        /// beeps lies within `db` of the quieter of their loudest.
        func shareALevel(with other: Cues, within db: Float) -> Bool {
            max(quietest, other.quietest) - min(loudest, other.loudest) <= db
        }

        /// Whether every beep is a sounder's (none noise-like), their peaks within
        /// `levelSpread` dB of each other, none falling faster than `fall` dB a second.
        func areSounder(levelSpread: Float = .infinity, fall: Float = .infinity) -> Bool {
            !(topShare < Sounder.noiseTopShare && hzDeviation > Sounder.noisePitchDeviation)
                && loudest - quietest <= levelSpread && self.fall <= fall
        }

        /// Whole tones or beeps (T3's four, a steady run's up to its confirmation): their
        /// levels within `levelSpreadDb`, none ringing down, all but a quarter with a flat top,
        /// and one pitch: the highest within `AlarmDetector.sameToneTolerance` (2 %) of the
        /// lowest, as a T4 group's (`AlarmTrack.Group.onePitch`). A piezo's pitch is its
        /// disc's, steady to about a percent across beeps; T3's tones are each judged against
        /// the one before, and a glide of 1.5 % a tone (a voice's, a siren's) kept within that
        /// for four tones, 4.5 % in all; a steady run takes beeps within
        /// `AlarmDetector.hornPitchTolerance` (2.5 %) of its first, 5 % in all. Measured on
        /// the battery (seeds 1-3) and the mixed nights: no alarm lost, nothing else changed.
        var areSoundersTones: Bool {
            areSounder(levelSpread: Sounder.levelSpreadDb, fall: Sounder.longestFallDbPerSecond) && ringing <= beeps / 4 && onePitch
        }

        /// Whether the highest beep lies within `AlarmDetector.sameToneTolerance` of the lowest.
        var onePitch: Bool { AlarmTrack.same(hzHigh, hzLow) }
    }
}
