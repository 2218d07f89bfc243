import RealModule

/// The alarm battery: smoke and CO alarms across the whole space the standards allow
/// (pattern, pitch, waveform, level, in-band SNR, room, background), and sounds that must
/// not be taken for one. Deterministic: case `i` of seed `s` is always the same samples,
/// and does not depend on the other cases.
public struct Battery: Sendable {
    public static let sampleRate = 16_000.0

    /// Background loops by kind, 16 kHz mono.
    public let backgrounds: [String: [[Float]]]
    /// Every kind a case's background is dealt from: the synthetic ones and each loop kind.
    public let kinds: [String]

    public init(backgrounds: [String: [[Float]]]) {
        self.backgrounds = backgrounds.filter { !$0.value.isEmpty }
        kinds = Array(Set(Background.syntheticKinds).union(self.backgrounds.keys)).sorted()
    }

    /// Families in the proportions they are dealt: T3 35 %, T4 25 %, the 520 Hz T3 of
    /// NFPA 72's low-frequency sounder 20 % (about 1 case in 5), a continuous horn 10 %
    /// and steady beeping 10 %.
    public static let familyDeck: [String] = Array(repeating: "t3", count: 7) + Array(repeating: "t4", count: 5)
        + Array(repeating: "t3-520", count: 4) + ["continuous", "continuous", "steady-beep", "steady-beep"]

    /// Fundamental of a T3/T4 sounder: piezo discs ring at 2-4.5 kHz, speakers and
    /// electromagnetic sounders down to 400 Hz.
    public static let pitchRange = 400.0...4500.0
    /// NFPA 72 §18.4.6.3: the low-frequency sounder for sleeping areas, 520 Hz ±10 %.
    public static let lowFrequency = (520.0 * 0.9)...(520.0 * 1.1)
    /// The piezo of a continuous horn or a steady beeper.
    public static let piezoRange = 2000.0...4500.0

    /// The alarm's peak, dBFS: from barely above a quiet room's floor to just below full scale.
    public static let peakRange = -60.0...(-1.0)
    /// One case in 8 is driven past full scale by this much and hard-clipped.
    public static let clippedShare = 1.0 / 8.0
    public static let clippedPeakRange = 3.0...12.0
    /// In-band SNR the detector is held to, dB; and the share of cases below it.
    public static let snrRange = 6.0...40.0
    public static let belowSpecShare = 0.1
    public static let belowSpecRange = 3.0...6.0
    public static let roomShare = 0.5
    /// Background before and after the alarm, seconds.
    public static let before = 3.0...8.0
    public static let after = 3.0...5.0
    /// Dither under everything, dBFS RMS: nothing is digital silence.
    public static let ditherDbfs = -100.0
    /// A mix that would pass full scale (and is not meant to clip) is turned down to this.
    public static let loudestPeakDbfs = -1.0

    enum Stream: UInt64 { case alarm = 1, family, alarmBackground, lookalike, lookalikeKind, lookalikeBackground }

    /// Alarm case `i` of the run seeded `seed`.
    public func alarmCase(_ i: Int, seed: UInt64) -> BatteryCase {
        render(alarmRecipe(i, seed: seed))
    }

    /// What alarm case `i` of seed `seed` will be, drawn but not yet rendered (cheap: to
    /// pick cases by their parameters).
    public func alarmRecipe(_ i: Int, seed: UInt64) -> AlarmRecipe {
        var rng = SplitMix64(seed: seed, stream: Stream.alarm.rawValue, index: i)
        let family = deal(Self.familyDeck, index: i, seed: seed, stream: Stream.family.rawValue)
        let kind = deal(kinds, index: i, seed: seed, stream: Stream.alarmBackground.rawValue)
        let pattern: AlarmPattern
        var tone: Tone
        switch family {
        case "t3", "t4", "t3-520":
            pattern = family == "t4" ? .t4(&rng) : .t3(&rng)
            let f = family == "t3-520" ? rng.uniform(Self.lowFrequency) : rng.logUniform(Self.pitchRange)
            tone = Tone(frequency: f, waveform: .draw(&rng), motion: .steady, ramp: 0)
        default:
            pattern = family == "continuous" ? .continuous(&rng) : .steadyBeep(&rng)
            tone = Tone(frequency: rng.logUniform(Self.piezoRange), waveform: .drawPiezo(&rng), motion: .steady, ramp: 0)
        }
        tone.motion = .draw(&rng)
        tone.ramp = rng.uniform(Tone.rampRange)
        let clipped = rng.chance(Self.clippedShare)
        let peak = clipped ? rng.uniform(Self.clippedPeakRange) : rng.uniform(Self.peakRange)
        let belowSpec = rng.chance(Self.belowSpecShare)
        let snr = belowSpec ? rng.uniform(Self.belowSpecRange) : rng.uniform(Self.snrRange)
        let room = rng.chance(Self.roomShare) ? Room.draw(&rng) : nil
        let pre = Int(rng.uniform(Self.before) * Self.sampleRate), post = Int(rng.uniform(Self.after) * Self.sampleRate)
        return AlarmRecipe(index: i, seed: seed, family: family, background: kind, pattern: pattern, tone: tone,
                           peakDbfs: peak, clipped: clipped, snrDb: snr, belowSpec: belowSpec, room: room,
                           pre: pre, post: post, rng: rng)
    }

    /// The recording `recipe` describes.
    public func render(_ r: AlarmRecipe) -> BatteryCase {
        let fs = Self.sampleRate
        var dry = [Float](repeating: 0, count: Int((r.pattern.span * fs).rounded(.up)) + 1)
        var active: [Range<Int>] = []
        for p in r.pattern.pulses {
            let start = Int((p.start * fs).rounded())
            r.tone.add(into: &dry, start: start, duration: p.duration)
            active.append(start..<min(dry.count, start + Int((p.duration * fs).rounded())))
        }
        var rng = r.rng
        let mix = Mixer(pre: r.pre, post: r.post, peakDbfs: r.peakDbfs, clipped: r.clipped, snrDb: r.snrDb,
                        band: r.tone.frequency, room: r.room, kind: r.background)
            .mix(dry, active: active, backgrounds: backgrounds, rng: &rng)

        // The label is sample-exact: the first pulse's first sample to the last pulse's end.
        let sounding = active.map { (r.pre + $0.lowerBound)..<(r.pre + $0.upperBound) }
        let onset = Double(sounding.first!.lowerBound) / fs, offset = Double(sounding.last!.upperBound) / fs
        var name = "\(r.family) \(Int(r.tone.frequency.rounded()))Hz \(r.tone.waveform.label)"
        if r.tone.motion != .steady { name += " \(r.tone.motion.label)" }
        if r.room != nil { name += " room" }
        name += " \(r.background) snr\(Int(r.snrDb.rounded())) peak\(Int(mix.peakDbfs.rounded()))"
        if r.clipped { name += " clipped" }
        if r.belowSpec { name += " below-spec" }
        let parameters = [
            "alarm \(r.index) of seed \(r.seed)",
            r.pattern.parameters + (r.pattern.edgeDraws > 0 ? " [\(r.pattern.edgeDraws) at the edge]" : ""),
            "\(fixed(r.tone.frequency, 1)) Hz \(r.tone.waveform.parameters), \(r.tone.motion.parameters), ramps \(fixed(r.tone.ramp * 1000, 1)) ms",
            mix.parameters,
            "label \(fixed(onset, 3))-\(fixed(offset, 3)) s of \(fixed(Double(mix.samples.count) / fs, 3)) s",
        ].joined(separator: "; ")
        return BatteryCase(index: r.index, seed: r.seed, name: name, isAlarm: true, family: r.family, samples: mix.samples,
                           labels: [(onset, offset)], sounding: sounding, fundamental: r.tone.frequency,
                           inBandSnrDb: r.snrDb, peakDbfs: mix.peakDbfs, clipped: r.clipped, belowSpec: r.belowSpec,
                           groupPeriod: r.pattern.groupPeriod, edgeDraws: r.pattern.edgeDraws,
                           background: r.background, parameters: parameters)
    }
}
