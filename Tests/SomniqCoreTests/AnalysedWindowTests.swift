import Foundation
import Testing
@testable import SomniqCore

/// A window analysed up to the alarm detector, then followed by it, once the next window has
/// been analysed too (as a replay's reader runs ahead of the analysis): every feature the same
/// bits as `process` gives, the alarm included.
@Test func analysingAheadOfTheAlarmDetectorChangesNoBit() throws {
    let plain = try FeatureExtractor(transform: ReferenceFFT(size: 1024))
    let ahead = try FeatureExtractor(transform: ReferenceFFT(size: 1024))
    var follower = AlarmFollower(for: ahead)
    let slots = [AnalysedWindow(bins: ahead.bins), AnalysedWindow(bins: ahead.bins)]
    let samples = burstsAndBeeps()
    var windower = try Windower()
    var expected: [WindowFeatures] = [], got: [WindowFeatures] = []
    var pending: AnalysedWindow?
    samples.withUnsafeBufferPointer { buffer in
        windower.push(buffer) { window in
            expected.append(plain.process(window))
            let slot = slots[window.index % 2]
            ahead.analyse(window, into: slot)
            if let before = pending {
                var f = before.features
                f.alarm = follower.follow(before)
                got.append(f)
            }
            pending = slot
        }
    }
    var last = pending!.features
    last.alarm = follower.follow(pending!)
    got.append(last)
    #expect(got.count == 29 && expected.count == 29)
    for (a, b) in zip(got, expected) {
        #expect(bits(a) == bits(b) && a.alarm == b.alarm && a.index == b.index, "window \(b.index)")
    }
}

/// Each frame's power spectrum made ahead by another transform (a replay's reader does, with
/// its own), then the window analysed from them: every feature the same bits as `process`
/// gives, the first window (all its frames made ahead) and a window after a gap (its spectra
/// from the shared frames on, which the extractor does not have: it makes them itself).
@Test func spectraMadeAheadChangeNoBit() throws {
    let plain = try FeatureExtractor(transform: ReferenceFFT(size: 1024))
    let ahead = try FeatureExtractor(transform: ReferenceFFT(size: 1024))
    let readers = ReferenceFFT(size: 1024)
    var follower = AlarmFollower(for: ahead)
    let slot = AnalysedWindow(bins: ahead.bins)
    let spectra = UnsafeMutablePointer<Float>.allocate(capacity: SubFrame.perWindow * ahead.bins)
    defer { spectra.deallocate() }
    let samples = burstsAndBeeps()
    var windower = try Windower()
    var expected: [WindowFeatures] = [], got: [WindowFeatures] = []
    samples.withUnsafeBufferPointer { buffer in
        windower.push(buffer) { window in
            // Window 12 comes after a gap: 11 is not given.
            guard window.index != 11 else { return }
            expected.append(plain.process(window))
            let first = window.index == 0 ? 0 : SubFrame.shared
            spectra.update(repeating: .nan, count: SubFrame.perWindow * ahead.bins)
            ahead.spectra(of: window, from: first, transform: readers, into: spectra)
            ahead.analyse(window, spectra: (first, spectra), into: slot)
            var f = slot.features
            f.alarm = follower.follow(slot)
            got.append(f)
        }
    }
    #expect(got.count == 28 && expected.count == 28)
    for (a, b) in zip(got, expected) {
        #expect(bits(a) == bits(b) && a.alarm == b.alarm && a.index == b.index, "window \(b.index)")
    }
}

/// 15 s of noise with a loud burst every 2 s and a T3-like 3.1 kHz beep: floors, pitch, tonal
/// lines and the alarm detector all move.
private func burstsAndBeeps() -> [Float] {
    var g = SplitMix(seed: 11)
    var samples = (0..<240_000).map { _ in (g.uniform() * 2 - 1) * 0.002 }
    for start in stride(from: 8_000, to: 240_000, by: 32_000) {
        for i in start..<(start + 6_000) { samples[i] += 0.2 * sin(Float(i) * 0.12) }
    }
    for i in 96_000..<200_000 where (i - 96_000) % 16_000 < 8_000 { samples[i] += 0.1 * sin(2 * Float.pi * 3100 * Float(i) / 16_000) }
    return samples
}

private func bits(_ f: WindowFeatures) -> [UInt32] {
    var values: [Float] = [f.levelDbfs, f.peakDbfs, f.floorDbfs, f.activeFraction, f.longestRunSeconds, f.loudRunSeconds,
                           f.centroidHz, f.rolloffHz, f.flatness, f.flux, f.zcr, f.harmonicity, f.onsetDb, f.onsetSeconds,
                           f.attackSeconds, f.voicedFraction, f.f0Hz, f.f0SpreadHz, f.f0Wobble, f.tonalFraction, f.tonalHz,
                           f.tonalStability, f.twoToneStability, f.longestToneSeconds, f.modulation, f.flutter, f.recentPeakDbfs,
                           Float(f.bursts), Float(f.loudBursts), Float(f.toneRuns), Float(f.clippedSamples)]
    for b in 0..<Bands.count { values += [f.excessDb[b], f.excessShare[b]] }
    for i in 0..<f.mel.count { values.append(f.mel[i]) }
    return values.map(\.bitPattern)
}
