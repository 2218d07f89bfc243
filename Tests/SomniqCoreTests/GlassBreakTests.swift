import Testing
@testable import SomniqCore

/// Breaking glass as the window's features show it: a noise-like crash 35 dB over a floor of
/// −60 dBFS, most of it above 2.4 kHz, a 14 dB onset, reaching its peak `attack` s after it.
private func crash(attack: Float) -> WindowFeatures {
    var f = WindowFeatures()
    f.floorDbfs = -60
    f.peakDbfs = -25
    f.levelDbfs = -40
    f.recentPeakDbfs = -58
    f.excessShare = [0, 0, 0, 0.05, 0.15, 0.35, 0.3, 0.15]
    f.excessDb = [0, 0, 0, 10, 20, 30, 30, 25]
    f.activeFraction = 0.6; f.longestRunSeconds = 0.4; f.loudRunSeconds = 0.1; f.bursts = 1; f.loudBursts = 1
    f.onsetDb = 14; f.centroidHz = 4500; f.flatness = 0.35; f.zcr = 0.35; f.harmonicity = 0.1
    f.attackSeconds = attack
    return f
}

@Test func glassIsLoudestAtItsOnsetAndASoundThatSwellsToItsPeakIsNotGlass() {
    // A fracture is over at once: the crash peaks within a few frames of its onset.
    #expect(GlassBreak.instant(crash(attack: 0.03), Cues(crash(attack: 0.03))) >= 0.7)
    // The same bright, noise-like burst that takes 0.4 s to reach its peak is a breath or a
    // snore swelling, as the snores and breaths heard as glass in the corpus's scenes did.
    #expect(GlassBreak.instant(crash(attack: 0.4), Cues(crash(attack: 0.4))) == 0)
}
