/// The instantaneous rules: one score per class from one window's features.
/// Each rule names the acoustic cue it relies on.
struct Rules {
    let smokeAlarm, phoneRing, glassBreak, scream, gasp, cough, dogBark, door, slamHit: Float
    let babyCry, speech, laughter, breathing, heavyBreath, snore, thunder, music, beat: Float
    /// How much the window is a short, sharp burst (strong onset, < 0.6 s).
    let impulsive: Float

    init(_ f: WindowFeatures) {
        let x = f.excessShare
        let lowShare = x[0] + x[1]                      // < 300 Hz
        let voiceShare = x[1] + x[2] + x[3]             // 150–1200 Hz: male/female f0 and F1
        let cryShare = x[2] + x[3] + x[4]               // 300–2400 Hz
        let highShare = x[5] + x[6] + x[7]              // > 2.4 kHz
        let audible = ramp(f.peakSnrDb, 8, 14)          // stands clearly out of the floor
        let loud = ramp(f.peakSnrDb, 12, 18)
        let deep = ramp(f.centroidHz, 250, 150)         // a rumble, see thunder
        let allLow = ramp(lowShare, 0.85, 0.95)         // nearly all below 300 Hz: harmonicity means nothing, see thunder
        let toneLine = ramp(f.tonalFraction, 0.3, 0.6) * ramp(f.tonalStability, 0.6, 0.9)
        // A one-off sound stands out of what the room has been doing (`RecentPeaks`): a clock's tick,
        // a cricket's chirp or a frog's croak, heard in most windows of the last 30 s, is background.
        let novel = ramp(f.noveltyDb, 3, 6)

        // Smoke/CO alarms: a steady piezo line near 3 kHz (UL 217 / EN 14604 sounders,
        // 2.8–3.7 kHz) or the 520 Hz square wave of low-frequency alarms (NFPA 72 18.4.6.3),
        // carrying most of the energy above the floor. Cadence is judged by `AlarmCadence`.
        let alarmBand = max(band(f.tonalHz, 2800, 3700, soft: 200), band(f.tonalHz, 480, 560, soft: 30))
        let alarmShare = max(x[5], x[2])
        // A sounder is band-limited: judged by how far its own band rises over that band's
        // floor (an alarm 5 dB over a fan broadband stands 17 dB over the floor at 3 kHz).
        let lineRise = f.excessDb[Bands.index(ofHz: f.tonalHz)]
        // Its beeps, timed on the line itself (ISO 8201, NFPA 720): a whole T3 tone of 0.5 s
        // (±10 %; every tone lies wholly inside one window at the 0.5 s hop), or a T4 cluster,
        // three or more beeps of 0.1 s. A steady tone (a hum, a whistling wind) runs on; an
        // insect's chirps are shorter or come in no such cluster.
        let t3Tone = ramp(f.longestToneSeconds, 0.3, 0.4) * ramp(f.longestToneSeconds, 0.9, 0.7)
        let t4Cluster = ramp(Float(f.toneRuns), 2, 3) * band(f.longestToneSeconds, 0.08, 0.25, soft: 0.02)
        let beeps = max(t3Tone, t4Cluster)
        smokeAlarm = ramp(lineRise, 8, 14) * toneLine * alarmBand * ramp(alarmShare, 0.4, 0.7) * beeps

        // Ringers and ringtones: tonal lines outside the alarm band (electronic warbles
        // 1–4.5 kHz, bell partials from about 0.8 kHz), usually with sharp onsets, that
        // sit on one tone or, for a trill ringer, alternate between two (e.g. 875 and
        // 1075 Hz a dozen times a second): nearly every line is on one of at most two
        // frequencies. A voice's harmonic wanders more, even in a steady, tonal scream.
        let steady = ramp(f.twoToneStability, 0.85, 0.95)
        // A ringer that rings on without a break, its line perfectly steady, is one even
        // when a rumble in the room takes much of the window's energy from the line.
        let ringingOn = ramp(f.tonalFraction, 0.15, 0.3) * ramp(f.twoToneStability, 0.95, 0.99)
            * ramp(f.activeFraction, 0.5, 0.8)
        // An electronic ringtone plays a tune: a run of short, pure notes, each its own
        // steady line, several a second (a voice's line is one continuous glide).
        let melodic = ramp(Float(f.toneRuns), 3, 5) * ramp(f.tonalFraction, 0.5, 0.8)
        let ringing = max(ramp(f.tonalFraction, 0.2, 0.45) * steady, ringingOn, melodic)
        // Bells and phone ringers sound from about 450 Hz (a doorbell's ding-dong, an old
        // phone's bells at 450–800 Hz) up to the 4.5 kHz of electronic warbles; a sounder's
        // beeps are left to the smoke alarm, whose cadence the classifier checks.
        phoneRing = novel * audible * ringing * (1 - smokeAlarm) * ramp(f.tonalHz, 350, 450)

        // An abrupt attack: a rise of 8–14 dB within 47 ms, or, for a sound that stands
        // only 12–20 dB out of the floor (a distant bark), most of its level at once.
        let attack = max(ramp(f.onsetDb, 8, 14), ramp(f.onsetDb / max(f.peakSnrDb, 1), 0.35, 0.5) * ramp(f.onsetDb, 5, 7))

        // Short, sharp sounds: a strong onset and a burst shorter than ~0.6 s.
        impulsive = ramp(f.onsetDb, 8, 14) * loud * band(f.longestRunSeconds, 0.05, 0.6, soft: 0.3)

        // Breaking glass: an impulsive, broadband crash with most energy above 2.4 kHz
        // and a high zero-crossing rate: shards ring at 3–8 kHz, so a good part of it lies
        // above 4 kHz, where a knock on wood (1.2–4 kHz) has little.
        // A shatter also radiates as strongly at 2.4–6 kHz as anywhere below: a noise-like
        // burst (flat spectrum) that rises as far over the floor there as in its strongest
        // lower band, even when a thud of the frame carries most of the power. A knock or a
        // slam falls away above 2–4 kHz, and is less noise-like.
        let rise = f.excessDb
        let topRise = min(rise[5], rise[6]) - max(rise[0], rise[1], rise[2], rise[3], rise[4])
        let whiteCrash = ramp(f.onsetDb, 10, 14) * loud * ramp(f.flatness, 0.29, 0.32) * ramp(topRise, -4, -3.4)
            * ramp(f.longestRunSeconds, 0.08, 0.12)
        let shatter = ramp(f.onsetDb, 5, 10) * loud * ramp(highShare, 0.35, 0.6) * ramp(f.zcr, 0.2, 0.3)
            * ramp(x[6] + x[7], 0.12, 0.22)
            // A shatter is noise, not a croak's tonal trill, and it goes on as its shards fall
            // and ring for more than the 10–30 ms of a clock's tick or a drip.
            * ramp(f.flatness, 0.04, 0.08) * ramp(f.longestRunSeconds, 0.12, 0.2)

        // Cough: an explosive burst (onset) of 0.2–0.8 s whose energy sits at 150–1200 Hz:
        // an explosive phase of noise, then (often) a voiced phase with f0 below about
        // 400 Hz (Korpáš et al. 1996). Only the explosive phase, 30–100 ms, is at full
        // strength; the voiced phase trails off, where a bark or a word holds its level.
        // The explosive phase is turbulence shaped by the vocal tract's formants (F1 0.4–0.9,
        // F2 1.2–2.5, F3 2.5–3.5 kHz), so its energy spans 150 Hz–4 kHz, and the voiced phase
        // may be pitched anywhere from a man's 100 Hz to a child's 900 Hz.
        cough = novel * attack * loud * band(f.longestRunSeconds, 0.05, 0.8, soft: 0.3)
            * ramp(x[1] + x[2] + x[3] + x[4] + x[5], 0.6, 0.8) * ramp(f.f0Hz, 950, 850) * ramp(f.tonalStability, 0.7, 0.4)
            * ramp(f.harmonicity, 0.84, 0.76) * ramp(f.loudRunSeconds, 0.16, 0.11)

        // Dog bark: an abrupt, harmonic burst (f0 ≈ 300–900 Hz) centred at 300–1200 Hz
        // (Yin & McCowan 2004). A bark heard across a yard comes with its onset smeared by
        // the echoes; 5–8 dB within 47 ms is still a sudden start (a cry or a word swells).
        dogBark = novel * max(attack, ramp(f.onsetDb, 5, 8)) * loud * band(f.longestRunSeconds, 0.05, 0.9, soft: 0.3)
            * ramp(f.voicedFraction, 0.4, 0.6) * band(f.f0Hz, 340, 900, soft: 40)
            * ramp(x[2] + x[3], 0.6, 0.8)
            * ramp(Float(f.loudBursts), 3.5, 2.5)       // one or two barks a second, not a laugh's run of "ha"s

        // Door slam: an impact with no pitch (low harmonicity), not a high-pitched crash.
        // Knocking: a run of short raps whose ringing (wood, 1.2–4 kHz) may look pitched.
        let slam = ramp(f.harmonicity, 0.62, 0.45) * (1 - ramp(highShare, 0.5, 0.7))
        let knock = ramp(Float(f.bursts), 1, 3) * ramp(x[4] + x[5], 0.5, 0.7) * ramp(f.longestRunSeconds, 0.35, 0.2)
        door = novel * impulsive * max(slam, knock)
        // A near, loud slam rattles and rings above the floor for most of a second, but it
        // is at full strength (within 10 dB of its peak) only for its first tens of ms. So
        // is a drum hit: the classifier takes it for a slam only when no hit follows it.
        slamHit = novel * ramp(f.onsetDb, 8, 14) * loud * ramp(f.loudRunSeconds, 0.15, 0.1) * slam

        // Infant cry: sustained, strongly harmonic phonation with f0 300–700 Hz and energy
        // in the cry formants (Zeskind & Lester 2001; LaGasse et al. 2005).
        babyCry = audible * ramp(f.voicedFraction, 0.6, 0.85) * ramp(f.harmonicity, 0.6, 0.8)
            * band(f.f0Hz, 320, 700, soft: 40) * ramp(f.longestRunSeconds, 0.2, 0.4) * ramp(cryShare, 0.5, 0.7)
            * ramp(f.tonalStability, 0.65, 0.45)         // a cry's pitch moves; a ringer's does not
            * ramp(f.loudRunSeconds, 0.15, 0.25)         // and it holds its full strength, a bark does not

        // Scream: loud, voiced but rough, with its energy concentrated at 600–4000 Hz
        // where the ear is most sensitive (Hansen et al. 2017, "The acoustics of screams").
        scream = novel * ramp(f.peakSnrDb, 12, 18) * ramp(x[3] + x[4] + x[5], 0.55, 0.8) * ramp(f.voicedFraction, 0.4, 0.6)
            * ramp(f.longestRunSeconds, 0.2, 0.35) * ramp(f.centroidHz, 650, 800) * ramp(f.harmonicity, 0.5, 0.6)
            * ramp(f.loudRunSeconds, 0.2, 0.3)          // one sustained shout, not a laugh's "ha"s
            * ramp(x[6] + x[7], 0.2, 0.15)              // a voice has little above 4 kHz; a ringtone's partials go on

        // Gasp: a sudden, loud inhalation through an open glottis: it starts abruptly
        // (what tells it from a calm breath), is breathy — turbulent noise with at most a
        // weak voice in it — for 0.3–1.5 s. The open vocal tract shapes it: its centroid
        // lies among the low formants (1–1.7 kHz), below a plain breath's hiss or the
        // shards of breaking glass, which have most of their energy above 2 kHz.
        gasp = novel * ramp(f.peakSnrDb, 14, 20) * ramp(f.onsetDb, 5, 8) * ramp(f.flatness, 0.12, 0.18)
            * band(f.harmonicity, 0.3, 0.66, soft: 0.1) * ramp(f.longestRunSeconds, 0.3, 0.45)
            * band(f.centroidHz, 1000, 1700, soft: 250) * ramp(x[6] + x[7], 0.4, 0.25)
            * ramp(f.loudRunSeconds, 0.12, 0.18)   // it holds its strength; a slam or a drum hit dies at once

        // Speech: voiced segments with f0 85–320 Hz (adult and child voices), energy in
        // 150–1200 Hz, usually broken by pauses and consonants (syllable rate 2–8 Hz;
        // Houtgast & Steeneken 1985), though one window may hold a single long vowel.
        // (A low male voice has its fundamental below 150 Hz, so all of 0–1200 Hz counts.)
        speech = audible * ramp(f.voicedFraction, 0.5, 0.75) * band(f.f0Hz, 85, 320, soft: 60)
            * ramp(x[0] + voiceShare, 0.6, 0.8) * (0.6 + 0.4 * max(ramp(Float(f.bursts), 1, 2), ramp(f.modulation, 0.3, 0.5)))
            * ramp(f.harmonicity, 0.64, 0.74) * (1 - deep)
            * ramp(x[3], 0.65, 0.45)                    // a voice's energy lies mostly below 600 Hz

        // Laughter: a run of short voiced bursts ("ha-ha-ha", ~4–5 per second) with
        // f0 200–500 Hz (Bachorowski et al. 2001). Much laughter is breathy, unvoiced
        // snorts and pants between the voiced calls, so a third of the window voiced will do.
        // A near laugh may not dip into the floor between its "ha"s, but it returns to
        // its full strength at each.
        laughter = novel * audible * ramp(Float(max(f.bursts, f.loudBursts)), 2, 4) * ramp(f.voicedFraction, 0.3, 0.55)
            * band(f.f0Hz, 200, 500, soft: 50) * ramp(x[3] + x[4], 0.4, 0.7)

        // Breath: a soft, aperiodic (noisy) burst of 0.3–2.5 s with most of its excess at
        // 0.6–6 kHz and no sharp onset; `BreathTrain` turns a rhythm of them into breathing.
        breathing = ramp(f.peakSnrDb, 6, 10) * ramp(f.harmonicity, 0.65, 0.45) * ramp(f.flatness, 0.05, 0.09)
            * ramp(x[3] + x[4] + x[5] + x[6], 0.4, 0.6) * band(f.longestRunSeconds, 0.3, 2.5, soft: 0.15)
            * ramp(f.onsetDb, 12, 8) * ramp(lowShare, 0.25, 0.12)   // airflow noise has no rumble below 300 Hz
            * ramp(f.flutter, 0.32, 0.22)                            // nor a snore's flutter

        // A heavy breath: loud, breathy and unhurried, 0.2–1 s. One alone could be a gasp;
        // a rhythm of them (`BreathTrain`) is laboured breathing.
        heavyBreath = ramp(f.peakSnrDb, 14, 20) * ramp(f.flatness, 0.1, 0.16) * ramp(f.harmonicity, 0.75, 0.55)
            * band(f.longestRunSeconds, 0.2, 0.9, soft: 0.2) * ramp(f.onsetDb, 14, 8)

        // Snore: a burst of low-frequency (< 300 Hz) energy standing well out of the floor,
        // from the vibrating soft palate: rough and aperiodic or with a very low, jittery
        // pulse rate (20–80 Hz, below the pitch range), so harmonicity stays low
        // (Pevernagie et al. 2010); when nearly all of it lies below 300 Hz, a 32 ms frame
        // holds too few cycles for harmonicity to mean anything (see thunder), as through a
        // small microphone that passes nothing below 120 Hz. Cartoon and real snores add
        // broadband flutter noise, so only a part of the excess needs to be low.
        // The flutter also chops the sound's envelope into pulses at 30–150 Hz, which a
        // small microphone that does not pass the pulse rate itself still hears.
        let fluttering = ramp(f.flutter, 0.22, 0.32)
        snore = ramp(max(f.excessDb[0], f.excessDb[1]), 11, 16) * max(ramp(f.harmonicity, 0.72, 0.55), allLow)
            * max(ramp(lowShare, 0.12, 0.3), fluttering) * ramp(f.activeFraction, 0.1, 0.25)
            * ramp(f.tonalFraction, 0.35, 0.15)         // flapping tissue draws no steady spectral line
        // A snore's flutter is broadband too, but its low-frequency burst is not a shatter;
        // nor does a snore rise as far over the floor at 2.4–6 kHz as below it.
        glassBreak = novel * max(shatter * (1 - snore), whiteCrash) * (1 - toneLine)

        // Thunder: loud noise with no pitch or tonal lines (which music has), its energy
        // low: a distant rumble below 300 Hz, a near clap spread over 150 Hz–1.2 kHz (with
        // more at 0.3–1.2 kHz than a snore has) and little above 2.4 kHz, as air absorbs
        // the highs. `Rumble` judges its duration and decay, which tell it from a thump.
        // Below ~200 Hz (`deep`) a 32 ms frame holds only a few cycles, so band-limited noise looks
        // periodic to the autocorrelation: a deep rumble (centroid < 200 Hz, or nearly all
        // of it below 300 Hz, as through a small microphone that passes nothing below
        // 120 Hz) may seem "harmonic" and still be noise. What a bass note has and a rumble lacks is a
        // stable line among its harmonics above 300 Hz.
        let rumbling = max(ramp(lowShare, 0.7, 0.9),
                           ramp(lowShare + x[2] + x[3], 0.75, 0.85) * ramp(x[2] + x[3], 0.3, 0.4)
                               * ramp(f.centroidHz, 1100, 900))
        thunder = ramp(f.peakSnrDb, 12, 18) * rumbling
            * max(ramp(f.harmonicity, 0.65, 0.45), deep, allLow) * ramp(f.tonalFraction, 0.3, 0.1)

        // Music: continuous, tonal or harmonic sound with no pauses: it holds the whole
        // window without one dip to the floor, where running speech, however fluent, dips
        // between words (the longest unbroken run of a speech window is ~0.6 s).
        // (A deep rumble's apparent harmonicity is no evidence of notes, see thunder.)
        music = audible * ramp(f.activeFraction, 0.75, 0.95) * ramp(f.longestRunSeconds, 0.8, 0.95)
            * max(ramp(f.harmonicity, 0.55, 0.7) * (1 - deep), ramp(f.tonalFraction, 0.3, 0.6))

        // A beat: continuous sound (a drum loop dips between hits, but only for a few
        // frames) with a sharp attack in it (drums, a bass line), which
        // only music keeps up for seconds on end; speech pauses, thunder rolls without
        // new attacks of this strength. `Beat` judges it over seconds.
        beat = audible * ramp(f.activeFraction, 0.75, 0.9) * ramp(f.onsetDb, 7, 10)
    }
}
