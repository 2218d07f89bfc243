import RealModule

/// Sounds of a bedroom that beep, ring, whistle or hold a tone and are not a smoke or CO
/// alarm: none may raise `smoke_alarm`. Each is drawn whole from the seed, 20-60 s long
/// (the low-battery chirp as long as its 3 chirps need), at a peak of -55..-5 dBFS over
/// a background as the alarms have, at 10-35 dB SNR (RMS while it sounds over the
/// background's RMS, full band), half of them through a room.
extension Battery {
    public static let lookalikeKinds = ["clock-melody", "clock-beeps", "phone-ring", "microwave", "washer-tune",
                                        "low-battery-chirp", "music", "wind-whistle", "mains-hum", "voice",
                                        "clock-tick", "compressor", "reversing-beeper", "fan-beat"]
    public static let lookalikeLength = 20.0...60.0
    public static let lookalikePeak = -55.0...(-5.0)
    public static let lookalikeSnr = 10.0...35.0
    /// Background before and after a look-alike's sound, seconds.
    static let lookalikeMargin = 1.0...3.0

    /// Look-alike case `i` of the run seeded `seed`.
    public func lookalikeCase(_ i: Int, seed: UInt64) -> BatteryCase {
        var rng = SplitMix64(seed: seed, stream: Stream.lookalike.rawValue, index: i)
        let family = deal(Self.lookalikeKinds, index: i, seed: seed, stream: Stream.lookalikeKind.rawValue)
        let kind = deal(kinds, index: i, seed: seed, stream: Stream.lookalikeBackground.rawValue)
        let length = rng.uniform(Self.lookalikeLength)
        var s = Sketch(length: length - 2 * Self.lookalikeMargin.lowerBound)
        let what: String
        switch family {
        case "clock-melody": what = s.clockMelody(&rng)
        case "clock-beeps": what = s.clockBeeps(&rng)
        case "phone-ring": what = s.phoneRing(&rng)
        case "microwave": what = s.microwave(&rng)
        case "washer-tune": what = s.washerTune(&rng)
        case "low-battery-chirp": what = s.lowBatteryChirp(&rng)
        case "music": what = s.music(&rng)
        case "wind-whistle": what = s.windWhistle(&rng)
        case "mains-hum": what = s.mainsHum(&rng)
        case "clock-tick": what = s.clockTick(&rng)
        case "compressor": what = s.compressor(&rng)
        case "reversing-beeper": what = s.reversingBeeper(&rng)
        case "fan-beat": what = s.fanBeat(&rng)
        default: what = s.voice(&rng)
        }
        let peak = rng.uniform(Self.lookalikePeak), snr = rng.uniform(Self.lookalikeSnr)
        let room = rng.chance(Self.roomShare) ? Room.draw(&rng) : nil
        let pre = Int(rng.uniform(Self.lookalikeMargin) * Self.sampleRate)
        let post = Int(rng.uniform(Self.lookalikeMargin) * Self.sampleRate)
        let mix = Mixer(pre: pre, post: post, peakDbfs: peak, clipped: false, snrDb: snr, band: nil, room: room, kind: kind)
            .mix(s.samples, active: s.active, backgrounds: backgrounds, rng: &rng)
        var name = "\(family) \(what.split(separator: " ").first ?? "")"
        if room != nil { name += " room" }
        name += " \(kind) snr\(Int(snr.rounded())) peak\(Int(mix.peakDbfs.rounded()))"
        let parameters = ["look-alike \(i) of seed \(seed)", "\(family): \(what)", mix.parameters,
                          "\(fixed(Double(mix.samples.count) / Self.sampleRate, 3)) s"].joined(separator: "; ")
        return BatteryCase(index: i, seed: seed, name: name, isAlarm: false, family: family, samples: mix.samples,
                           labels: [], sounding: s.active.map { (pre + $0.lowerBound)..<(pre + $0.upperBound) },
                           fundamental: nil, inBandSnrDb: snr, peakDbfs: mix.peakDbfs, clipped: false, belowSpec: false,
                           groupPeriod: nil, edgeDraws: 0, background: kind, parameters: parameters)
    }
}

/// A look-alike's sound being drawn: its samples and the spans where it sounds.
struct Sketch {
    var samples: [Float]
    var active: [Range<Int>] = []
    let length: Double
    static let fs = Battery.sampleRate

    init(length: Double) {
        self.length = length
        samples = [Float](repeating: 0, count: Int(length * Self.fs))
    }

    /// Lengthens the sketch to hold `seconds`.
    mutating func reserve(_ seconds: Double) {
        let n = Int(seconds * Self.fs) + 1
        if n > samples.count { samples += [Float](repeating: 0, count: n - samples.count) }
    }

    /// A note of one or more simultaneous tones at `start` seconds.
    mutating func note(_ frequencies: [Double], at start: Double, for duration: Double, waveform: Waveform = .sine,
                       motion: PitchMotion = .steady, ramp: Double = 0.005, gain: Float = 1) {
        reserve(start + duration)
        let i = Int(start * Self.fs)
        var part = [Float](repeating: 0, count: Int(duration * Self.fs) + 1)
        for f in frequencies { Tone(frequency: f, waveform: waveform, motion: motion, ramp: ramp).add(into: &part, start: 0, duration: duration) }
        for j in part.indices where i + j < samples.count { samples[i + j] += gain * part[j] }
        active.append(i..<min(samples.count, i + part.count))
    }

    /// A digital alarm clock's tune: 6-12 notes of a pentatonic scale on 800-2000 Hz,
    /// square or sine, played over and over with a short breath between.
    mutating func clockMelody(_ rng: inout SplitMix64) -> String {
        let base = rng.uniform(800...2000), wave: Waveform = rng.chance(0.5) ? .square : .sine
        let scale = [0, 2, 4, 7, 9, 12, 14, 16].map { base * pow(2, Double($0) / 12) }
        let tune = (0..<rng.int(6...12)).map { _ in (rng.pick(scale), rng.uniform(0.1...0.35)) }
        let gap = rng.uniform(0.02...0.08), rest = rng.uniform(0.3...1.5)
        var t = 0.0, plays = 0
        while t < length - 1 {
            for (f, d) in tune where t + d < length { note([f], at: t, for: d, waveform: wave); t += d + gap }
            t += rest; plays += 1
        }
        return "\(fixed(base, 0))Hz \(wave.label) tune of \(tune.count) notes played \(plays) times, \(fixed(rest, 2)) s between"
    }

    /// An alarm clock's beeps that change: beep-beep-beep-beep groups with a pause under
    /// 1 s, piezo 2-4 kHz, every few seconds faster (or at another pitch).
    mutating func clockBeeps(_ rng: inout SplitMix64) -> String {
        var f = rng.uniform(2000...4000)
        let beep = rng.uniform(0.05...0.12), gap = rng.uniform(0.05...0.1)
        var pause = rng.uniform(0.5...0.95)
        let accelerates = rng.chance(0.5)
        let stage = rng.uniform(4...8)
        let wave = Waveform.drawPiezo(&rng)
        var t = 0.0, nextStage = stage, stages = 1
        while t < length - 1 {
            for _ in 0..<4 { note([f], at: t, for: beep, waveform: wave); t += beep + gap }
            t += pause
            if t >= nextStage {
                nextStage += stage; stages += 1
                if accelerates { pause = max(0.05, pause * 0.6) } else { f = min(4500, max(1500, f * rng.uniform(0.75...1.3))) }
            }
        }
        return "\(fixed(f, 0))Hz groups of 4 beeps \(fixed(beep, 2)) s, \(accelerates ? "pause shrinking from under 1 s" : "pitch changing") every \(fixed(stage, 1)) s (\(stages) stages)"
    }

    /// A telephone ringing: the US cadence (440 + 480 Hz, 2 s on, 4 s off), the UK one
    /// (400 + 450 Hz, 0.4 on 0.2 off 0.4 on 2 off), or an electronic ringer alternating two
    /// tones at 10-20 Hz.
    mutating func phoneRing(_ rng: inout SplitMix64) -> String {
        var t = 0.0
        switch rng.int(0...2) {
        case 0:
            while t < length - 2 { note([440, 480], at: t, for: 2, ramp: 0.01); t += 6 }
            return "US 440+480Hz 2 s on 4 s off"
        case 1:
            while t < length - 1 {
                note([400, 450], at: t, for: 0.4, ramp: 0.01); note([400, 450], at: t + 0.6, for: 0.4, ramp: 0.01); t += 3
            }
            return "UK 400+450Hz 0.4 on 0.2 off 0.4 on 2 off"
        default:
            let f1 = rng.uniform(800...2000), f2 = f1 * rng.uniform(1.2...1.5), rate = rng.uniform(10...20)
            let on = rng.uniform(1...2.5), off = rng.uniform(2...4)
            let wave: Waveform = rng.chance(0.5) ? .square : .sine
            while t < length - on {
                var u = 0.0
                var high = false
                while u < on { note([high ? f2 : f1], at: t + u, for: 0.5 / rate, waveform: wave, ramp: 0.002); u += 0.5 / rate; high.toggle() }
                t += on + off
            }
            return "electronic \(fixed(f1, 0))/\(fixed(f2, 0))Hz \(wave.label) alternating at \(fixed(rate, 1)) Hz, \(fixed(on, 1)) s on \(fixed(off, 1)) s off"
        }
    }

    /// A microwave oven's end-of-cooking beeps: three, once, 0.3-0.5 s each with 0.3-0.5 s
    /// gaps, 1-2 kHz (one T3 cycle's worth, never repeated).
    mutating func microwave(_ rng: inout SplitMix64) -> String {
        let f = rng.uniform(1000...2000), on = rng.uniform(0.3...0.5), off = rng.uniform(0.3...0.5)
        let wave: Waveform = rng.chance(0.5) ? .square : .sine
        let start = rng.uniform(1...max(1.5, length - 4))
        for k in 0..<3 { note([f], at: start + Double(k) * (on + off), for: on, waveform: wave) }
        return "\(fixed(f, 0))Hz \(wave.label) three beeps \(fixed(on, 2)) s on \(fixed(off, 2)) s off at \(fixed(start, 1)) s"
    }

    /// A washing machine's end-of-cycle tune: 6-12 notes of 0.15-0.5 s, once or twice.
    mutating func washerTune(_ rng: inout SplitMix64) -> String {
        let base = rng.uniform(500...1500), wave: Waveform = rng.chance(0.5) ? .square : .sine
        let notes = (0..<rng.int(6...12)).map { _ in (base * pow(2, Double(rng.int(0...12)) / 12), rng.uniform(0.15...0.5)) }
        let times = rng.int(1...2)
        var t = rng.uniform(1...3)
        for _ in 0..<times {
            for (f, d) in notes where t + d < length { note([f], at: t, for: d, waveform: wave); t += d + 0.03 }
            t += rng.uniform(5...10)
        }
        return "\(fixed(base, 0))Hz \(wave.label) tune of \(notes.count) notes, \(times) times"
    }

    /// A smoke alarm's low-battery chirp: one 3-4 kHz chirp of 30-100 ms every 30-60 s.
    /// It is a warning, not an alarm; 3 chirps, the fewest that show its timer's period (the
    /// case is as long as they need). `n` is still drawn, 2-3, and not used, so that every
    /// other draw and every other case stays as it was.
    mutating func lowBatteryChirp(_ rng: inout SplitMix64) -> String {
        let f = rng.uniform(3000...4000), d = rng.uniform(0.03...0.1), every = rng.uniform(30...60), _ = rng.int(2...3), n = 3
        let wave = Waveform.drawPiezo(&rng)
        let first = rng.uniform(1...5)
        for k in 0..<n { note([f], at: first + Double(k) * every, for: d, waveform: wave, ramp: 0.002) }
        reserve(first + Double(n - 1) * every + 3)
        return "\(fixed(f, 0))Hz \(n) chirps of \(fixed(d * 1000, 0)) ms every \(fixed(every, 1)) s"
    }

    /// Music with held notes: chords of 2-4 harmonic tones (6-10 partials falling as 1/k)
    /// on 110-880 Hz, each 0.5-3 s, with a 4-7 Hz vibrato, the harmony changing.
    mutating func music(_ rng: inout SplitMix64) -> String {
        let root = rng.logUniform(110...440), vibrato = rng.uniform(0.005...0.02), rate = rng.uniform(4...7)
        var t = 0.0, chords = 0
        while t < length - 0.5 {
            let d = min(rng.uniform(0.5...3), length - t)
            let base = root * pow(2, Double(rng.int(0...12)) / 12)
            let chord = [0, rng.pick([3, 4]), 7, 12].prefix(rng.int(2...4)).map { base * pow(2, Double($0) / 12) }
            let partials = rng.int(6...10)
            for f in chord {
                for k in 1...partials where Double(k) * f < 7500 {
                    note([Double(k) * f], at: t, for: d, motion: .warble(depth: vibrato, rate: rate), ramp: 0.03, gain: Float(0.5 / Double(k)))
                }
            }
            t += d; chords += 1
        }
        return "\(fixed(root, 0))Hz root, \(chords) chords, vibrato \(fixed(vibrato * 100, 1)) % at \(fixed(rate, 1)) Hz"
    }

    /// Wind whistling through a gap: white noise through a band-pass of Q 5-30 whose centre
    /// wanders over 400-2500 Hz by more than 5 % within seconds, in gusts.
    mutating func windWhistle(_ rng: inout SplitMix64) -> String {
        let q = rng.uniform(5...30), centre = rng.logUniform(500...2000)
        let wander = rng.uniform(0.06...0.3), periods = (0..<3).map { _ in rng.uniform(1.5...8) }
        let phases = (0..<3).map { _ in rng.uniform(0...(2 * Double.pi)) }
        let gust = (0..<3).map { _ in rng.uniform(3...15) }
        var filter = Biquad(.bandPassQ(q: q), frequency: centre)
        for i in samples.indices {
            let t = Double(i) / Self.fs
            if i % 32 == 0 {
                var w = 0.0
                for k in 0..<3 { w += sin(2 * Double.pi * t / periods[k] + phases[k]) / 3 }
                filter.set(.bandPassQ(q: q), frequency: min(2500, max(400, centre * (1 + wander * w))))
            }
            var level = 0.0
            for k in 0..<3 { level += 0.5 + 0.5 * sin(2 * Double.pi * t / gust[k] + phases[k] * 1.7) }
            samples[i] = Float(filter.process(rng.gaussian()) * pow(level / 3, 2))
        }
        active = [samples.indices]
        return "\(fixed(centre, 0))Hz centre Q \(fixed(q, 0)) wandering ±\(fixed(wander * 100, 0)) % over \(fixed(periods.min()!, 1))-\(fixed(periods.max()!, 1)) s, gusts"
    }

    /// A mechanical clock's escapement: each tick strikes the case, which rings at 1.5-4 kHz
    /// and dies away in 0.1-0.15 s (to -20 dB), every 0.33-0.5 s (3 to 2 beats a second, with
    /// a tick and a tock that differ a little in level), as the issue's clock that read as a
    /// T4 group did.
    mutating func clockTick(_ rng: inout SplitMix64) -> String {
        let f = rng.uniform(1500...4000), ring = rng.uniform(0.1...0.15), beat = rng.uniform(0.33...0.5)
        let tock = Float(Level.gain(db: rng.uniform(-3...0)))
        let decay = log(10.0) / ring          // -20 dB (a tenth of the amplitude) at `ring` s
        var t = rng.uniform(0...beat), k = 0
        let n = Int(ring * 1.5 * Self.fs)
        while t < length - 0.2 {
            let i = Int(t * Self.fs), g: Float = k % 2 == 0 ? 1 : tock
            for j in 0..<n where i + j < samples.count {
                let u = Double(j) / Self.fs
                samples[i + j] += g * Float(exp(-decay * u) * sin(2 * Double.pi * f * u))
            }
            active.append(i..<min(samples.count, i + n))
            t += beat; k += 1
        }
        return "\(fixed(f, 0))Hz ring of \(fixed(ring, 2)) s every \(fixed(beat, 2)) s, \(k) ticks"
    }

    /// A compressor's or a fan motor's whine: noise through a resonance of Q 30-100 at
    /// 0.8-3 kHz whose centre wanders ±2-5 % and whose level swells and falls by 10-20 dB
    /// every 0.4-0.8 s, as the issue's compressor (a line wandering 1.83-1.97 kHz and
    /// swelling every 0.55 s) that read as T3 did.
    mutating func compressor(_ rng: inout SplitMix64) -> String {
        let centre = rng.logUniform(800...3000), q = rng.uniform(30...100), wander = rng.uniform(0.02...0.05)
        let swell = rng.uniform(0.4...0.8), depth = rng.uniform(10...20), drift = rng.uniform(2...6)
        let phase = rng.uniform(0...(2 * Double.pi))
        var filter = Biquad(.bandPassQ(q: q), frequency: centre)
        for i in samples.indices {
            let t = Double(i) / Self.fs
            if i % 32 == 0 {
                filter.set(.bandPassQ(q: q), frequency: centre * (1 + wander * sin(2 * Double.pi * t / drift + phase)))
            }
            // The swell: from -depth dB to 0 dB and back, every `swell` s.
            let level = Level.gain(db: -depth * (0.5 - 0.5 * cos(2 * Double.pi * t / swell)))
            samples[i] = Float(filter.process(rng.gaussian()) * level)
        }
        active = [samples.indices]
        return "\(fixed(centre, 0))Hz Q \(fixed(q, 0)) wandering ±\(fixed(wander * 100, 1)) %, swelling \(fixed(depth, 0)) dB every \(fixed(swell, 2)) s"
    }

    /// A lorry reversing in the street, heard through a window: a tonal back-up alarm
    /// (SAE J994, ISO 9533) beeping about once a second at 50 % duty, on 1-1.4 kHz (most
    /// tonal ones) or 2.5-3.2 kHz (piezo ones), a square or piezo drive, its level swelling
    /// and falling by 6-12 dB as the lorry turns and comes nearer, for 8-40 s.
    mutating func reversingBeeper(_ rng: inout SplitMix64) -> String {
        let f = rng.chance(0.5) ? rng.uniform(1000...1400) : rng.uniform(2500...3200)
        let period = rng.uniform(0.8...1.2), on = period * rng.uniform(0.45...0.55)
        let wave: Waveform = rng.chance(0.5) ? .square : Waveform.drawPiezo(&rng)
        let swell = rng.uniform(6...12), sounding = min(length - 1, rng.uniform(8...40)), first = rng.uniform(0...1)
        var t = first, beeps = 0
        while t + on < first + sounding {
            let nearness = Float(Level.gain(db: -swell * (0.5 - 0.5 * cos(2 * Double.pi * (t - first) / sounding))))
            note([f], at: t, for: on, waveform: wave, ramp: 0.005, gain: nearness)
            t += period; beeps += 1
        }
        return "\(fixed(f, 0))Hz \(wave.label) \(beeps) beeps of \(fixed(on, 2)) s every \(fixed(period, 2)) s, swelling \(fixed(swell, 0)) dB"
    }

    /// Two fans (or a fan and its echo in a duct) whose blade or motor whines lie a little
    /// apart: one line on 400-3000 Hz beating at 0.3-3 Hz, over the fans' broadband rush,
    /// for the whole case. The beat cuts the line into swells of one pitch at one interval.
    mutating func fanBeat(_ rng: inout SplitMix64) -> String {
        let f = rng.logUniform(400...3000), beat = rng.uniform(0.3...3), rush = rng.uniform(6...14)
        let phase = rng.uniform(0...(2 * Double.pi))
        var filter = Biquad(.bandPassQ(q: 0.7), frequency: f)
        for i in samples.indices {
            let t = Double(i) / Self.fs
            let whine = sin(2 * Double.pi * f * t) + sin(2 * Double.pi * (f + beat) * t + phase)
            samples[i] = Float(0.5 * whine + Level.gain(db: -rush) * filter.process(rng.gaussian()))
        }
        active = [samples.indices]
        return "\(fixed(f, 0))Hz whines beating at \(fixed(beat, 2)) Hz over a rush \(fixed(rush, 0)) dB under them"
    }

    /// Mains hum alone: 50 or 60 Hz and up to 20 harmonics, steady.
    mutating func mainsHum(_ rng: inout SplitMix64) -> String {
        let (tone, f, n) = Background.humTone(samples.count, rng: &rng, harmonics: 0...20)
        samples = tone
        active = [samples.indices]
        return "\(fixed(f, 0))Hz hum + \(n) harmonics"
    }

    /// A voice: a glottal pulse train (f0 90-300 Hz, 1-3 % jitter, falling intonation)
    /// through three vowel formants (Peterson & Barney 1952), syllables of 0.1-0.4 s in
    /// sentences of 3-12 with pauses between.
    mutating func voice(_ rng: inout SplitMix64) -> String {
        let vowels: [(Double, Double, Double)] = [(730, 1090, 2440), (270, 2290, 3010), (300, 870, 2240),
                                                  (530, 1840, 2480), (570, 840, 2410), (660, 1720, 2410), (490, 1350, 1690)]
        let f0 = rng.uniform(90...300), jitter = rng.uniform(0.01...0.03)
        var t = rng.uniform(0...1), sentences = 0
        while t < length - 1 {
            let count = rng.int(3...12)
            for s in 0..<count {
                let d = rng.uniform(0.1...0.4)
                guard t + d < length else { break }
                let v = rng.pick(vowels)
                let pitch = f0 * (1.1 - 0.25 * Double(s) / Double(count)) * rng.uniform(0.95...1.05)
                var source = [Float](repeating: 0, count: Int(d * Self.fs))
                var next = 0.0
                while Int(next) < source.count {
                    source[Int(next)] = 1
                    next += Self.fs / (pitch * (1 + jitter * rng.gaussian()))
                }
                var out = [Float](repeating: 0, count: source.count)
                for (k, (f, g)) in [(v.0, 1.0), (v.1, 0.5), (v.2, 0.25)].enumerated() {
                    var r = Biquad(.bandPassQ(q: f / [80.0, 110, 160][k]), frequency: f)
                    for j in source.indices { out[j] += Float(g * r.process(Double(source[j]))) }
                }
                let i = Int(t * Self.fs)
                for j in out.indices where i + j < samples.count {
                    let e = sin(Double.pi * Double(j) / Double(out.count))
                    samples[i + j] += out[j] * Float(e)
                }
                active.append(i..<min(samples.count, i + out.count))
                t += d + rng.uniform(0.03...0.15)
            }
            t += rng.uniform(0.5...2)
            sentences += 1
        }
        return "\(fixed(f0, 0))Hz f0 jitter \(fixed(jitter * 100, 1)) %, \(sentences) sentences"
    }
}
