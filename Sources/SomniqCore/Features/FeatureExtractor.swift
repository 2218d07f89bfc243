import RealModule

/// Turns consecutive 1.0 s windows into `WindowFeatures`.
///
/// Inside each window, 62 short frames (512 samples, Hann, hop 250) are analysed; the
/// 30 frames a window shares with the previous one are reused, so each sample is
/// transformed about twice. All buffers are allocated at init: `process` allocates
/// nothing. History (the background floor, the previous spectrum) is kept across
/// windows, so windows must be given in stream order.
public final class FeatureExtractor {
    public enum ParameterError: Error, Equatable, CustomStringConvertible {
        case transformTooShort(size: Int, needed: Int)
        public var description: String {
            switch self {
            case let .transformTooShort(size, needed):
                "the FFT length (\(size)) must be at least \(needed) for a linear autocorrelation of \(SubFrame.length)-sample frames"
            }
        }
    }

    public private(set) var floor = BackgroundFloor()
    private var recentPeaks = RecentPeaks()
    /// The alarm detector's side, for `process`; a pipeline keeps its own (`AlarmFollower`).
    private lazy var follower = AlarmFollower(bins: bins, binHz: binHz)
    private lazy var analysed = AnalysedWindow(bins: bins)
    private let transform: SpectrumTransform
    let binHz: Float
    /// The spectrum's length: FFT length / 2 + 1.
    public let bins: Int
    private let powerScale: Float
    private let hann: [Float]
    private let pitch: PitchEstimator
    private let tonalBins: Range<Int>
    /// 200 Hz – 6 kHz: what any microphone passes, so a small one's band limits (nothing
    /// below ~120 Hz or above ~7 kHz) do not read as a "peaky" spectrum.
    private let flatnessBins: Range<Int>
    private let bandLayout: BandLayout
    private let melBands: MelBands
    // The buffers are allocated at init, freed at deinit, and read and written through
    // pointers held in constants: a class's array property is checked for exclusive access
    // at run time on each access (`swift_beginAccess`, some 70 instructions), a pointer is not.
    /// The new frames' mel band powers, summed two frames to a row (`MelBands`).
    private let melPower: UnsafeMutableBufferPointer<Float>

    private let frames: UnsafeMutableBufferPointer<SubFrame>
    private let power: UnsafeMutableBufferPointer<Float>
    /// The log spectrum of the last frame analysed, for the first frame of the next window's
    /// flux (the others' is the frame before theirs in `AnalysedWindow`).
    private let previousLogPower: UnsafeMutableBufferPointer<Float>
    private let acf: UnsafeMutableBufferPointer<Float>
    /// The running total of each frame's power spectrum, bin by bin (for the roll-off).
    private let cumulative: UnsafeMutableBufferPointer<Float>
    /// Scratch for the bin pass: each bin's terms of its sums (`BinPass.termCount` of them).
    private let binTerms: UnsafeMutableBufferPointer<Float>
    /// The window's level, summed a slice per frame in the bin pass (`analyse`).
    private var level = BinPass.Level()
    /// Scratch for selections: a band's level in each of a window's frames, the voiced frames'
    /// pitches, the tonal peak's neighbourhood (`TonalPeak.strongest`, 2·12 − 4 bins).
    private let scratch: UnsafeMutableBufferPointer<Float>
    private static let scratchCount = 64
    /// The pitch estimator's normalised autocorrelation, one per lag.
    private let pitchScratch: UnsafeMutableBufferPointer<Float>
    /// The height of each of its peaks.
    private let pitchPeaks: UnsafeMutableBufferPointer<Float>
    /// Each short frame's level, dB: the window's level envelope (`modulation`).
    private let envelope: UnsafeMutableBufferPointer<Float>
    private let modulation = EnvelopeModulation()
    private var flutter: Flutter
    private var nextIndex = 0
    /// Added to every bin's power before its logarithm (flux, flatness): 30 dB below the
    /// floor spread evenly over the bins, so an empty bin cannot dominate a log spectrum
    /// and the log spectrum's shape does not depend on the microphone's gain.
    private var binEpsilon: Float = 1e-12
    /// Levels of the three short frames before the current window (nil after a gap).
    private var prior: SIMD3<Float>?

    public init(transform: SpectrumTransform) throws(ParameterError) {
        let needed = 2 * SubFrame.length
        guard transform.size >= needed else { throw .transformTooShort(size: transform.size, needed: needed) }
        self.transform = transform
        bins = transform.size / 2 + 1
        binHz = Float(StreamClock.sampleRate) / Float(transform.size)
        let n = SubFrame.length
        hann = (0..<n).map { 0.5 - 0.5 * Float.cos(2 * Float.pi * Float($0) / Float(n)) }
        // Parseval: one-sided power of a Hann-windowed frame, scaled to the mean square.
        powerScale = 2 / (Float(transform.size) * hann.reduce(0) { $0 + $1 * $1 })
        // Allocated here, after the check that may throw: an init that throws runs no deinit,
        // and what a property's initial value allocated would never be freed.
        melPower = Self.buffer(of: 0, count: MelBands.perWindow)
        frames = Self.buffer(of: SubFrame(), count: SubFrame.perWindow)
        precondition(SubFrame.perWindow <= Self.scratchCount, "the scratch holds a value for each frame of a window")
        scratch = Self.buffer(of: 0, count: Self.scratchCount)
        envelope = Self.buffer(of: 0, count: SubFrame.perWindow)
        power = Self.buffer(of: 0, count: bins)
        previousLogPower = Self.buffer(of: Decibels.silence, count: bins)
        acf = Self.buffer(of: 0, count: bins)
        cumulative = Self.buffer(of: 0, count: bins)
        binTerms = Self.buffer(of: 0, count: BinPass.termCount * bins)
        pitchScratch = Self.buffer(of: 0, count: bins)
        pitchPeaks = Self.buffer(of: 0, count: bins)
        flutter = Flutter(transformSize: transform.size)

        // Autocorrelation of the window itself, to undo its taper (Boersma 1993).
        var windowACF = [Float](repeating: 0, count: bins)
        var windowPower = [Float](repeating: 0, count: bins)
        let taper = hann
        taper.withUnsafeBufferPointer { h in
            windowPower.withUnsafeMutableBufferPointer { transform.powerSpectrum(of: h, into: $0) }
        }
        windowPower.withUnsafeBufferPointer { p in
            windowACF.withUnsafeMutableBufferPointer { transform.autocorrelation(fromPower: p, into: $0) }
        }
        let w0 = windowACF[0]
        pitch = PitchEstimator(windowACF: windowACF.map { $0 / w0 })

        let low = Int((300 / binHz).rounded(.up)), high = min(bins - 2, Int(7500 / binHz))
        tonalBins = low..<high
        flatnessBins = Int((200 / binHz).rounded(.up))..<min(bins, Int(6000 / binHz) + 1)
        bandLayout = BandLayout(bins: bins, binHz: binHz)
        melBands = MelBands(bins: bins, binHz: binHz)
    }

    deinit {
        melPower.deallocate()
        frames.deallocate()
        scratch.deallocate()
        envelope.deallocate()
        power.deallocate()
        previousLogPower.deallocate()
        acf.deallocate()
        cumulative.deallocate()
        binTerms.deallocate()
        pitchScratch.deallocate()
        pitchPeaks.deallocate()
    }

    private static func buffer<T>(of value: T, count: Int) -> UnsafeMutableBufferPointer<T> {
        let b = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
        b.initialize(repeating: value)
        return b
    }

    /// Analyses the next window. Windows must arrive in order (index 0, 1, 2, …);
    /// after a gap the short-frame history is rebuilt from the window alone.
    public func process(_ window: AudioWindow) -> WindowFeatures {
        analyse(window, into: analysed)
        var f = analysed.features
        f.alarm = follower.follow(analysed)
        f.lowBattery = follower.lowBattery
        return f
    }

    /// Analyses the next window up to the alarm detector: its features but their `alarm`,
    /// and each new frame's log spectrum for the detector to follow (`AlarmFollower`), into
    /// `out`. Windows must arrive in order, as for `process`.
    public func analyse(_ window: AudioWindow, into out: AnalysedWindow) {
        analyse(window, spectra: nil, into: out)
    }

    /// Each frame's power spectrum (|X|², unscaled, `bins` a frame) from frame `first` of
    /// `window` on, frame `i`'s at `spectra + i * bins`, by `transform` (the same length as
    /// this extractor's, and another thread's own): what `analyse` transforms first. It reads
    /// no state, so another thread may make it for a window ahead while this extractor
    /// analyses the windows before it (a replay's reader: `ReadAhead`).
    public func spectra(of window: AudioWindow, from first: Int, transform: SpectrumTransform,
                        into spectra: UnsafeMutablePointer<Float>) {
        precondition(transform.size == self.transform.size, "spectra of the extractor's length")
        for i in first..<SubFrame.perWindow {
            let frame = UnsafeBufferPointer(rebasing: window.samples[i * SubFrame.hop..<i * SubFrame.hop + SubFrame.length])
            spectrum(of: frame, by: transform, into: UnsafeMutableBufferPointer(start: spectra + i * bins, count: bins))
        }
    }

    /// A frame's power spectrum: the window, which vectorises, written straight into the
    /// transform's input. It must read nothing of the extractor but its constants (`hann`,
    /// `bins`): `ReadAhead`'s reader calls it, through `spectra`, while another thread
    /// analyses with the same extractor.
    private func spectrum(of frame: UnsafeBufferPointer<Float>, by transform: SpectrumTransform,
                          into p: UnsafeMutableBufferPointer<Float>) {
        let n = frame.count
        hann.withUnsafeBufferPointer { h in
            transform.powerSpectrum(count: n, fill: { buf in for j in 0..<n { buf[j] = frame[j] * h[j] } }, into: p)
        }
    }

    /// `analyse`, with the frames' power spectra from frame `spectra.first` on made ahead
    /// (`spectra(of:from:transform:into:)`, at `spectra.at`), used where this window's new
    /// frames begin at or after it; they are scaled in place.
    public func analyse(_ window: AudioWindow, spectra: (first: Int, at: UnsafeMutablePointer<Float>)?,
                        into out: AnalysedWindow) {
        precondition(window.samples.count == StreamClock.windowLength, "a window holds \(StreamClock.windowLength) samples")
        let firstNew: Int
        precondition(out.bins == bins, "a window analysed into \(out.bins) bins, not \(bins)")
        let step = SubFrame.perWindow - SubFrame.shared
        if window.index == nextIndex, nextIndex > 0 {
            // The three frames just before this window, so an attack at its very start is seen.
            prior = SIMD3(frames[step - 3].energyDb, frames[step - 2].energyDb, frames[step - 1].energyDb)
            for i in 0..<SubFrame.shared { frames[i] = frames[i + step] }
            firstNew = SubFrame.shared
        } else {
            prior = nil
            firstNew = 0
        }
        nextIndex = window.index + 1
        let floorDb = floor.initialised ? floor.totalDb : Decibels.silence
        binEpsilon = Decibels.toPower(floorDb - 30) / Float(bins)
        // The window's level is summed a slice per frame, inside each frame's bin pass.
        var level = BinPass.Level()
        let analysed = SubFrame.perWindow - firstNew
        let slice = (window.samples.count + analysed - 1) / analysed
        // Each frame's log spectrum is written where the alarm detector reads it, and the
        // flux compares it with the frame's before there (the last window's last frame for
        // the first): one copy a window, of the last frame's, where each frame was copied.
        let made = spectra.flatMap { $0.first <= firstNew ? $0.at : nil }
        let carried = UnsafeBufferPointer(previousLogPower)
        for i in firstNew..<SubFrame.perWindow {
            let from = min((i - firstNew) * slice, window.samples.count)
            let to = min(from + slice, window.samples.count)
            analyse(frame: window.samples, at: i * SubFrame.hop, into: i, floorDb: floorDb,
                    windowSlice: UnsafeBufferPointer(rebasing: window.samples[from..<to]), level: &level,
                    log: out.log(i), previousLog: i > firstNew ? UnsafeBufferPointer(out.log(i - 1)) : carried,
                    spectrum: made.map { UnsafeMutableBufferPointer(start: $0 + i * bins, count: bins) })
        }
        let last = out.log(SubFrame.perWindow - 1)
        previousLogPower.baseAddress!.update(from: last.baseAddress!, count: bins)
        self.level = level
        let candidate = lowPercentileBands()
        if !floor.initialised { floor.update(candidateDb: candidate) }
        var f = aggregate(window)
        for i in 0..<MelBands.perWindow { f.mel[i] = Decibels.power(melPower[i] / 2) }
        f.index = window.index
        f.startSeconds = window.startSeconds
        f.recentPeakDbfs = recentPeaks.lowerQuartile()
        recentPeaks.add(f.peakDbfs)
        floor.update(candidateDb: candidate)
        out.features = f
        out.first = firstNew
    }

    // MARK: - Short frames

    private func analyse(frame samples: UnsafeBufferPointer<Float>, at start: Int, into slot: Int, floorDb: Float,
                         windowSlice: UnsafeBufferPointer<Float>, level: inout BinPass.Level, log lp: UnsafeMutableBufferPointer<Float>,
                         previousLog before: UnsafeBufferPointer<Float>, spectrum: UnsafeMutableBufferPointer<Float>?) {
        analyse(frame: samples, at: start, into: slot, floorDb: floorDb, windowSlice: windowSlice, level: &level, log: lp,
                previousLog: before, power: spectrum ?? power, made: spectrum != nil)
    }

    /// A frame's analysis into `power`: its power spectrum, made ahead (`made`) or made here.
    private func analyse(frame samples: UnsafeBufferPointer<Float>, at start: Int, into slot: Int, floorDb: Float,
                         windowSlice: UnsafeBufferPointer<Float>, level: inout BinPass.Level, log lp: UnsafeMutableBufferPointer<Float>,
                         previousLog before: UnsafeBufferPointer<Float>, power p: UnsafeMutableBufferPointer<Float>,
                         made: Bool) {
        var f = SubFrame()
        let n = SubFrame.length
        // The crossings; the window is applied as the frame is written into the transform's
        // input, and the energy is summed in the bin pass.
        let frame = UnsafeBufferPointer(rebasing: samples[start..<start + n])
        // A crossing is a change of side of 0 (x >= 0 or not, as before) between neighbours,
        // counted as a sum of 0s and 1s with no branch.
        var below = UInt32(frame[0] >= 0 ? 0 : 1), changes: UInt32 = 0
        for j in 1..<n {
            let now = UInt32(frame[j] >= 0 ? 0 : 1)
            changes &+= now ^ below
            below = now
        }
        f.zcr = Float(changes) / Float(n - 1)

        if !made { spectrum(of: frame, by: transform, into: p) }
        let sums = BinPass.run(power: p, log: lp, previousLog: before, cumulative: cumulative, terms: binTerms,
                               scale: powerScale, epsilon: binEpsilon, layout: bandLayout,
                               flatness: flatnessBins, tonal: tonalBins, frame: frame, windowSlice: windowSlice,
                               level: &level)
        f.energyDb = Decibels.power(sums.frameSquares / Float(n))
        // The frames this window does not share with the one before, two to a row of mel bands.
        if slot >= SubFrame.shared {
            let row = (slot - SubFrame.shared) / 2 * MelBands.count
            let out = UnsafeMutableBufferPointer(rebasing: melPower[row..<row + MelBands.count])
            if (slot - SubFrame.shared) % 2 == 0 { out.update(repeating: 0) }
            melBands.add(UnsafeBufferPointer(p), to: out)
        }
        f.bands = sums.bands
        f.centroidHz = sums.total > 1e-12 ? sums.weighted / sums.total * binHz : 0
        f.rolloffHz = BinPass.rolloff(cumulative: UnsafeBufferPointer(cumulative), total: sums.total, binHz: binHz)
        f.flatness = flatness(logSum: sums.logSum, sum: sums.flatSum, count: flatnessBins.count)
        f.flux = sums.flux / Float(bins - 1)
        let spectrum = UnsafeBufferPointer(p)
        let peak = TonalPeak.strongest(spectrum, peak: sums.peak, peakPower: sums.peakPower, binHz: binHz, scratch: scratch)
        f.tonalHz = peak.hz
        f.tonalProminenceDb = peak.prominenceDb
        // Pitch only where there is something to hear: the autocorrelation costs an
        // inverse transform, and background frames have no pitch worth reporting.
        if f.energyDb > floorDb + 3 {
            transform.autocorrelation(fromPower: spectrum, into: acf)
            (f.f0Hz, f.harmonicity) = pitch.estimate(UnsafeBufferPointer(acf), scratch: pitchScratch, peaks: pitchPeaks)
        }
        frames[slot] = f
    }

    /// Geometric over arithmetic mean of the flatness bins' power, from the sum of their log
    /// (dB) and of their power.
    private func flatness(logSum: Float, sum: Float, count bins: Int) -> Float {
        let count = Float(bins)
        guard sum > 2 * binEpsilon * count else { return 0 }     // nothing but the epsilon: silence
        let geometric = Decibels.toPower(logSum / count)
        return min(1, geometric / (sum / count))
    }

    // MARK: - Window

    /// 20th percentile of each band's frame powers, in dB: the window's floor candidate.
    private func lowPercentileBands() -> BandVector {
        var out = BandVector()
        let m = SubFrame.perWindow
        for b in 0..<Bands.count {
            for i in 0..<m { scratch[i] = frames[i].bands[b] }
            out[b] = Decibels.power(TonalPeak.select(scratch, count: m, k: m / 5))
        }
        return out
    }

    private func aggregate(_ window: AudioWindow) -> WindowFeatures {
        var f = WindowFeatures()
        let m = SubFrame.perWindow
        f.levelDbfs = Decibels.power(level.squares / Float(window.samples.count))
        f.clippedSamples = level.clipped
        f.floorDbfs = floor.totalDb
        let activeThreshold = f.floorDbfs + 6
        var floorPower = BandVector()
        for b in 0..<Bands.count { floorPower[b] = Decibels.toPower(floor.bandsDb[b]) }

        var active = 0, run = 0, longest = 0, bursts = 0
        var bandSum = BandVector(), excessSum = BandVector(), allBandSum = BandVector()
        var centroid: Float = 0, rolloff: Float = 0, flat: Float = 0, flux: Float = 0, zcr: Float = 0, harm: Float = 0
        var voiced = 0, tonal = 0
        var peak = Decibels.silence, onset: Float = 0, onsetFrame = 0
        for i in 0..<m {
            let fr = frames[i]
            envelope[i] = fr.energyDb
            peak = max(peak, fr.energyDb)
            allBandSum += fr.bands
            if i >= 3 || prior != nil {
                var before: Float = 0
                for k in 1...3 { before += i - k >= 0 ? frames[i - k].energyDb : prior![3 + i - k] }
                let rise = fr.energyDb - max(before / 3, f.floorDbfs)
                if rise > onset { onset = rise; onsetFrame = i }
            }
            guard fr.energyDb > activeThreshold else { run = 0; continue }
            active += 1
            run += 1
            if run == 1 { bursts += 1 }
            longest = max(longest, run)
            bandSum += fr.bands
            excessSum += (fr.bands - floorPower).replacing(with: 0, where: fr.bands .< floorPower)
            centroid += fr.centroidHz; rolloff += fr.rolloffHz; flat += fr.flatness
            flux += fr.flux; zcr += fr.zcr; harm += fr.harmonicity
            if fr.harmonicity >= 0.5 { scratch[voiced] = fr.f0Hz; voiced += 1 }
        }
        f.peakDbfs = peak
        // The longest stretch held within 10 dB of the window's loudest frame: how long a
        // sound keeps its full strength, whatever its level above the floor.
        // And how many times it comes back to that strength: each "ha" of a laugh does,
        // however little the sound dips between them.
        var held = 0, longestHeld = 0, loudBursts = 0
        for i in 0..<m {
            guard frames[i].energyDb > activeThreshold && frames[i].energyDb >= peak - 10 else { held = 0; continue }
            held += 1
            if held == 1 { loudBursts += 1 }
            longestHeld = max(longestHeld, held)
        }
        f.loudRunSeconds = Float(longestHeld) / SubFrame.rate
        f.loudBursts = loudBursts
        f.onsetDb = onset
        f.onsetSeconds = Float(onsetFrame * SubFrame.hop) / Float(StreamClock.sampleRate)
        var top = Decibels.silence
        for i in onsetFrame..<m { top = max(top, envelope[i]) }
        var reach = onsetFrame
        while reach < m - 1 && envelope[reach] < top - 3 { reach += 1 }
        f.attackSeconds = Float((reach - onsetFrame) * SubFrame.hop) / Float(StreamClock.sampleRate)
        f.activeFraction = Float(active) / Float(m)
        f.longestRunSeconds = Float(longest) / SubFrame.rate
        f.bursts = bursts
        let meanBands = active > 0 ? bandSum / Float(active) : allBandSum / Float(m)
        for b in 0..<Bands.count { f.excessDb[b] = max(0, Decibels.power(meanBands[b]) - floor.bandsDb[b]) }
        let excessTotal = excessSum.sum()
        if excessTotal > 0 { f.excessShare = excessSum / excessTotal }
        if active > 0 {
            let n = Float(active)
            f.centroidHz = centroid / n; f.rolloffHz = rolloff / n; f.flatness = flat / n
            f.flux = flux / n; f.zcr = zcr / n; f.harmonicity = harm / n
            f.voicedFraction = Float(voiced) / n
        }
        if voiced > 0 {
            f.f0Hz = TonalPeak.select(scratch, count: voiced, k: voiced / 2)
            let q1 = TonalPeak.select(scratch, count: voiced, k: voiced / 4)
            let q3 = TonalPeak.select(scratch, count: voiced, k: (3 * voiced) / 4)
            f.f0SpreadHz = q3 - q1
        }
        // How far the pitch moves from one voiced frame to the next (`WindowFeatures.f0Wobble`).
        var pairs = 0
        for i in 1..<m where frames[i].energyDb > activeThreshold && frames[i - 1].energyDb > activeThreshold
            && frames[i].harmonicity >= 0.5 && frames[i - 1].harmonicity >= 0.5 && frames[i - 1].f0Hz > 0 {
            let ratio = frames[i].f0Hz / frames[i - 1].f0Hz
            guard ratio > 0.8 && ratio < 1.25 else { continue }
            scratch[pairs] = abs(ratio - 1)
            pairs += 1
        }
        f.f0Wobble = pairs >= WindowFeatures.fewestWobblePairs
            ? TonalPeak.select(scratch, count: pairs, k: pairs / 2) : -1
        // Tonal lines: frames whose strongest peak stands ≥ 15 dB out, and stand above the floor.
        for i in 0..<m where frames[i].energyDb > activeThreshold && frames[i].tonalProminenceDb >= 15 {
            scratch[tonal] = frames[i].tonalHz
            tonal += 1
        }
        if active > 0 { f.tonalFraction = Float(tonal) / Float(active) }
        if tonal > 0 {
            let median = TonalPeak.select(scratch, count: tonal, k: tonal / 2)
            f.tonalHz = median
            var near = 0, rest = 0
            for i in 0..<m where frames[i].energyDb > activeThreshold && frames[i].tonalProminenceDb >= 15 {
                if abs(frames[i].tonalHz - median) <= 0.03 * median { near += 1 } else { scratch[rest] = frames[i].tonalHz; rest += 1 }
            }
            f.tonalStability = Float(near) / Float(tonal)
            // A second line: the median of the lines away from the first, and those near it.
            var nearSecond = 0
            if rest > 0 {
                let second = TonalPeak.select(scratch, count: rest, k: rest / 2)
                for k in 0..<rest where abs(scratch[k] - second) <= 0.03 * second { nearSecond += 1 }
            }
            f.twoToneStability = Float(near + nearSecond) / Float(tonal)
            // The line's own on-runs, whatever the broadband level: the beeps of an alarm.
            var run = 0, runs = 0, longestTone = 0
            for i in 0..<m {
                guard frames[i].tonalProminenceDb >= 15, abs(frames[i].tonalHz - median) <= 0.03 * median else { run = 0; continue }
                run += 1
                if run == 1 { runs += 1 }
                longestTone = max(longestTone, run)
            }
            f.toneRuns = runs
            f.longestToneSeconds = Float(longestTone) / SubFrame.rate
        }
        f.modulation = modulation.measure(UnsafeBufferPointer(envelope))
        f.flutter = flutter.measure(window.samples, transform: transform)
        return f
    }
}
