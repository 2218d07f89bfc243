import Testing
@testable import SomniqCore

/// The frame spectra a replay's reader computes ahead, on a transform of its own, change no
/// bit of any window's features; spectra of another window are not used.
@Test func spectraComputedAheadChangeNoBitOfTheFeatures() throws {
    let plain = try FeatureExtractor(transform: ReferenceFFT(size: 1024))
    let helped = try FeatureExtractor(transform: ReferenceFFT(size: 1024))
    let spectra = FrameSpectra(transform: ReferenceFFT(size: 1024))
    // Noise with a loud burst every 2 s and a tone: floors, pitch and tonal lines all move.
    var g = SplitMix(seed: 11)
    var samples = (0..<160_000).map { _ in (g.uniform() * 2 - 1) * 0.002 }
    for start in stride(from: 8_000, to: 160_000, by: 32_000) {
        for i in start..<(start + 6_000) { samples[i] += 0.2 * sin(Float(i) * 0.12) }
    }
    var windower = try Windower()
    var compared = 0, used = 0
    samples.withUnsafeBufferPointer { buffer in
        windower.push(buffer) { window in
            let expected = plain.process(window)
            // Every third window finds the spectra of the window before it: not its own.
            if window.index % 3 != 2 {
                spectra.compute(window: window.index, samples: window.samples, from: window.index == 0 ? 0 : SubFrame.shared)
                used += 1
            }
            let got = helped.process(window, spectra: spectra)
            #expect(bits(got) == bits(expected), "window \(window.index)")
            compared += 1
        }
    }
    #expect(compared == 19 && used == 13)
}

private func bits(_ f: WindowFeatures) -> [UInt32] {
    var values: [Float] = [f.levelDbfs, f.peakDbfs, f.floorDbfs, f.activeFraction, f.longestRunSeconds, f.loudRunSeconds,
                           f.centroidHz, f.rolloffHz, f.flatness, f.flux, f.zcr, f.harmonicity, f.onsetDb, f.onsetSeconds,
                           f.attackSeconds, f.voicedFraction, f.f0Hz, f.f0SpreadHz, f.tonalFraction, f.tonalHz,
                           f.tonalStability, f.twoToneStability, f.longestToneSeconds, f.modulation, f.flutter, f.recentPeakDbfs,
                           Float(f.bursts), Float(f.loudBursts), Float(f.toneRuns), Float(f.clippedSamples)]
    for b in 0..<Bands.count { values += [f.excessDb[b], f.excessShare[b]] }
    for i in 0..<f.mel.count { values.append(f.mel[i]) }
    return values.map(\.bitPattern)
}
