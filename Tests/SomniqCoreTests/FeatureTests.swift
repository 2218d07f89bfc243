import Foundation
import Testing
@testable import SomniqCore

private let binHz: Float = 16_000 / 1024

private func power(of frame: [Float], fft: ReferenceFFT) -> [Float] {
    let hann = (0..<frame.count).map { 0.5 - 0.5 * cos(2 * Float.pi * Float($0) / Float(frame.count)) }
    let windowed = zip(frame, hann).map { $0 * $1 }
    var p = [Float](repeating: 0, count: fft.size / 2 + 1)
    windowed.withUnsafeBufferPointer { w in p.withUnsafeMutableBufferPointer { fft.powerSpectrum(of: w, into: $0) } }
    return p
}

private func tone(_ hz: Float, count: Int = 512, amplitude: Float = 0.5) -> [Float] {
    (0..<count).map { amplitude * sin(2 * Float.pi * hz * Float($0) / 16_000) }
}

/// The extractor's one pass over a frame's bins gives, bit for bit, what each feature's own
/// definition gives, summed on its own: the bands, centroid and roll-off (`SpectralShape`),
/// the flux, the frame's energy, the window's level and the tonal peak (`TonalPeak`). On a
/// tone, noise, silence and a clipped tone.
@Test func theBinPassIsTheSeparateDefinitionsBitForBit() {
    let fft = ReferenceFFT(size: 1024)
    var state: UInt32 = 12345
    let noise = (0..<512).map { _ -> Float in
        state = state &* 1_664_525 &+ 1_013_904_223
        return Float(state >> 8) / Float(1 << 24) - 0.5
    }
    let layout = BandLayout(bins: 513, binHz: binHz)
    let before = (0..<513).map { Float($0 % 7) - 60 }        // a log spectrum for the flux to rise from
    let clippedTone = tone(1000, amplitude: 1.5).map { min(max($0, -1), 1) }    // samples at full scale
    for frame in [tone(1000), noise, [Float](repeating: 0, count: 512), clippedTone] {
        var p = power(of: frame, fft: fft)
        let reference = p
        var log = p, cumulative = p
        var terms = [Float](repeating: 0, count: BinPass.termCount * 513)
        var level = BinPass.Level(squares: 2, clipped: 1)    // carried over from earlier slices
        let slice = Array(frame[0..<500])
        let sums = p.withUnsafeMutableBufferPointer { pp in
            log.withUnsafeMutableBufferPointer { l in
                before.withUnsafeBufferPointer { b in
                    cumulative.withUnsafeMutableBufferPointer { c in
                        terms.withUnsafeMutableBufferPointer { r in
                            frame.withUnsafeBufferPointer { f in
                                slice.withUnsafeBufferPointer { w in
                                    BinPass.run(power: pp, log: l, previousLog: b, cumulative: c, terms: r, scale: 1,
                                                epsilon: 1e-9, layout: layout, flatness: 13..<385, tonal: 20..<480, frame: f,
                                                windowSlice: w, level: &level)
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(p == reference, "a scale of 1 leaves the power as it was")
        reference.withUnsafeBufferPointer { pp in
            #expect(sums.bands == SpectralShape.bands(pp, layout: layout))
            let centroid = sums.total > 1e-12 ? sums.weighted / sums.total * binHz : 0
            #expect(centroid.bitPattern == SpectralShape.centroid(pp, binHz: binHz).bitPattern)
            let rolloff = cumulative.withUnsafeBufferPointer { BinPass.rolloff(cumulative: $0, total: sums.total, binHz: binHz) }
            #expect(rolloff.bitPattern == SpectralShape.rolloff(pp, binHz: binHz).bitPattern)
        }
        var flux: Float = 0, squares: Float = 0, windowSquares: Float = 2, clipped = 1
        for k in 1..<513 { flux += max(Decibels.fastPower(reference[k] + 1e-9) - before[k], 0) }
        for x in frame { squares += x * x }
        for x in slice { windowSquares += x * x; clipped += abs(x) >= 0.999 ? 1 : 0 }
        #expect(sums.flux.bitPattern == flux.bitPattern)
        #expect(sums.frameSquares.bitPattern == squares.bitPattern)
        #expect(level.squares.bitPattern == windowSquares.bitPattern && level.clipped == clipped)
        var peak = 20, peakPower: Float = -1
        for k in 20..<480 where reference[k] > peakPower { peakPower = reference[k]; peak = k }
        #expect(sums.peak == peak && sums.peakPower.bitPattern == peakPower.bitPattern)
        var scratch = [Float](repeating: 0, count: 64)
        let (separate, folded) = reference.withUnsafeBufferPointer { pp in
            scratch.withUnsafeMutableBufferPointer { s in
                (TonalPeak.strongest(pp, bins: 20..<480, binHz: binHz, scratch: s),
                 TonalPeak.strongest(pp, peak: sums.peak, peakPower: sums.peakPower, binHz: binHz, scratch: s))
            }
        }
        #expect(separate.hz.bitPattern == folded.hz.bitPattern && separate.prominenceDb.bitPattern == folded.prominenceDb.bitPattern)
    }
    // Bins 1 … 512 each in exactly one band, in order.
    #expect(layout.bins.first?.lowerBound == 1 && layout.bins.last?.upperBound == 513)
    #expect(zip(layout.bins, layout.bins.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
}

/// The bin pass's tonal peak, found four lanes at a time, is the scalar search's: the first
/// bin of the range with its greatest power, and that power, where the greatest is tied,
/// where it is zero of either sign, beside a NaN (which the scalar search never takes), at
/// either end of ranges of every length and start, and (start, −1) for an empty range or
/// one of NaNs.
@Test func theTonalPeakIsTheScalarSearchs() {
    let spectra: [[Float]] = [
        [0.5, 2, 1, 2, 0, 2, 1, 0.25, 2, 3, 3, 1, 0],
        [-0.0, 0, 0, -0.0, 0, 0, 0, 0, -0.0, 0, 0],
        [.nan, 1, .nan, 4, 4, .nan, 0, 4, .nan, 1, 2],
        [.nan, .nan, .nan, .nan, .nan, .nan],
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
        [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
    ]
    for power in spectra {
        for low in 0...power.count {
            for high in low...power.count {
                var peak = low, peakPower: Float = -1
                for k in low..<high where power[k] > peakPower { peakPower = power[k]; peak = k }
                let found = power.withUnsafeBufferPointer { BinPass.strongest($0, in: low..<high) }
                #expect(found.peak == peak && found.power.bitPattern == peakPower.bitPattern, "\(power) \(low)..<\(high)")
            }
        }
    }
}

@Test(arguments: [440 as Float, 1000, 3100])
func toneHasItsTonalPeakAndCentroidAtItsFrequency(hz: Float) {
    let fft = ReferenceFFT(size: 1024)
    let p = power(of: tone(hz), fft: fft)
    var scratch = [Float](repeating: 0, count: 64)
    let peak = p.withUnsafeBufferPointer { pp in
        scratch.withUnsafeMutableBufferPointer { TonalPeak.strongest(pp, bins: 19..<480, binHz: binHz, scratch: $0) }
    }
    #expect(abs(peak.hz - hz) < binHz / 2)
    #expect(peak.prominenceDb > 40)
    let centroid = p.withUnsafeBufferPointer { SpectralShape.centroid($0, binHz: binHz) }
    #expect(abs(centroid - hz) < 0.03 * hz)
}

@Test func whiteNoiseIsFlatAndAToneIsNot() {
    let fft = ReferenceFFT(size: 1024)
    var generator = SplitMix(seed: 42)
    // A single periodogram of white noise has flatness e^−γ ≈ 0.56 (its bins are
    // exponentially distributed); averaged over many frames it approaches 1.
    var mean = [Float](repeating: 0, count: 513)
    for _ in 0..<200 {
        let frame = (0..<512).map { _ in generator.uniform() * 2 - 1 }
        for (k, v) in power(of: frame, fft: fft).enumerated() { mean[k] += v / 200 }
    }
    let noise = mean.withUnsafeBufferPointer { SpectralShape.flatness($0, range: 4..<509) }
    #expect(noise > 0.9)
    let t = power(of: tone(1000), fft: fft).withUnsafeBufferPointer { SpectralShape.flatness($0, range: 4..<509) }
    #expect(t < 0.01)
}

@Test func pitchOfAHarmonicToneIsItsFundamental() throws {
    let fft = ReferenceFFT(size: 1024)
    let extractorWindow = (0..<512).map { 0.5 - 0.5 * cos(2 * Float.pi * Float($0) / 512) }
    var wp = [Float](repeating: 0, count: 513), wacf = [Float](repeating: 0, count: 513)
    extractorWindow.withUnsafeBufferPointer { w in wp.withUnsafeMutableBufferPointer { fft.powerSpectrum(of: w, into: $0) } }
    wp.withUnsafeBufferPointer { p in wacf.withUnsafeMutableBufferPointer { fft.autocorrelation(fromPower: p, into: $0) } }
    let estimator = PitchEstimator(windowACF: wacf.map { $0 / wacf[0] })
    for f0 in [110 as Float, 220, 450] {
        let signal = (0..<512).map { i in (1...5).reduce(Float(0)) { $0 + sin(2 * Float.pi * f0 * Float($1) * Float(i) / 16_000) / Float($1) } }
        let p = power(of: signal, fft: fft)
        var acf = [Float](repeating: 0, count: 513)
        p.withUnsafeBufferPointer { pp in acf.withUnsafeMutableBufferPointer { fft.autocorrelation(fromPower: pp, into: $0) } }
        var scratch = [Float](repeating: 0, count: acf.count), peaks = scratch
        let (hz, harmonicity) = acf.withUnsafeBufferPointer { a in
            scratch.withUnsafeMutableBufferPointer { s in peaks.withUnsafeMutableBufferPointer { estimator.estimate(a, scratch: s, peaks: $0) } }
        }
        #expect(abs(hz - f0) < 0.02 * f0, "f0 \(f0): got \(hz)")
        #expect(harmonicity > 0.8)
    }
}

/// The pitch search as it was written lag by lag, before it ran eight lags at a time.
private func pitchLagByLag(_ acf: [Float], windowACF w: [Float]) -> (Float, Float) {
    let r0 = acf[0]
    guard r0 > .leastNormalMagnitude else { return (0, 0) }
    let minLag = max(2, Int(16_000 / Float(1000))), maxLag = min(acf.count - 2, w.count - 2, Int(16_000 / Float(70)))
    var r = [Float](repeating: 0, count: acf.count), peaks = r
    for lag in (minLag - 1)...(maxLag + 1) { r[lag] = w[lag] > 1e-6 ? acf[lag] / (r0 * w[lag]) : 0 }
    var best: Float = 0
    for lag in minLag...maxLag {
        let current = r[lag]
        let height = current > r[lag - 1] && current >= r[lag + 1] && current > 0 ? current : 0
        peaks[lag] = height
        best = height > best ? height : best
    }
    guard best > 0 else { return (0, 0) }
    guard let bestLag = (minLag...maxLag).first(where: { peaks[$0] > 0 && peaks[$0] >= 0.95 * best }) else { return (0, 0) }
    let a = r[bestLag - 1], b = r[bestLag], c = r[bestLag + 1]
    let denom = a - 2 * b + c
    let shift = abs(denom) > 1e-9 ? 0.5 * (a - c) / denom : 0
    return (16_000 / (Float(bestLag) + max(-0.5, min(0.5, shift))), min(1, b))
}

@Test func pitchSearchGivesTheBitsOfTheLagByLagSearch() {
    // Random autocorrelations over a window's, some lags of which are at or below the 1e-6
    // the search divides by: the same f0 and harmonicity to the bit, peaks in every lane.
    var generator = SplitMix(seed: 7)
    for trial in 0..<300 {
        let count = 513 - trial % 9
        let w = (0..<count).map { k in k % (5 + trial % 7) == 0 ? Float(k % 3) * 4e-7 : generator.uniform() }
        let acf = (0..<count).map { k in k == 0 ? 1 + generator.uniform() : generator.uniform() * 2 - 0.5 }
        let estimator = PitchEstimator(windowACF: w)
        var scratch = [Float](repeating: 0, count: count), peaks = scratch
        let (hz, harmonicity) = acf.withUnsafeBufferPointer { a in
            scratch.withUnsafeMutableBufferPointer { s in peaks.withUnsafeMutableBufferPointer { estimator.estimate(a, scratch: s, peaks: $0) } }
        }
        let (expectedHz, expectedHarmonicity) = pitchLagByLag(acf, windowACF: w)
        #expect(hz.bitPattern == expectedHz.bitPattern && harmonicity.bitPattern == expectedHarmonicity.bitPattern, "trial \(trial)")
    }
}

@Test func silenceGivesFiniteFeatures() throws {
    let extractor = try FeatureExtractor(transform: ReferenceFFT(size: 1024))
    let zeros = [Float](repeating: 0, count: 16_000)
    for index in 0..<3 {
        let f = zeros.withUnsafeBufferPointer { extractor.process(AudioWindow(index: index, startFrame: Int64(index) * 8000, samples: $0)) }
        let values: [Float] = [f.levelDbfs, f.peakDbfs, f.floorDbfs, f.centroidHz, f.rolloffHz, f.flatness, f.flux,
                               f.zcr, f.harmonicity, f.onsetDb, f.f0Hz, f.tonalHz, f.modulation, f.activeFraction]
            + (0..<8).flatMap { [f.excessDb[$0], f.excessShare[$0]] }
        #expect(values.allSatisfy { $0.isFinite })
        #expect(f.levelDbfs == Decibels.silence && f.activeFraction == 0)
    }
}

@Test func featureExtractorRejectsAShortTransform() {
    #expect(throws: FeatureExtractor.ParameterError.transformTooShort(size: 512, needed: 1024)) {
        try FeatureExtractor(transform: ReferenceFFT(size: 512))
    }
}

@Test func floorFollowsAQuietBackgroundNotTheEvents() throws {
    // 20 s of noise at −50 dBFS with a loud 0.3 s burst every 2 s: the floor stays near −50.
    let extractor = try FeatureExtractor(transform: ReferenceFFT(size: 1024))
    var g = SplitMix(seed: 7)
    let amplitude: Float = pow(10, -50 / 20) * sqrt(3)
    var samples = (0..<320_000).map { _ in (g.uniform() * 2 - 1) * amplitude }
    for start in stride(from: 16_000, to: 320_000, by: 32_000) {
        for i in start..<(start + 4_800) { samples[i] += 0.3 * sin(Float(i) * 0.3) }
    }
    var floors: [Float] = []
    var windower = try Windower()
    samples.withUnsafeBufferPointer { buffer in windower.push(buffer) { floors.append(extractor.process($0).floorDbfs) } }
    #expect(abs(floors.last! - (-50)) < 3)
}

@Test func aQuieterMicrophoneChangesOnlyTheLevels() throws {
    // A voiced sound (a 180 Hz harmonic tone, gliding) over a noise floor, and the same
    // 40 dB down, as a quiet microphone or a far bed gives it: every feature but the dBFS
    // levels must come out the same. An absolute bar anywhere (a pitch that needs −75 dBFS,
    // an epsilon in the log spectrum) would show here as lost voicing or a flatter spectrum.
    func features(gainDb: Float) throws -> [WindowFeatures] {
        let extractor = try FeatureExtractor(transform: ReferenceFFT(size: 1024))
        var g = SplitMix(seed: 3)
        let gain = pow(10, gainDb / 20)
        var samples = (0..<96_000).map { _ in (g.uniform() * 2 - 1) * 0.003 }
        var phase: Float = 0
        for i in 32_000..<48_000 {
            phase += 2 * Float.pi * (180 + 40 * Float(i - 32_000) / 16_000) / 16_000
            samples[i] += (1...6).reduce(Float(0)) { $0 + 0.05 * sin(Float($1) * phase) / Float($1) }
        }
        var out: [WindowFeatures] = []
        var windower = try Windower()
        samples.map { $0 * gain }.withUnsafeBufferPointer { b in windower.push(b) { out.append(extractor.process($0)) } }
        return out
    }
    let loud = try features(gainDb: 0), quiet = try features(gainDb: -40)
    #expect(loud.count == quiet.count)
    #expect(loud.contains { $0.voicedFraction > 0.8 })
    for (a, b) in zip(loud, quiet) {
        #expect(abs(a.harmonicity - b.harmonicity) < 0.01 && abs(a.voicedFraction - b.voicedFraction) < 0.01, "window \(a.index)")
        #expect(abs(a.flatness - b.flatness) < 0.01 && abs(a.flux - b.flux) < 0.05, "window \(a.index)")
        #expect(abs(a.peakSnrDb - b.peakSnrDb) < 0.1 && abs(a.f0Hz - b.f0Hz) < 1, "window \(a.index)")
    }
}

/// A small deterministic generator for test signals.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform() -> Float { Float(next() >> 40) / Float(1 << 24) }
}

@Test func noiseChoppedAtASnoresFlutterRateFluttersAndSteadyNoiseDoesNot() throws {
    let extractor = try FeatureExtractor(transform: ReferenceFFT(size: 1024))
    var generator = SplitMix(seed: 7)
    // White noise high-passed (a first difference, as a microphone without bass hears it),
    // gated on and off at 50 Hz (a soft palate fluttering), against the same noise steady.
    func window(_ index: Int, chopped: Bool) -> WindowFeatures {
        var previous: Float = 0
        let samples: [Float] = (0..<16_000).map { n in
            let white = generator.uniform() * 2 - 1
            defer { previous = white }
            let gate: Float = chopped && (n % 320) >= 160 ? 0 : 1
            return 0.3 * (white - previous) * gate
        }
        return samples.withUnsafeBufferPointer {
            extractor.process(AudioWindow(index: index, startFrame: Int64(index) * 8000, samples: $0))
        }
    }
    #expect(window(0, chopped: true).flutter > 0.5)
    #expect(window(1, chopped: false).flutter < 0.2)
}

/// 10 s of a quiet room (noise at −60 dBFS, so the floor is known), then a second each of two
/// sounds over it, `wave` of a phase that runs at `first`'s and then `second`'s frequency (Hz,
/// by sample); the features of the windows at 10 s and at 11 s.
private func twoSecondsAfterAQuietRoom(seed: UInt64, wave: (Float) -> Float, _ first: (Int) -> Float,
                                       _ second: (Int) -> Float) throws -> (WindowFeatures, WindowFeatures) {
    let extractor = try FeatureExtractor(transform: ReferenceFFT(size: 1024))
    var g = SplitMix(seed: seed)
    let room: Float = pow(10, -60 / 20) * sqrt(3)
    func sound(_ frequency: (Int) -> Float) -> [Float] {
        var phase: Float = 0
        return (0..<16_000).map { n in
            phase += 2 * Float.pi * frequency(n) / 16_000
            return wave(phase) + (g.uniform() * 2 - 1) * room
        }
    }
    let quiet = (0..<160_000).map { _ in (g.uniform() * 2 - 1) * room }
    let samples = quiet + sound(first) + sound(second)
    var windows: [WindowFeatures] = []
    var windower = try Windower()
    samples.withUnsafeBufferPointer { buffer in windower.push(buffer) { windows.append(extractor.process($0)) } }
    return (windows.first { $0.startSeconds == 10 }!, windows.first { $0.startSeconds == 11 }!)
}

@Test func aTrillRingerSitsOnTwoTonesAndAGlidingVoiceDoesNot() throws {
    // After a quiet room: an electronic trill, 875 and 1075 Hz alternating every 40 ms
    // (12.5 Hz) with continuous phase; then a tone gliding from 400 to 700 Hz, as a cry's
    // pitch does.
    let (trill, glide) = try twoSecondsAfterAQuietRoom(seed: 11, wave: { 0.3 * sin($0) },
                                                       { ($0 / 640) % 2 == 0 ? 875 : 1075 }, { 400 + 300 * Float($0) / 16_000 })
    #expect(trill.twoToneStability > 0.9)
    #expect(trill.tonalStability < 0.7)
    #expect(glide.twoToneStability < 0.5)
}

@Test func aSynthNoteHoldsItsPitchExactlyAndAVoiceWobbles() throws {
    // After a quiet room: a synth note at 175 Hz (five harmonics, as a sawtooth's first),
    // then the same note swaying ±2 % at 5.5 Hz, as a voice's vocal tremor does.
    let sawtooth: (Float) -> Float = { phase in 0.2 * (1...5).reduce(Float(0)) { $0 + sin(Float($1) * phase) / Float($1) } }
    let (synth, voice) = try twoSecondsAfterAQuietRoom(seed: 12, wave: sawtooth, { _ in 175 },
                                                       { 175 * (1 + 0.02 * sin(2 * Float.pi * 5.5 * Float($0) / 16_000)) })
    #expect(synth.voicedFraction > 0.9 && voice.voicedFraction > 0.9)
    #expect(synth.f0Wobble >= 0 && synth.f0Wobble < Scream.heldWobble.lowerBound)
    #expect(voice.f0Wobble > Scream.heldWobble.upperBound)
}
