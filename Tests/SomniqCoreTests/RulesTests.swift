import Testing
@testable import SomniqCore

/// A window whose loudest frame stands `snr` dB above a floor of −60 dBFS, with `parts`
/// of its above-floor energy in the given frequency ranges (each split evenly over its bands).
private func window(snr: Float, _ parts: (ClosedRange<Float>, Float)...) -> WindowFeatures {
    var f = WindowFeatures()
    f.floorDbfs = -60
    f.peakDbfs = -60 + snr
    f.levelDbfs = -60 + snr - 3
    f.excessShare = spread(parts)
    return f
}

/// `parts` as one value per band.
private func spread(_ parts: [(ClosedRange<Float>, Float)]) -> BandVector {
    var v = BandVector()
    for (hz, x) in parts {
        let low = Bands.edgesHz.firstIndex(of: hz.lowerBound)!, high = Bands.edgesHz.firstIndex(of: hz.upperBound)!
        for i in low..<high { v[i] += x / Float(high - low) }
    }
    return v
}

private func score(_ rule: (WindowFeatures, Cues) -> Float, _ f: WindowFeatures) -> Float { rule(f, Cues(f)) }

@Test func bandsAreNamedByTheirEdges() {
    let f = window(snr: 30, (0...150, 0.1), (150...300, 0.2), (300...600, 0.3), (600...1200, 0.4))
    #expect(Band.voice.hz == 150...1200)
    #expect(f.share(.voice) == f.excessShare[1] + f.excessShare[2] + f.excessShare[3])
    #expect(f.share(Band(.hz0, .hz8000)) == f.share(.belowHarmonics))
    var g = f
    g.excessDb = [3, 9, 4, 0, 0, 7, 2, 1]
    #expect(g.rise(.piezo) == 7 && g.highestRise(.belowPiezo) == 9 && g.highestRise(.low) == 9)
}

// MARK: Tones

/// A T3 beep of a piezo sounder: a steady line at 3.2 kHz carrying most of the energy.
private func beep() -> WindowFeatures {
    var f = window(snr: 30, (2400...4000, 0.8), (4000...6000, 0.2))
    f.tonalFraction = Cues.lineFraction.upperBound + 0.2; f.tonalStability = Cues.lineStability.upperBound + 0.05
    f.tonalHz = 3200; f.longestRunSeconds = 0.5
    f.excessDb[5] = SmokeAlarm.lineRiseDb.upperBound + 2          // 2.4–4 kHz, where the line is
    f.toneRuns = 1; f.longestToneSeconds = 0.5
    return f
}

@Test func smokeAlarmIsASteadyPiezoLineInBeeps() {
    #expect(score(SmokeAlarm.instant, beep()) >= 0.8)
}

@Test func aContinuousToneIsNotAnAlarmsBeep() {
    var f = beep()
    f.longestToneSeconds = SmokeAlarm.steadyToneSeconds.upperBound + 0.05
    #expect(score(SmokeAlarm.instant, f) < 0.2)
}

@Test func anAlarmIsJudgedByItsOwnBandNotByTheBroadbandLevel() {
    // 4 dB over a fan broadband, but 16 dB over the floor at 2.4–4 kHz: an alarm.
    var f = beep()
    f.peakDbfs = f.floorDbfs + 4
    #expect(score(SmokeAlarm.instant, f) >= 0.8)
    f.excessDb[5] = SmokeAlarm.lineRiseDb.lowerBound - 2
    #expect(score(SmokeAlarm.instant, f) < 0.2)
}

@Test func aCOAlarmsClusterOfFourShortBeepsIsAnAlarmAnInsectsChirpsAreNot() {
    var t4 = beep()
    t4.toneRuns = 4; t4.longestToneSeconds = 0.11
    #expect(score(SmokeAlarm.instant, t4) >= 0.8)
    var chirps = t4
    chirps.longestToneSeconds = 0.04                                  // 40 ms pulses at 3.2 kHz
    #expect(score(SmokeAlarm.instant, chirps) < 0.2)
}

/// A trill ringer: lines on two tones at 1–1.5 kHz, outside the alarm bands.
private func ring() -> WindowFeatures {
    var f = window(snr: 30, (600...1200, 0.4), (1200...2400, 0.6))
    f.tonalFraction = PhoneRing.lineFraction.upperBound + 0.1; f.twoToneStability = PhoneRing.twoTone.upperBound + 0.02
    f.tonalHz = PhoneRing.lineHz.upperBound + 500; f.longestRunSeconds = 0.8
    return f
}

@Test func phoneRingIsATonalLineOnOneOrTwoTonesOutsideTheAlarmBand() {
    #expect(score(PhoneRing.instant, ring()) >= 0.8)
}

@Test func aBellRingingAt500HzIsARinger() {
    var f = ring()
    f.tonalHz = 500                                                   // an old phone's bells, 450–800 Hz
    #expect(score(PhoneRing.instant, f) >= 0.8)
    f.tonalHz = PhoneRing.lineHz.lowerBound - 50
    #expect(score(PhoneRing.instant, f) < 0.2)
}

@Test func aMelodicRingtoneOfShortNotesIsARinger() {
    var f = ring()
    f.twoToneStability = 0.4                                          // many notes, not two tones
    f.toneRuns = Int(PhoneRing.melodyRuns.upperBound) + 2
    f.tonalFraction = PhoneRing.melodyLineFraction.upperBound
    #expect(score(PhoneRing.instant, f) >= 0.8)
}

@Test func aRingerThatHasRungInMostWindowsOfTheLastHalfMinuteIsBackground() {
    var f = ring()
    f.recentPeakDbfs = f.peakDbfs - 1                                 // frogs croaking all night
    #expect(score(PhoneRing.instant, f) < 0.2)
}

@Test func aFrogsCroakTrainIsNoRingerButABellStruckAsFastIs() {
    // One steady line at 1.9 kHz in ten short pulses a second: a bell struck twenty times a
    // second rings on between the strokes; a frog's croaks are separate sounds.
    var bell = ring()
    bell.tonalStability = 0.95; bell.toneRuns = 10; bell.longestToneSeconds = 0.08; bell.longestRunSeconds = 0.9
    #expect(score(PhoneRing.instant, bell) >= 0.8)
    var croaks = bell
    croaks.longestRunSeconds = PhoneRing.croakSeconds.lowerBound - 0.1
    #expect(score(PhoneRing.instant, croaks) < 0.2)
}

@Test func aLineThatWandersLikeAVoicesHarmonicIsNotARinger() {
    var f = ring()
    f.twoToneStability = PhoneRing.twoTone.lowerBound - 0.1
    #expect(score(PhoneRing.instant, f) < 0.2)
}

// MARK: Short sounds

/// Shattering glass: a sharp, loud, noise-like burst with most of its energy above 2.4 kHz.
private func shatter() -> WindowFeatures {
    var f = window(snr: 30, (1200...2400, 0.1), (2400...4000, 0.4), (4000...6000, 0.3), (6000...8000, 0.2))
    f.onsetDb = GlassBreak.shatterRiseDb.upperBound + 5; f.zcr = GlassBreak.zeroCrossingRate.upperBound + 0.1
    f.longestRunSeconds = 0.4; f.flatness = GlassBreak.shatterFlatness.upperBound + 0.1
    return f
}

@Test func glassBreakIsASharpCrashWithMostOfItsEnergyAbove2k4AndMuchAbove4k() {
    #expect(score(GlassBreak.instant, shatter()) >= 0.8)
}

@Test func aClocksTicksAreNoShatterTheyAreTooShortAndHeardAllTheTime() {
    var tick = shatter()
    tick.longestRunSeconds = 0.03
    #expect(score(GlassBreak.instant, tick) < 0.2)
    var ticking = shatter()
    ticking.recentPeakDbfs = ticking.peakDbfs - 1                  // as loud as the last 30 s
    #expect(score(GlassBreak.instant, ticking) < 0.2)
}

@Test func aFrogsTonalCroakIsNoShatter() {
    var croak = shatter()
    croak.flatness = 0.01
    #expect(score(GlassBreak.instant, croak) < 0.2)
}

@Test func aHissThroughTheTeethWithMostOfItsEnergyAbove6kIsNotGlass() {
    // A gasp drawn as a fricative (a game's gasp on the fold 3–4 nights, read as glass at
    // 1.0): as sharp, loud and noise-like as a shatter, all of it above 2.4 kHz, but peaking
    // at 6–8 kHz as no broadband crash does.
    var f = shatter()
    f.excessShare = spread([(2400...4000, 0.1), (4000...6000, 0.4), (6000...8000, GlassBreak.shareAbove6k.upperBound + 0.1)])
    #expect(score(GlassBreak.instant, f) == 0)
}

@Test func aKnockOnWoodWithItsEnergyBelow2k4IsNotGlass() {
    var f = shatter()
    f.excessShare = spread([(1200...2400, 1 - GlassBreak.shareAbove2k4.lowerBound + 0.1), (2400...4000, GlassBreak.shareAbove2k4.lowerBound - 0.1)])
    #expect(score(GlassBreak.instant, f) < 0.2)
}

@Test func aBurstThatBringsAVoicesLineBelow1kHzIsACoughNotGlass() {
    // A cough's voiced phase puts a line at its pitch (here 380 Hz) under the burst.
    var cough = shatter()
    cough.tonalFraction = 0.3; cough.tonalHz = 380
    #expect(GlassBreak.voiceLine(cough, before: WindowFeatures()) == 1)
    var ringing = cough                                             // a shard ringing at 3.5 kHz
    ringing.tonalHz = 3500
    #expect(GlassBreak.voiceLine(ringing, before: WindowFeatures()) == 0)
    // A clock's ring at 380 Hz, heard before the crash too, is the room's.
    var clock = WindowFeatures()
    clock.tonalFraction = 0.3; clock.tonalHz = 370
    #expect(GlassBreak.voiceLine(cough, before: clock) == 0)
}

@Test func aCoughsLineIsACoughsAfterTheBoutsFirstCoughOrABeepButNotAfterTheRoomsOwnLine() {
    // The second cough of a bout: the window 1 s before held the first cough, whose voiced
    // phase put a line at the same 380 Hz; that window stood 26 dB out of what the room
    // usually reaches, so its line came with its own burst and is not the room's.
    var cough = shatter()
    cough.tonalFraction = 0.35; cough.tonalHz = 381
    var first = WindowFeatures()
    first.peakDbfs = -25; first.recentPeakDbfs = -51
    first.tonalFraction = 0.33; first.tonalHz = 383
    #expect(GlassBreak.voiceLine(cough, before: first) == 1)
    // A beep at 3 kHz the room has heard all along says nothing of a line at 380 Hz.
    var beep = WindowFeatures()
    beep.tonalFraction = 0.8; beep.tonalHz = 3000
    #expect(GlassBreak.voiceLine(cough, before: beep) == 1)
    // A hum at 365 Hz the room has held all along (tune-scene-14 at 14 s, before its glass
    // breaks over it at 15 s) is the room's line: the burst's line says nothing.
    var hum = WindowFeatures()
    hum.peakDbfs = -42; hum.recentPeakDbfs = -42.1
    hum.tonalFraction = 0.36; hum.tonalHz = 365
    #expect(GlassBreak.voiceLine(cough, before: hum) == 0)
}

/// A loud shout: voiced at 450 Hz, sustained, its energy at 0.6–4 kHz.
private func shout() -> WindowFeatures {
    var f = window(snr: 30, (300...600, 0.1), (600...1200, 0.3), (1200...2400, 0.5), (2400...4000, 0.1))
    f.voicedFraction = Scream.voicedFraction.upperBound + 0.2; f.harmonicity = Scream.harmonicity.upperBound + 0.1
    f.f0Hz = 450; f.f0Wobble = 0.01                                 // a voice's pitch wanders
    f.longestRunSeconds = 0.6; f.loudRunSeconds = Scream.loudRunSeconds.upperBound + 0.2
    f.centroidHz = Scream.centroidHz.upperBound + 300
    return f
}

@Test func screamIsOneLoudSustainedShoutWithItsEnergyAt600HzTo4kHz() {
    #expect(score(Scream.instant, shout()) >= 0.8)
}

@Test func aShoutAtFullStrengthOnlyInShortHasIsNotAScream() {
    var f = shout()
    f.loudRunSeconds = Scream.loudRunSeconds.lowerBound - 0.1
    #expect(score(Scream.instant, f) < 0.2)
}

@Test func aMansYellHeldOnOneVowelIsAScreamButSpeechAtThatPitchIsNot() {
    // A falling man's yell: f0 260 Hz, most of its energy below 600 Hz (too low for a
    // shriek), one vowel held at full strength for 0.9 s with no syllable rhythm.
    var yell = window(snr: 30, (150...300, 0.3), (300...600, 0.4), (600...1200, 0.2), (1200...2400, 0.1))
    yell.f0Hz = 260; yell.f0Wobble = 0.01; yell.voicedFraction = 0.95; yell.harmonicity = 0.8; yell.centroidHz = 600
    yell.longestRunSeconds = 0.97; yell.loudRunSeconds = 0.9; yell.modulation = 0.15
    #expect(score(Scream.instant, yell) >= 0.8)
    var talk = yell                                                 // a child talking at that pitch
    talk.loudRunSeconds = 0.3; talk.modulation = 0.6
    #expect(score(Scream.instant, talk) < 0.2)
}

@Test func aShrillSyllableAtASpeakingPitchIsNoScreamButAShriekAbove300HzOrAHeldVowelIs() {
    // Speech on a television, a glass's ringing partials, a tune: voiced at 0.6–4 kHz as a
    // shriek is, but at a speaking pitch, with syllables or notes in the envelope.
    var syllable = shout()
    syllable.f0Hz = 210; syllable.modulation = 0.45
    #expect(score(Scream.instant, syllable) < 0.2)
    var shriek = syllable
    shriek.f0Hz = 500
    #expect(score(Scream.instant, shriek) >= 0.8)
    var held = syllable                                             // a man's scream on one vowel
    held.modulation = 0.1
    #expect(score(Scream.instant, held) >= 0.8)
    var long = syllable                                             // held at full strength 0.9 s
    long.loudRunSeconds = 0.9; long.longestRunSeconds = 0.95
    #expect(score(Scream.instant, long) >= 0.8)
}

@Test func aChildTalkingAt300HzIsNoScreamButAShriekAbove350HzIs() {
    // Children speak higher than adults (264 Hz on average, Peterson & Barney 1952): a
    // child's syllables at 300 Hz, voiced at 0.6–4 kHz, are not pitched above speech.
    var child = shout()
    child.f0Hz = 300; child.modulation = 0.45
    #expect(score(Scream.instant, child) < 0.2)
    var shriek = child
    shriek.f0Hz = 360
    #expect(score(Scream.instant, shriek) >= 0.8)
}

@Test func aNoteHeldAt120HzIsNoScreamHoweverSteadyButAMansHeldScreamAbove150HzIs() {
    // A synth note at 120 Hz, voiced at 0.6–4 kHz by its partials, held at full strength
    // for 0.8 s: at men's average speaking pitch, no scream. (A techno track's held note
    // at 130 Hz on the fold 3–4 nights scores a third of what it did.)
    var note = shout()
    note.f0Hz = 120; note.modulation = 0.5; note.loudRunSeconds = 0.8; note.longestRunSeconds = 0.97
    #expect(score(Scream.instant, note) < 0.2)
    var techno = note
    techno.f0Hz = 130
    #expect(score(Scream.instant, techno) < 0.4)
    var low = note                                                  // on one vowel too
    low.modulation = 0.1
    #expect(score(Scream.instant, low) < 0.2)
    var man = note                                                  // a man's held scream at 170 Hz
    man.f0Hz = 170
    #expect(score(Scream.instant, man) >= 0.8)
}

@Test func aSynthNoteHeldAtAMansScreamingPitchIsNoScreamItsPitchDoesNotWobble() {
    // A techno track's note at 175 Hz, held at full strength for 0.8 s (three false screams
    // on the fold 3–4 nights): a man's held scream in every cue but the voice's wobble.
    var man = shout()
    man.f0Hz = 175; man.modulation = 0.5; man.loudRunSeconds = 0.8; man.longestRunSeconds = 0.97
    #expect(score(Scream.instant, man) >= 0.8)
    var synth = man
    synth.f0Wobble = 0.0015                                         // 0.10–0.23 % on those nights
    #expect(score(Scream.instant, synth) < 0.2)
    var steadiest = man                                             // tune/'s steadiest held scream
    steadiest.f0Wobble = 0.005
    #expect(score(Scream.instant, steadiest) >= 0.8)
    var unmeasured = man                                            // too few voiced frames in a row
    unmeasured.f0Wobble = -1
    #expect(score(Scream.instant, unmeasured) >= 0.8)
}

/// A gasp: a loud, abrupt, breathy inhalation centred among the low formants.
private func gasp() -> WindowFeatures {
    var f = window(snr: 30, (600...1200, 0.4), (1200...2400, 0.5), (4000...8000, 0.1))
    f.onsetDb = Gasp.riseDb.upperBound + 2; f.flatness = Gasp.flatness.upperBound + 0.07
    f.harmonicity = 0.5; f.longestRunSeconds = Gasp.longestRunSeconds.upperBound + 0.15
    f.centroidHz = Gasp.centroidHz.lowerBound + 300; f.loudRunSeconds = Gasp.loudRunSeconds.upperBound + 0.1
    return f
}

@Test func gaspIsALoudBreathyInhalationThatStartsAbruptly() {
    #expect(score(Gasp.instant, gasp()) >= 0.8)
}

@Test func aQuietGaspThatRisesSixDecibelsAtOnceIsAGasp() {
    var f = gasp()
    f.onsetDb = 6.5
    #expect(score(Gasp.instant, f) >= 0.45)
}

@Test func anInhalationThatSwellsIsNotAGasp() {
    var f = gasp()
    f.onsetDb = Gasp.riseDb.lowerBound - 2
    #expect(score(Gasp.instant, f) < 0.2)
}

@Test func aBurstWithMostOfItsEnergyBelow150HzOrAbove2k4IsNoGasp() {
    // A kick drum under a tune: the vocal tract puts little of an inhalation below 150 Hz.
    var kick = gasp()
    kick.excessShare = spread([(0...150, 0.7), (600...1200, 0.1), (1200...2400, 0.2)])
    #expect(score(Gasp.instant, kick) < 0.2)
    // Breaking glass whose centroid the frame's thud pulls down among the formants.
    var shards = gasp()
    shards.excessShare = spread([(600...1200, 0.2), (1200...2400, 0.3), (2400...4000, 0.5)])
    #expect(score(Gasp.instant, shards) < 0.2)
}

@Test func aPanelWhosePitchJumpsBetweenItsModesIsNoGasp() {
    // A gasp's weak voice is one voice: its pitch spread stays within an octave or two.
    var voiced = gasp()
    voiced.f0SpreadHz = 230
    #expect(score(Gasp.instant, voiced) >= 0.8)
    // A steel door's close as the fold 3–4 nights heard it: a breathy, abrupt burst among
    // the formants whose few voiced frames read pitches 720–910 Hz apart.
    var door = gasp()
    door.f0SpreadHz = Gasp.f0SpreadHz.upperBound
    #expect(score(Gasp.instant, door) == 0)
}

/// A cough: an explosive, partly voiced burst of 0.4 s at 150–1200 Hz.
private func cough() -> WindowFeatures {
    var f = window(snr: 30, (150...300, 0.3), (300...600, 0.5), (600...1200, 0.2))
    f.onsetDb = 20; f.longestRunSeconds = 0.4; f.loudRunSeconds = Cough.loudRunSeconds.lowerBound - 0.03
    f.f0Hz = Cough.f0Hz.lowerBound - 90; f.tonalStability = Cough.lineStability.lowerBound - 0.2
    f.harmonicity = Cough.harmonicity.lowerBound - 0.1
    return f
}

@Test func aCoughWhoseEnergyLiesAt2kHzAndWhoseVoicePitchIs700HzIsACough() {
    var f = cough()
    f.excessShare = spread([(1200...2400, 0.7), (2400...4000, 0.3)])
    f.f0Hz = 700                                                      // a child's voiced phase
    #expect(score(Cough.instant, f) >= 0.8)
}

@Test func coughIsAnExplosiveBurstThatIsAtFullStrengthOnlyBriefly() {
    #expect(score(Cough.instant, cough()) >= 0.8)
}

@Test func aBurstThatHoldsItsFullStrengthLikeAWordIsNotACough() {
    var f = cough()
    f.loudRunSeconds = Cough.loudRunSeconds.upperBound + 0.2
    #expect(score(Cough.instant, f) < 0.2)
}

/// A bark: an abrupt, harmonic burst with f0 in the dog's range and energy at 300–1200 Hz.
private func bark() -> WindowFeatures {
    var f = window(snr: 30, (300...600, 0.5), (600...1200, 0.4), (1200...2400, 0.1))
    f.onsetDb = 20; f.longestRunSeconds = 0.3; f.loudRunSeconds = 0.1; f.loudBursts = 1
    f.voicedFraction = DogBark.voicedFraction.upperBound + 0.2; f.f0Hz = DogBark.f0.lowerBound + 50
    return f
}

@Test func dogBarkIsAnAbruptHarmonicBurstOneOrTwoASecond() {
    #expect(score(DogBark.instant, bark()) >= 0.8)
}

@Test func aRunOfHasAtFullStrengthIsNotABark() {
    var f = bark()
    f.loudBursts = Int(DogBark.loudBursts.upperBound) + 1
    #expect(score(DogBark.instant, f) < 0.2)
}

/// A slam: a short, sharp, loud impact with no pitch.
private func slam() -> WindowFeatures {
    var f = window(snr: 30, (0...150, 0.3), (150...300, 0.3), (300...600, 0.3), (2400...4000, 0.1))
    f.onsetDb = 20; f.longestRunSeconds = 0.2; f.bursts = 1; f.loudRunSeconds = 0.05
    f.harmonicity = Door.slamHarmonicity.lowerBound - 0.15
    return f
}

@Test func doorIsAShortSharpImpactWithNoPitch() {
    #expect(score(Door.instant, slam()) >= 0.8)
}

@Test func aPitchedBurstThatIsNoRunOfRapsIsNotADoor() {
    var f = slam()
    f.harmonicity = Door.slamHarmonicity.upperBound + 0.1
    #expect(score(Door.instant, f) < 0.2)
}

@Test func anAbruptBurstVoicedThroughMostOfItIsNoSlam() {
    // A laugh's "ha", a bark or a cough starts as abruptly as a slam and may be as rough
    // on average, but a clear pitch runs through most of its frames.
    var f = slam()
    f.harmonicity = Door.slamHarmonicity.lowerBound - 0.05
    f.voicedFraction = Door.slamVoicedFraction.upperBound + 0.05
    #expect(score(Door.instant, f) < 0.2)
}

@Test func anAbruptBurstHeldAtFullStrengthIsNoSlam() {
    // A heavy breath that starts abruptly stays within 10 dB of its peak for half a second.
    var f = slam()
    f.loudRunSeconds = Door.slamLoudRunSeconds.upperBound + 0.1
    #expect(score(Door.instant, f) < 0.2)
}

@Test func aLoudSlamThatRingsOnIsAtFullStrengthOnlyForItsFirstTensOfMilliseconds() {
    var f = slam()
    f.longestRunSeconds = 0.9
    #expect(score(Door.instant, f) < 0.2)        // too long for a short burst
    #expect(score(Door.slamHit, f) >= 0.8)
    f.loudRunSeconds = Door.hitLoudRunSeconds.upperBound + 0.1
    #expect(score(Door.slamHit, f) < 0.2)
}

// MARK: Voices

/// A cry unit: sustained, strongly harmonic phonation at f0 450 Hz with a moving pitch.
private func cry() -> WindowFeatures {
    var f = window(snr: 30, (300...600, 0.3), (600...1200, 0.4), (1200...2400, 0.2), (2400...4000, 0.1))
    f.voicedFraction = BabyCry.voicedFraction.upperBound + 0.1; f.harmonicity = BabyCry.harmonicity.upperBound + 0.05
    f.f0Hz = BabyCry.f0.lowerBound + 130; f.longestRunSeconds = 0.8; f.loudRunSeconds = 0.7
    f.tonalStability = BabyCry.lineStability.lowerBound - 0.15
    return f
}

@Test func babyCryIsSustainedHarmonicPhonationWhosePitchMoves() {
    #expect(score(BabyCry.instant, cry()) >= 0.8)
}

@Test func aSteadyPitchIsARingersNotACry() {
    var f = cry()
    f.tonalStability = BabyCry.lineStability.upperBound + 0.2
    #expect(score(BabyCry.instant, f) < 0.2)
}

/// A phrase: voiced at f0 140 Hz, its energy below 1.2 kHz, broken once by a pause.
private func phrase() -> WindowFeatures {
    var f = window(snr: 30, (0...150, 0.1), (150...300, 0.3), (300...600, 0.4), (600...1200, 0.1), (1200...2400, 0.1))
    f.voicedFraction = Speech.voicedFraction.upperBound + 0.15; f.f0Hz = Speech.f0.lowerBound + 55
    f.bursts = Int(Speech.bursts.upperBound); f.harmonicity = Speech.harmonicity.upperBound + 0.06; f.centroidHz = 500
    return f
}

@Test func speechIsVoicedAtAnAdultsOrChildsPitchWithItsEnergyBelow1k2() {
    #expect(score(Speech.instant, phrase()) >= 0.8)
}

@Test func aVoicePitchedAboveSpeechIsNotSpeech() {
    var f = phrase()
    f.f0Hz = Speech.f0.upperBound + Speech.f0SoftHz + 100
    #expect(score(Speech.instant, f) < 0.2)
}

/// Laughter: four voiced "ha"s at f0 350 Hz.
private func laugh() -> WindowFeatures {
    var f = window(snr: 30, (300...600, 0.2), (600...1200, 0.5), (1200...2400, 0.3))
    f.bursts = Int(Laughter.bursts.upperBound); f.loudBursts = f.bursts
    f.voicedFraction = Laughter.voicedFraction.upperBound + 0.05; f.f0Hz = Laughter.f0.lowerBound + 150
    return f
}

@Test func laughterIsARunOfShortVoicedBursts() {
    #expect(score(Laughter.instant, laugh()) >= 0.8)
}

@Test func aSingleVoicedBurstIsNotLaughter() {
    var f = laugh()
    f.bursts = 1; f.loudBursts = 1
    #expect(score(Laughter.instant, f) < 0.2)
}

// MARK: Breathing and snoring

/// A calm breath: a soft, noisy burst of 1 s at 0.6–6 kHz with no sharp onset.
private func breath() -> WindowFeatures {
    var f = window(snr: 12, (300...600, 0.1), (600...1200, 0.2), (1200...2400, 0.3), (2400...4000, 0.2), (4000...6000, 0.2))
    f.harmonicity = Breathing.harmonicity.lowerBound - 0.15; f.flatness = Breathing.flatness.upperBound + 0.1
    f.longestRunSeconds = 1; f.onsetDb = Breathing.riseDb.lowerBound - 4; f.flutter = Snoring.flutter.lowerBound - 0.1
    return f
}

@Test func breathIsASoftNoisyBurstWithNoSharpOnsetAndNoRumble() {
    #expect(score(Breathing.instant, breath()) >= 0.8)
}

@Test func aFlutteringBurstIsASnoreNotABreath() {
    var f = breath()
    f.flutter = Snoring.flutter.upperBound + 0.1
    #expect(score(Breathing.instant, f) < 0.2)
}

/// A heavy breath: loud, breathy, half a second long, unhurried.
private func heavyBreath() -> WindowFeatures {
    var f = breath()
    f.peakDbfs = f.floorDbfs + Breathing.heavyLevelDb.upperBound + 5
    f.longestRunSeconds = 0.5
    return f
}

@Test func heavyBreathIsLoudBreathyAndUnhurried() {
    #expect(score(Breathing.heavy, heavyBreath()) >= 0.8)
}

@Test func aHeavyBreathThatStartsAbruptlyIsNoLongerUnhurried() {
    var f = heavyBreath()
    f.onsetDb = Breathing.heavyRiseDb.upperBound + 2
    #expect(score(Breathing.heavy, f) < 0.2)
}

/// A snore: a rough burst standing 20 dB out of the floor below 150 Hz.
private func snore() -> WindowFeatures {
    var f = window(snr: 22, (0...150, 0.5), (150...300, 0.3), (300...600, 0.12), (600...1200, 0.08))
    f.excessDb = [Snoring.lowRiseDb.upperBound + 4, 18, 10, 6, 0, 0, 0, 0]
    f.activeFraction = 0.6; f.harmonicity = Snoring.harmonicity.lowerBound - 0.25; f.centroidHz = 280
    return f
}

@Test func snoreIsARoughBurstStandingWellOutOfTheFloorBelow300Hz() {
    #expect(score(Snoring.instant, snore()) >= 0.8)
}

@Test func aLowSoundWithASteadySpectralLineIsNotASnore() {
    var f = snore()
    f.tonalFraction = Snoring.lineFraction.upperBound + 0.1
    #expect(score(Snoring.instant, f) < 0.2)
}

// MARK: Long sounds

/// A distant rumble: loud noise nearly all below 300 Hz.
private func rumble() -> WindowFeatures {
    var f = window(snr: 30, (0...150, 0.6), (150...300, 0.35), (300...600, 0.05))
    f.activeFraction = 1; f.longestRunSeconds = 1; f.harmonicity = Thunder.harmonicity.lowerBound - 0.15; f.centroidHz = 180
    return f
}

@Test func thunderIsLoudLowNoiseWithNoPitchOrLines() {
    #expect(score(Thunder.instant, rumble()) >= 0.8)
}

@Test func aRumbleWithAFifthOfItAbove300HzIsThunder() {
    // Between a distant rumble (nearly all below 300 Hz) and a near clap (a third at
    // 0.3–1.2 kHz) lies much thunder: a crack's highs fading into a rumble.
    var f = window(snr: 30, (0...150, 0.5), (150...300, 0.3), (300...600, 0.12), (600...1200, 0.08))
    f.activeFraction = 1; f.longestRunSeconds = 1; f.harmonicity = 0.4; f.centroidHz = 300
    #expect(score(Thunder.instant, f) >= 0.8)
}

@Test func aLowSoundWithTonalLinesIsABassNotThunder() {
    var f = rumble()
    f.tonalFraction = Thunder.lineFraction.upperBound + 0.1
    #expect(score(Thunder.instant, f) < 0.2)
}

/// A held chord: continuous, harmonic sound with no pause.
private func chord() -> WindowFeatures {
    var f = window(snr: 30, (150...300, 0.3), (300...600, 0.4), (600...1200, 0.3))
    f.activeFraction = 1; f.longestRunSeconds = 1; f.harmonicity = Music.harmonicity.upperBound + 0.1; f.centroidHz = 600
    return f
}

@Test func musicIsContinuousHarmonicSoundWithNoPause() {
    #expect(score(Music.instant, chord()) >= 0.8)
}

@Test func soundThatDipsBetweenWordsIsNotMusic() {
    var f = chord()
    f.longestRunSeconds = Music.longestRunSeconds.lowerBound - 0.2
    #expect(score(Music.instant, f) < 0.2)
}

@Test func aBeatIsContinuousSoundWithASharpAttackInIt() {
    var f = chord()
    f.activeFraction = Music.beatActiveFraction.upperBound + 0.05; f.onsetDb = Music.beatRiseDb.upperBound + 2
    #expect(score(Music.beat, f) >= 0.8)
}

@Test func attacksWithPausesBetweenThemAreNotABeat() {
    var f = chord()
    f.activeFraction = Music.beatActiveFraction.lowerBound - 0.25; f.onsetDb = Music.beatRiseDb.upperBound + 2
    #expect(score(Music.beat, f) < 0.2)
}

/// Every band a rule reads runs upwards from one band edge to a higher one, and the band
/// of a frequency holds it.
@Test func everyNamedBandRunsUpwardsAndABandHoldsItsFrequencies() {
    for band in Band.named {
        #expect(band.low < band.high, "\(band.hz)")
        #expect(band.indices.count == band.high.rawValue - band.low.rawValue)
    }
    for hz: Float in [0, 100, 150, 520, 3100, 5999, 7900] {
        let b = Bands.band(ofHz: hz)
        #expect(b.hz.contains(hz) && b.indices.count == 1, "\(hz) Hz")
    }
}
