/// Cuts one tonal line into beeps, frame by frame, at one resolution (`AlarmTrack` keeps two).
///
/// A beep starts when the line stands `AlarmDetector.startDb` over its neighbourhood and has
/// risen `AlarmDetector.riseDb` since it last fell (a reverberant tail does not restart a
/// beep); it goes on while the line stays within `dropDb` of the beep's peak (or of a level
/// that follows the line down by up to `followDb` a frame while the line holds within
/// `Sounder.topDb` of it), with up to `bridgeFrames` frames missing bridged.
struct BeepSegmenter: Sendable {
    /// A finished beep, in frames (`end` exclusive), and its mean pitch.
    struct Beep: Sendable, Equatable {
        var start = 0, end = 0
        var hz: Float = 0
        /// How far its pitch wandered: highest over lowest, less 1.
        var spread: Float = 0
        /// Its loudest frame's level (dB, the frame's scale).
        var peakDb: Float = 0
        /// The highest its line stood over its neighbourhood in any frame (dB).
        var contrastDb: Float = 0
        /// How its level moved over its frames: the slope of a line fitted to them (dB a second).
        var slopeDbPerSecond: Float = 0
        /// The share of its frames within `Sounder.topDb` of its peak (of its first 64).
        var topShare: Float = 0
        /// The standard deviation of its frames' pitch over its mean pitch.
        var hzDeviation: Float = 0
        /// Frames from its first to its last within `Sounder.topDb` of its peak (of its first 64).
        var topFrames = 0
        var seconds: Double { Double(end - start) * AlarmDetector.frameSeconds }
    }

    let dropDb: Float
    let bridgeFrames: Int
    /// How far (dB a frame) the level a drop is measured from may follow the line down: 0, the
    /// beep's peak.
    let followDb: Float
    /// How far from the beep's mean pitch a line may lie and still go on with it.
    let pitchTolerance: Float
    /// Whether the pitch of the frames within `steadyPitchDb` of the level followed is kept
    /// for `sounding`: only the horn's segmenter (`AlarmTrack.held`) is asked it.
    let keepsSteadyPitch: Bool
    private(set) var on = false
    private(set) var beepStart = 0, lastOn = -1_000_000
    private var hzSum: Float = 0, frames = 0
    private(set) var hzMin: Float = 0, hzMax: Float = 0
    /// The lowest and highest pitch of the frames within `steadyPitchDb` of the level followed
    /// (`sounding`; kept only when `keepsSteadyPitch`).
    private var steadyHzMin: Float = 0, steadyHzMax: Float = 0
    private(set) var peakDb: Float = 0
    private var contrastDb: Float = 0
    /// The level a drop is measured from: the peak, or under it as it follows the line down.
    private var referenceDb: Float = 0
    /// The lowest level the line fell to since its last beep, or nil when it vanished.
    private var valleyDb: Float?
    /// Sums over the beep's frames of t, t², level and t·level, t counted in frames from its
    /// first (for its slope), and the levels of its first 64 frames (for its top).
    private var sumT: Float = 0, sumTT: Float = 0, sumL: Float = 0, sumTL: Float = 0
    private var levels = SIMD64<Float>(repeating: -.infinity)
    /// Sums of each frame's pitch less the first's, and of its square.
    private var hzFirst: Float = 0, hzOffsets: Float = 0, hzOffsetSquares: Float = 0

    init(dropDb: Float, bridgeFrames: Int, pitchTolerance: Float, followDb: Float = 0, keepsSteadyPitch: Bool = false) {
        self.dropDb = dropDb
        self.bridgeFrames = bridgeFrames
        self.followDb = followDb
        self.pitchTolerance = pitchTolerance
        self.keepsSteadyPitch = keepsSteadyPitch
    }

    /// The frame's line for this beep: inside a beep, the strongest near its mean pitch;
    /// outside one, the strongest in the channel (lines come strongest first; bit j of
    /// `inChannel` is set when line j lies in the channel).
    @inline(__always)
    private func line(in lines: ToneLines, inChannel: UInt8) -> ToneLines.Line? {
        let mean = frames > 0 ? hzSum / Float(frames) : 0
        var rest = inChannel
        while rest != 0 {
            let line = lines.lines[rest.trailingZeroBitCount]
            rest &= rest &- 1
            if !on || abs(line.hz - mean) <= max(pitchTolerance * mean, 20) { return line }
        }
        return nil
    }

    /// A frame with no line in the channel, outside a beep: what `frame` does then, cheaply.
    mutating func silence() { valleyDb = nil }

    private mutating func begin(_ line: ToneLines.Line, at frame: Int) {
        on = true
        beepStart = frame
        lastOn = frame
        hzSum = line.hz; frames = 1; hzMin = line.hz; hzMax = line.hz; peakDb = line.levelDb
        steadyHzMin = line.hz; steadyHzMax = line.hz
        referenceDb = line.levelDb
        contrastDb = line.contrastDb
        valleyDb = nil
        sumT = 0; sumTT = 0; sumL = line.levelDb; sumTL = 0
        levels = SIMD64(repeating: -.infinity)
        levels[0] = line.levelDb
        hzFirst = line.hz; hzOffsets = 0; hzOffsetSquares = 0
    }

    /// Adds a frame's level at `frame` to the beep under way.
    private mutating func take(_ levelDb: Float, at frame: Int) {
        let t = Float(frame - beepStart)
        if frame - beepStart < 64 { levels[frame - beepStart] = levelDb }
        sumT += t; sumTT += t * t; sumL += levelDb; sumTL += t * levelDb
    }

    /// A horn that warbles or slides in a room crosses the notches of its response (some
    /// 4/RT60 Hz apart, often 10 dB deep and more: Schroeder 1962, `AlarmDetector.t3Dropout`);
    /// in a notch its line is weak and the reflections beat, and the frame's pitch estimate
    /// strays (measured on the battery, seed 2 alarm 218: a ±0.95 % warble in a room of RT60
    /// 0.56 s read 3.0 % from lowest to highest, a quarter of its frames 10 dB and more down).
    /// Its pitch is judged on the frames within 6 dB of the level followed: a notch's frames lie
    /// under it, the horn's own (its drive, steady to a percent) over it.
    static let steadyPitchDb: Float = 6

    /// How long the current beep has sounded by `frame`, and how far its pitch has wandered
    /// (highest over lowest, less 1) over its frames within `steadyPitchDb` of the level followed.
    func sounding(at frame: Int) -> (seconds: Double, spread: Float) {
        (Double(frame - beepStart + 1) * AlarmDetector.frameSeconds, steadyHzMin > 0 ? steadyHzMax / steadyHzMin - 1 : 1)
    }

    /// The share of the current beep's frames, up to its last heard, in which its line was
    /// heard (the rest bridged).
    var heardShare: Float { Float(frames) / Float(max(1, lastOn - beepStart + 1)) }

    /// The beep under way, as heard up to its last frame; nil while it is a click.
    private var current: Beep? {
        guard lastOn + 1 - beepStart >= AlarmDetector.shortestBeepFrames else { return nil }
        let n = Float(frames)
        let variance = sumTT - sumT * sumT / n
        let slope = variance > 0 ? (sumTL - sumT * sumL / n) / variance : 0
        // The levels one by one through a pointer: the same comparisons, lane by lane, as
        // masks of 64 lanes, which the compiler made into some 110 instructions a lane.
        let top = peakDb - Sounder.topDb
        var nTaken = 0, nTop = 0, firstTop = -1, lastTop = -1
        withUnsafeBytes(of: levels) { raw in
            let level = raw.assumingMemoryBound(to: Float.self)
            for k in 0..<64 {
                if level[k] > -.infinity { nTaken += 1 }
                if level[k] >= top { nTop += 1; if firstTop < 0 { firstTop = k }; lastTop = k }
            }
        }
        let mean = hzSum / n
        let offset = hzOffsets / n
        let hzVar: Float = max(0, hzOffsetSquares / n - offset * offset)
        let topShare = Float(nTop) / Float(max(1, nTaken))
        return Beep(start: beepStart, end: lastOn + 1, hz: mean, spread: hzMax / hzMin - 1, peakDb: peakDb, contrastDb: contrastDb,
                    slopeDbPerSecond: slope * SubFrame.rate, topShare: topShare, hzDeviation: hzVar.squareRoot() / mean,
                    topFrames: lastTop - firstTop + 1)
    }

    /// Takes the frame's lines (bit j of `inChannel` is set when line j lies within
    /// `AlarmDetector.channelWidth` of the channel's centre: the channel's lines); returns
    /// the beep this ends. Inlined: a channel takes each of its three segmenters through
    /// every frame in which something sounds in it.
    @inline(__always)
    mutating func frame(_ lines: ToneLines, inChannel: UInt8, at frame: Int) -> Beep? {
        let line = line(in: lines, inChannel: inChannel)
        if on {
            // A line that rises `riseDb` over all the beep has been is a new sound's onset
            // (a tone that starts in a burst of noise at its pitch): the noise was a beep of
            // its own, and the tone starts now.
            if let line, line.levelDb >= peakDb + AlarmDetector.riseDb, line.contrastDb >= AlarmDetector.startDb {
                let before = current
                begin(line, at: frame)
                return before
            }
            if let line, line.levelDb >= referenceDb - dropDb {
                lastOn = frame
                take(line.levelDb, at: frame)
                hzSum += line.hz; frames += 1
                hzOffsets += line.hz - hzFirst; hzOffsetSquares += (line.hz - hzFirst) * (line.hz - hzFirst)
                hzMin = min(hzMin, line.hz); hzMax = max(hzMax, line.hz)
                peakDb = max(peakDb, line.levelDb)
                // Only a line that holds its level (within a flat top's `Sounder.topDb` of the
                // level followed) is followed down: a slide into a notch falls a few dB a
                // second, a few hundredths of a dB a frame; a beep's end falls as the room's
                // tail does, 60 dB in RT60 (1.6 dB a frame at 0.6 s), out of it within two
                // frames, and is measured from where it began to fall.
                if line.levelDb >= referenceDb - Sounder.topDb { referenceDb = max(referenceDb - followDb, line.levelDb) }
                if keepsSteadyPitch && line.levelDb >= referenceDb - Self.steadyPitchDb {
                    steadyHzMin = min(steadyHzMin, line.hz); steadyHzMax = max(steadyHzMax, line.hz)
                }
                contrastDb = max(contrastDb, line.contrastDb)
                return nil
            }
            guard frame - lastOn > bridgeFrames else { return nil }
            on = false
            valleyDb = line?.levelDb
            return current
        }
        guard let line else { valleyDb = nil; return nil }
        if let valley = Self.valley(after: line, from: valleyDb) { valleyDb = valley } else { begin(line, at: frame) }
        return nil
    }

    /// Outside a beep, a frame's line starts one when it stands `AlarmDetector.startDb` over
    /// its neighbourhood and `AlarmDetector.riseDb` over the valley (`valleyDb`, nil when the
    /// line vanished since it last fell): then nil; else the valley with the line taken in.
    /// `AlarmDetector` asks it for the channels it skips (`idleLines`).
    @inline(__always)
    static func valley(after line: ToneLines.Line, from valleyDb: Float?) -> Float? {
        if line.contrastDb >= AlarmDetector.startDb && line.levelDb >= (valleyDb ?? -.infinity) + AlarmDetector.riseDb { return nil }
        return min(valleyDb ?? line.levelDb, line.levelDb)
    }
}
