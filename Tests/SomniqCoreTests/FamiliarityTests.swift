import Testing
@testable import SomniqCore

/// A tick: a short, sharp, unpitched burst 25 dB over a floor of −60 dBFS, most of it at
/// 0.6–2.4 kHz, as a clock's escapement or a knock sounds.
private func tick(_ index: Int) -> WindowFeatures {
    var f = WindowFeatures()
    f.index = index
    f.startSeconds = Double(index) * 0.5
    f.floorDbfs = -60
    f.peakDbfs = -35
    f.levelDbfs = -50
    f.recentPeakDbfs = Decibels.silence               // the 30 s novelty cue alone would let it through
    f.excessShare = [0, 0, 0.2, 0.4, 0.3, 0.1, 0, 0]
    f.activeFraction = 0.1; f.longestRunSeconds = 0.1; f.loudRunSeconds = 0.05; f.bursts = 1; f.loudBursts = 1
    f.onsetDb = 14; f.centroidHz = 1200; f.harmonicity = 0.2; f.flatness = 0.2; f.zcr = 0.15
    return f
}

/// Breaking glass: a sharp, noise-like crash 35 dB over the floor, most of it above 2.4 kHz.
private func crash(_ index: Int) -> WindowFeatures {
    var f = tick(index)
    f.peakDbfs = -25
    f.excessShare = [0, 0, 0, 0.05, 0.15, 0.35, 0.3, 0.15]
    f.activeFraction = 0.6; f.longestRunSeconds = 0.4; f.loudRunSeconds = 0.1
    f.onsetDb = 14; f.centroidHz = 4500; f.flatness = 0.35; f.zcr = 0.35
    return f
}

private func quiet(_ index: Int) -> WindowFeatures {
    var f = tick(index)
    f.peakDbfs = -57
    f.excessShare = BandVector()
    f.activeFraction = 0; f.longestRunSeconds = 0; f.onsetDb = 1
    return f
}

/// A tick in every other window (one a second), quiet between, for `seconds`.
private func ticking(seconds: Int) -> [WindowFeatures] {
    (0..<(2 * seconds)).map { $0 % 2 == 0 ? tick($0) : quiet($0) }
}

@Test func aTickEverySecondIsFamiliarAfterThirtySeconds() {
    var memory = Familiarity()
    var familiar: [Float] = []
    for f in ticking(seconds: 60) {
        familiar.append(memory.judge(f))
        memory.remember(f, judged: familiar.last!)
    }
    // Its last 10 s are its own; 8 ticks before them begin to make it familiar, 20 make it so.
    #expect(familiar[0..<36].allSatisfy { $0 == 0 })
    #expect(familiar[36] == 0 && familiar[38] > 0)
    #expect(familiar[60...].allSatisfy { $0 == 1 || $0 == 0 })
    #expect(familiar[60..<120].enumerated().allSatisfy { $0.offset % 2 == 1 || $0.element == 1 })
}

@Test func aSoundUnlikeTheTicksOrFarLouderIsNotFamiliar() {
    var memory = Familiarity()
    for f in ticking(seconds: 60) { memory.remember(f, judged: memory.judge(f)) }
    #expect(memory.judge(tick(120)) == 1)
    #expect(memory.judge(crash(120)) == 0)
    var louder = tick(120)
    louder.peakDbfs += 7                                 // more than 6 dB over anything like it
    #expect(memory.judge(louder) == 0)
    var slower = tick(120)
    slower.onsetDb = 4                                   // a swell, not a tick
    #expect(memory.judge(slower) == 0)
}

@Test func theSleepersTrainsAreNotTheRoomsBackground() {
    var memory = Familiarity()
    for f in ticking(seconds: 60) { memory.remember(f, judged: 0, sleeper: true) }
    #expect(memory.judge(tick(120)) == 0)
}

@Test func twoMinutesOnTheTicksAreForgotten() {
    var memory = Familiarity()
    for f in ticking(seconds: 60) { memory.remember(f, judged: memory.judge(f)) }
    for i in 120..<(120 + Familiarity.memory) { memory.remember(quiet(i), judged: 0) }
    #expect(memory.judge(tick(120 + Familiarity.memory)) == 0)
}


@Test func aClockTickingForTwoMinutesStopsOpeningEventsButACrashAfterItStillDoes() {
    var windows = ticking(seconds: 120)
    windows.append(crash(240))
    windows += (241..<250).map(quiet)
    let s = decide(windows)
    #expect(s[0][.door] >= 0.7)                          // a first tick is a knock
    // Familiar after 30 s; the knocking that went on since the first tick ends 10 s later.
    #expect((80..<240).allSatisfy { s[$0][.door] < 0.5 })
    #expect(s[240][.glassBreak] >= 0.7)
}

/// A cough: an explosive, voiced burst of 0.4 s at 150–1200 Hz, 30 dB over the floor.
private func cough(_ index: Int) -> WindowFeatures {
    var f = tick(index)
    f.peakDbfs = -30
    f.excessShare = [0, 0.3, 0.5, 0.2, 0, 0, 0, 0]
    f.activeFraction = 0.4; f.longestRunSeconds = 0.4; f.loudRunSeconds = 0.1
    f.onsetDb = 20; f.voicedFraction = 0.7; f.harmonicity = 0.65; f.f0Hz = 250; f.tonalStability = 0.2; f.centroidHz = 700
    return f
}

@Test func theSleepersCoughsAreNotTheRoomsBackground() {
    // A bout of three coughs every 10 s for two minutes: each bout is a cough, the last as
    // the first.
    let windows = (0..<240).map { i -> WindowFeatures in i % 20 < 6 && i % 2 == 0 ? cough(i) : quiet(i) }
    let s = decide(windows)
    for bout in stride(from: 0, to: 240, by: 20) {
        #expect((bout..<(bout + 6)).contains { s[$0][.cough] >= 0.7 }, "bout at window \(bout)")
    }
}
