/// Scream: loud, voiced but rough, with its energy concentrated at 600–4000 Hz where the
/// ear is most sensitive (Hansen et al. 2017, "The acoustics of screams") — a shriek; or a
/// shout, one vowel held at a raised pitch without speech's syllable rhythm, however low
/// its spectrum (a man's yell as he falls).
///
/// Across windows a `Hold` of `hold` windows carries it while the shout goes on, with no
/// tail: a scream is cut off, not dying away. In the arbitration a cry just before it or a
/// new cry call after it (one that opens with its own attack or after a pause: a held
/// scream's falling end may sound like a cry), an alarm and a ringer suppress it (a scream
/// that opens on a steady vowel is not taken for a ringer when the scream follows).
enum Scream {
    /// Windows the Classifier's `Hold` carries a scream on while the shout goes on …
    static let hold = 2
    /// … and none after it stops.
    static let holdsTail = false
    /// 55–80 % of the energy above the floor at 600–4000 Hz.
    static let shareOf600To4k: ClosedRange<Float> = 0.55...0.8
    /// Voiced (a clear pitch) in 40–60 % of the active frames: voiced but rough.
    static let voicedFraction: ClosedRange<Float> = 0.4...0.6
    /// A run of sound of at least 0.2–0.35 s.
    static let longestRunSeconds: ClosedRange<Float> = 0.2...0.35
    /// A spectral centroid above 650–800 Hz: shriller than speech.
    static let centroidHz: ClosedRange<Float> = 650...800
    /// Harmonicity of at least 0.5–0.6.
    static let harmonicity: ClosedRange<Float> = 0.5...0.6
    /// At full strength (within 10 dB of its peak) for 0.2–0.3 s at a stretch: one
    /// sustained shout, not a laugh's "ha"s.
    static let loudRunSeconds: ClosedRange<Float> = 0.2...0.3
    /// A voice, however shrill, has at most 15–20 % of its energy above 4 kHz; a ringtone's
    /// partials go on up.
    static let shareAbove4k: ClosedRange<Float> = 0.15...0.2
    /// A shriek is pitched above every speaking voice: adults speak at up to 255 Hz (women
    /// 165–255 Hz, Titze 1994, "Principles of Voice Production"), children higher (264 Hz
    /// on average, Peterson & Barney 1952; the speech rule's range ends at 320 Hz), and a
    /// shriek's vocal effort raises it beyond: an f0 over 300–350 Hz. A young child's
    /// talking may still reach 350–400 Hz; there its syllables (`heldModulation`) and the
    /// speech around it tell it from a scream. Speech on a television, a glass's ringing
    /// partials (read as a voice at 313 Hz on the fold 3–4 nights) and music read as voiced
    /// at 600–4000 Hz too, at a speaking pitch …
    static let shriekF0Hz: ClosedRange<Float> = 300...350
    /// … unless it is held on one vowel, as a man's lower scream is: at most 20–30 % of the
    /// envelope's variance at 2–8 Hz, where speech's syllables (3–8 a second; Houtgast &
    /// Steeneken 1985) and a tune's notes put much of theirs …
    static let heldModulation: ClosedRange<Float> = 0.2...0.3
    /// … or at full strength for 0.6–0.8 s at a stretch, longer than a syllable lasts (a
    /// syllable takes 0.2 s on average and seldom more than 0.5 s; Greenberg 1999).
    static let heldLoudSeconds: ClosedRange<Float> = 0.6...0.8
    /// A held scream is still raised by its effort above where its voice speaks: its f0
    /// lies above 120–150 Hz, from men's average speaking pitch (about 120 Hz) to near the
    /// top of their range (85–155 Hz, Titze 1994). A note held at 120 Hz (a bass or synth
    /// line, a hum) is no scream, however steady. Not higher: a scream is rough (fast
    /// amplitude modulation at 30–150 Hz, Arnal et al. 2015), and a pitch track may follow
    /// it an octave down, as it reads a scream at 290–400 Hz as 143–150 Hz on the fold 3–4
    /// nights.
    static let heldF0Hz: ClosedRange<Float> = 120...150
    /// A held scream is a voice, and a voice's pitch is never steady: its period wanders
    /// from cycle to cycle (jitter: about 0.2–1 % in healthy sustained vowels, with 1.04 %
    /// the usual limit of normal; Teixeira et al. 2013, "Vocal acoustic analysis – jitter,
    /// shimmer and HNR parameters") and drifts with vocal tremor. A synthesiser's note and a
    /// ringer's tone hold theirs exactly, whatever their timbre: a pitch moving by at least
    /// 0.3–0.45 % from one frame to the next (`WindowFeatures.f0Wobble`, frames of several
    /// cycles each: drift, tremor and what of the jitter they leave; where too few frames are
    /// voiced in a row to measure it, it takes nothing away). Fitted on tune/:
    /// its ringers and synth notes read 0.12–0.33 % (this estimator's own noise in the mix),
    /// its steadiest held scream 0.50 %.
    static let heldWobble: ClosedRange<Float> = 0.003...0.0045

    /// A shout (a falling man's yell): one sustained vowel at a raised pitch, as speech
    /// never holds one. f0 above 200–250 Hz (a man's speaking voice is at 85–155 Hz and
    /// rises with vocal effort) …
    static let shoutF0Hz: ClosedRange<Float> = 200...250
    /// … voiced in 70–90 % of the active frames …
    static let shoutVoicedFraction: ClosedRange<Float> = 0.7...0.9
    /// … at full strength for 0.5–0.7 s at a stretch …
    static let shoutLoudRunSeconds: ClosedRange<Float> = 0.5...0.7
    /// … with little of speech's syllable rhythm: at most 25–40 % of the envelope's variance
    /// at 2–8 Hz.
    static let shoutModulation: ClosedRange<Float> = 0.25...0.4

    /// A scream is one sustained call; a laugh is a train of short calls, about 0.2 s each at
    /// 4–5 a second, each at full strength (Bachorowski et al. 2001), its last call sometimes
    /// held as long as a scream is. A window with 2–3 or more separate runs of sound that each
    /// return to full strength (`bursts`, `loudBursts`) …
    static let trainCalls: ClosedRange<Float> = 2...3
    /// … whose rhythm carries 45–55 % or more of the envelope's variance at 2–8 Hz holds a
    /// train of calls, not a scream. Fitted on tune/: its windows of three such calls the
    /// scream rule hears are a baby's cries, at 0.52–0.83; it holds no scream of three.
    static let trainModulation: ClosedRange<Float> = 0.45...0.55
    /// … when the laughter rule hears a laugh in it too, 0.3–0.5 (the laugh that was heard as a
    /// scream on the mixed nights scored 0.50): "help! help! help!" is a train of calls as
    /// well, each call a scream.
    static let trainLaughter: ClosedRange<Float> = 0.3...0.5

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        max(shriek(f, cue), shout(f, cue))
    }

    /// How much the window holds a train of calls (a laugh's "ha-ha-ha") rather than one call.
    static func callTrain(_ f: WindowFeatures) -> Float {
        ramp(Float(min(f.bursts, f.loudBursts)), up: trainCalls) * ramp(f.modulation, up: trainModulation)
    }

    private static func shout(_ f: WindowFeatures, _ cue: Cues) -> Float {
        cue.novel * cue.loud * ramp(f.f0Hz, up: shoutF0Hz) * ramp(f.voicedFraction, up: shoutVoicedFraction)
            * ramp(f.loudRunSeconds, up: shoutLoudRunSeconds) * ramp(f.modulation, down: shoutModulation)
            * ramp(f.harmonicity, up: harmonicity) * ramp(f.share(.hiss), down: shareAbove4k) * (1 - cue.deep)
    }

    private static func shriek(_ f: WindowFeatures, _ cue: Cues) -> Float {
        let held = max(ramp(f.modulation, down: heldModulation), ramp(f.loudRunSeconds, up: heldLoudSeconds)) * ramp(f.f0Hz, up: heldF0Hz)
            * (f.f0Wobble < 0 ? 1 : ramp(f.f0Wobble, up: heldWobble))
        let screamed = max(ramp(f.f0Hz, up: shriekF0Hz), held)
        return cue.novel * cue.loud * screamed * ramp(f.share(.shriek), up: shareOf600To4k) * ramp(f.voicedFraction, up: voicedFraction)
            * ramp(f.longestRunSeconds, up: longestRunSeconds) * ramp(f.centroidHz, up: centroidHz) * ramp(f.harmonicity, up: harmonicity)
            * ramp(f.loudRunSeconds, up: loudRunSeconds)
            * ramp(f.share(.hiss), down: shareAbove4k)
    }
}
