/// Door: a short, sharp burst (`Cues.impulsive`) that is either a slam, an impact with no
/// pitch that is not a high-pitched crash, or knocking, a run of short raps whose ringing
/// (wood, 1.2–4 kHz) may look pitched.
///
/// Across windows a `Hold` of `hold` window carries it while the sound goes on; the
/// Classifier also takes a loud `slamHit` for a slam when no new attack follows it, and a
/// sound that runs into a slam for the door's swing. In the arbitration an alarm, a ringer,
/// a snore train or breathing rhythm and breaking glass suppress it; it suppresses a cough.
enum Door {
    /// Windows the Classifier's `Hold` carries a door on while sound goes on without a new attack.
    static let hold = 1
    /// A slam has no pitch: harmonicity at most 0.45–0.62 …
    static let slamHarmonicity: ClosedRange<Float> = 0.45...0.62
    /// … and few frames with a clear pitch: at most 50–75 % of the active frames voiced. A
    /// panel struck rings in inharmonic modes; a cough, a laugh or a bark that starts as
    /// abruptly is voiced through most of its burst.
    static let slamVoicedFraction: ClosedRange<Float> = 0.5...0.75
    /// An impact is at full strength (within 10 dB of its peak) only while it strikes and
    /// its panel first rings: at most 0.2–0.4 s. A breath or a voice holds it for longer.
    static let slamLoudRunSeconds: ClosedRange<Float> = 0.2...0.4
    /// … and is not a high-pitched crash: at most 50–70 % of its energy above 2.4 kHz.
    static let slamShareAbove2k4: ClosedRange<Float> = 0.5...0.7
    /// Knocking: 1–3 separate bursts in the window …
    static let knockBursts: ClosedRange<Float> = 1...3
    /// … 50–70 % of the energy at 1.2–4 kHz, where wood rings …
    static let knockShare: ClosedRange<Float> = 0.5...0.7
    /// … each rap short: the longest run at most 0.2–0.35 s.
    static let knockSeconds: ClosedRange<Float> = 0.2...0.35
    /// A near, loud slam rattles and rings above the floor for most of a second, but it is
    /// at full strength (within 10 dB of its peak) only for its first tens of ms: at most
    /// 0.1–0.15 s. So is a drum hit.
    static let hitLoudRunSeconds: ClosedRange<Float> = 0.1...0.15

    static func instant(_ f: WindowFeatures, _ cue: Cues) -> Float {
        let knock = ramp(Float(f.bursts), up: knockBursts) * ramp(f.share(.knock), up: knockShare)
            * ramp(f.longestRunSeconds, down: knockSeconds)
        return cue.novel * cue.impulsive * max(slam(f), knock)
    }

    /// A loud slam that rings on: the Classifier takes it for a slam only when no hit
    /// follows it (drums go on).
    static func slamHit(_ f: WindowFeatures, _ cue: Cues) -> Float {
        cue.novel * cue.sharpOnset * cue.loud * ramp(f.loudRunSeconds, down: hitLoudRunSeconds) * slam(f)
    }

    /// An impact with no pitch, not a high-pitched crash.
    private static func slam(_ f: WindowFeatures) -> Float {
        ramp(f.harmonicity, down: slamHarmonicity) * ramp(f.voicedFraction, down: slamVoicedFraction)
            * ramp(f.loudRunSeconds, down: slamLoudRunSeconds) * (1 - ramp(f.share(.bright), up: slamShareAbove2k4))
    }
}
