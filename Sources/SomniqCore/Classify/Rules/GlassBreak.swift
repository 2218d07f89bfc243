/// Breaking glass: an impulsive, broadband crash with most energy above 2.4 kHz and a high
/// zero-crossing rate: shards ring at 3–8 kHz, so a good part of it lies above 4 kHz, where
/// a knock on wood (1.2–4 kHz) has little. A shatter also radiates as strongly at 2.4–6 kHz
/// as anywhere below: a noise-like burst (flat spectrum) that rises as far over the floor
/// there as in its strongest lower band, even when a thud of the frame carries most of the
/// power (a white crash). A knock or a slam falls away above 2–4 kHz, and is less noise-like.
///
/// Across windows a `Hold` of `hold` windows carries it through the falling, ringing shards.
/// A crash is loudest at its onset: a sound that swells to its peak (a breath, a snore) is
/// not one, nor (in the arbitration) is a burst that brings a voice's line with it (a
/// cough's voiced phase). A steady line (a beep or a ringer) and a snore's broadband flutter are not a shatter;
/// in the arbitration an alarm or a ringer suppresses it; it suppresses a door and a gasp.
enum GlassBreak {
    /// Windows the Classifier's `Hold` carries a crash on while sound goes on without a new attack.
    static let hold = 3
    /// Shatter: an onset of 5–10 dB within 47 ms …
    static let shatterRiseDb: ClosedRange<Float> = 5...10
    /// … with 35–60 % of the energy above the floor above 2.4 kHz …
    static let shareAbove2k4: ClosedRange<Float> = 0.35...0.6
    /// … a zero-crossing rate of 0.2–0.3 (noise-like, high frequencies) …
    static let zeroCrossingRate: ClosedRange<Float> = 0.2...0.3
    /// … and 12–22 % of it above 4 kHz, where shards ring and a knock on wood has little.
    static let shareAbove4k: ClosedRange<Float> = 0.12...0.22
    /// White crash: a sharp onset, a rise of 10–14 dB within 47 ms …
    static let crashRiseDb: ClosedRange<Float> = 10...14
    /// … a flat, noise-like spectrum (spectral flatness 0.29–0.32) …
    static let crashFlatness: ClosedRange<Float> = 0.29...0.32
    /// … standing as far over the floor at 2.4–6 kHz as in its strongest band below 2.4 kHz:
    /// the weaker of 2.4–4 and 4–6 kHz falls short of that by at most 3.4–4 dB …
    static let topRiseDb: ClosedRange<Float> = -4 ... -3.4
    /// … and lasting at least 80–120 ms (a click is shorter).
    static let crashSeconds: ClosedRange<Float> = 0.08...0.12
    /// A shatter is noise (spectral flatness above 0.04–0.08), not a frog's tonal croak …
    static let shatterFlatness: ClosedRange<Float> = 0.04...0.08
    /// … and goes on as its shards fall and ring, an active run of 0.12–0.2 s or more,
    /// longer than the 10–30 ms of a clock's tick or a drip.
    static let shatterSeconds: ClosedRange<Float> = 0.12...0.2
    /// Glass fails at once (a brittle fracture runs at about 1.5 km/s): the crash is loudest
    /// at its onset and falls as the shards fall, reaching within 3 dB of its peak in
    /// 0.1–0.2 s at most. A breath or a snore swells to its peak over 0.2–0.6 s.
    static let attackSeconds: ClosedRange<Float> = 0.1...0.2
    /// Shards are small: they ring at 3–8 kHz, far above the lines of a voice. A thin strip
    /// of length L and thickness h, simply supported, rings first at (π/2)(h/L²)·√(E/12ρ(1−ν²))
    /// (a square plate's first mode, Kirchhoff plate theory, is twice as high); for window or drinking glass (E 70 GPa, ρ 2500 kg/m³, ν 0.22) that
    /// is about 74,000/L² Hz with L in cm, for h = 3 mm: shards of 3–5 cm ring at 3–8 kHz,
    /// and a line below 0.8–1.2 kHz would need a shard 8–10 cm across or more (its higher
    /// modes ring above it). On the corpus the lines of breaking glass lie at
    /// 1.9–6.6 kHz (`somniq features`, every window of a true glass event in tune/, check/,
    /// scenes/ and the mixed fold 3–4 nights that held one). A line in
    /// 5–15 % or more of the active frames that lies below 0.8–1.2 kHz, where the window 1 s
    /// before held no line in 5 % of its frames or more, comes with the burst: a voice's
    /// harmonic (a cough's voiced phase, Korpáš et al. 1996), not a shard ringing. Where the
    /// room held such a line already (a clock's ring, a hum), it says nothing of the burst:
    /// the window 1 s before held a line in 5 % of its frames or more, itself below
    /// 0.8–1.2 kHz (a beep at 3 kHz does not explain a line at 380 Hz), in a window that did
    /// not stand out of what the room usually reaches (`Cues.noveltyDb`). A line in a window
    /// that stood out came with that window's own sound (the first cough of a bout, whose
    /// voiced phase is the same voice as the second's) and is not the room's.
    static let lowLineFraction: ClosedRange<Float> = 0.05...0.15
    static let lowLineHz: ClosedRange<Float> = 800...1200
    /// A crash is broadband, however bright: its shards ring over 3–8 kHz and its impact
    /// sounds below, so it puts little more of its power at 6–8 kHz than white noise spread
    /// over 0–8 kHz does (a quarter): 26 % at most in every window of true glass the rule
    /// hears in tune/ (fitted there). A hiss through the teeth, a gasp or a breath drawn as a
    /// fricative, peaks there, as /s/ does at 6–7 kHz (Jongman, Wayland & Wong 2000): a
    /// game's gasp that check/ and the mixed fold 3–4 nights heard as breaking glass at up
    /// to 1.0 puts 44–61 % there. At most 30–40 % of the energy above the floor at 6–8 kHz.
    static let shareAbove6k: ClosedRange<Float> = 0.3...0.4

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float { instant(f, cue, snore: Snoring.instant(f, cue)) }

    /// `snore`: the window's snore rule, already judged.
    static func instant(_ f: WindowFeatures, _ cue: Cues, snore: Float) -> Float {
        let topRise = min(f.rise(.piezo), f.rise(.lowerHiss)) - f.highestRise(.belowPiezo)
        let whiteCrash = ramp(f.onsetDb, up: crashRiseDb) * cue.loud * ramp(f.flatness, up: crashFlatness) * ramp(topRise, up: topRiseDb)
            * ramp(f.longestRunSeconds, up: crashSeconds)
        let shatter = ramp(f.onsetDb, up: shatterRiseDb) * cue.loud * ramp(f.share(.bright), up: shareAbove2k4)
            * ramp(f.zcr, up: zeroCrossingRate) * ramp(f.share(.hiss), up: shareAbove4k)
            * ramp(f.flatness, up: shatterFlatness) * ramp(f.longestRunSeconds, up: shatterSeconds)
        // A snore's flutter is broadband too, but its low-frequency burst is not a shatter;
        // nor does a snore rise as far over the floor at 2.4–6 kHz as below it.
        return cue.novel * max(shatter * (1 - snore), whiteCrash) * (1 - cue.toneLine) * ramp(f.attackSeconds, down: attackSeconds)
            * ramp(f.share(.upperHiss), down: shareAbove6k)
    }

    /// How much the window's burst brings a voice's line with it (`lowLineHz`), given the
    /// window 1 s before it (nil at the start of the stream): a cough, not glass.
    static func voiceLine(_ f: WindowFeatures, before: WindowFeatures?) -> Float {
        let line = ramp(f.tonalFraction, up: lowLineFraction) * ramp(f.tonalHz, down: lowLineHz)
        guard let b = before, b.tonalFraction >= lowLineFraction.lowerBound else { return line }
        let rooms = ramp(b.tonalHz, down: lowLineHz) * ramp(b.noveltyDb, down: Cues.noveltyDb)
        return line * (1 - rooms)
    }
}
