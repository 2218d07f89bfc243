import RealModule

/// When a smoke or CO alarm sounds: its pulses, in seconds from the first pulse's start.
/// Every timing is drawn from the accept-range of its standard; about 30 % of the draws
/// sit exactly at one end of it, where a detector's tolerance is tested.
public struct AlarmPattern: Sendable, Equatable {
    public struct Pulse: Sendable, Equatable {
        public var start: Double, duration: Double
        public var end: Double { start + duration }
    }

    public var pulses: [Pulse]
    /// T4: from the start of the first group to the start of the second.
    public var groupPeriod: Double?
    /// What was drawn, for a person: "on 0.650 s (edge) off 0.512 s ...".
    public var parameters: String
    /// Timing draws that sit at the end of their range.
    public var edgeDraws: Int

    /// The share of timing draws placed at one end of their range.
    public static let edgeShare = 0.3

    /// ISO 8201 / NFPA 72 §18.4.3 temporal-three: three (on, off), the third off
    /// lengthened to a pause; the accept-ranges a listener must still call T3.
    public enum T3 {
        public static let on = 0.4...0.65
        public static let off = 0.4...0.65
        public static let pause = 1.2...2.0
        public static let cycles = 2...4
    }

    /// NFPA 720 / UL 2034 / EN 50291 temporal-four for carbon monoxide: four short pulses,
    /// then a long silence.
    public enum T4 {
        public static let on = 0.05...0.2
        public static let off = 0.05...0.2
        public static let pause = 4.0...6.5
        public static let groups = 2...3
    }

    /// A heat alarm, or an EN 14604 smoke alarm without a temporal pattern: one unbroken tone.
    public enum Continuous {
        public static let duration = 12.0...20.0
    }

    /// A steady beep without the T3 rhythm: regular beeps, no pause.
    public enum SteadyBeep {
        public static let beep = 0.1...1.0
        public static let period = 0.5...2.0
        /// The shortest silence between beeps that still makes them beeps.
        public static let shortestGap = 0.1
        public static let duration = 12.0...20.0
    }

    private struct Drawer {
        var rng: SplitMix64
        var edges = 0
        var notes: [String] = []
        mutating func draw(_ name: String, _ range: ClosedRange<Double>) -> Double {
            if rng.chance(AlarmPattern.edgeShare) {
                edges += 1
                let v = rng.chance(0.5) ? range.lowerBound : range.upperBound
                notes.append("\(name) \(fixed(v, 3)) s (edge)")
                return v
            }
            let v = rng.uniform(range)
            notes.append("\(name) \(fixed(v, 3)) s")
            return v
        }
    }

    public static func t3(_ rng: inout SplitMix64) -> AlarmPattern {
        var d = Drawer(rng: rng)
        let on = d.draw("on", T3.on), off = d.draw("off", T3.off), pause = d.draw("pause", T3.pause)
        let cycles = d.rng.int(T3.cycles)
        rng = d.rng
        var pulses: [Pulse] = []
        var t = 0.0
        for _ in 0..<cycles {
            for k in 0..<3 {
                pulses.append(Pulse(start: t, duration: on))
                t += on + (k < 2 ? off : pause)
            }
        }
        return AlarmPattern(pulses: pulses, groupPeriod: nil,
                            parameters: "T3 \(d.notes.joined(separator: ", ")), \(cycles) cycles", edgeDraws: d.edges)
    }

    public static func t4(_ rng: inout SplitMix64) -> AlarmPattern {
        var d = Drawer(rng: rng)
        let on = d.draw("on", T4.on), off = d.draw("off", T4.off), pause = d.draw("pause", T4.pause)
        let groups = d.rng.int(T4.groups)
        rng = d.rng
        var pulses: [Pulse] = []
        var t = 0.0
        for _ in 0..<groups {
            for k in 0..<4 {
                pulses.append(Pulse(start: t, duration: on))
                t += on + (k < 3 ? off : pause)
            }
        }
        return AlarmPattern(pulses: pulses, groupPeriod: 4 * on + 3 * off + pause,
                            parameters: "T4 \(d.notes.joined(separator: ", ")), \(groups) groups", edgeDraws: d.edges)
    }

    public static func continuous(_ rng: inout SplitMix64) -> AlarmPattern {
        var d = Drawer(rng: rng)
        let length = d.draw("length", Continuous.duration)
        rng = d.rng
        return AlarmPattern(pulses: [Pulse(start: 0, duration: length)], groupPeriod: nil,
                            parameters: "continuous \(d.notes.joined(separator: ", "))", edgeDraws: d.edges)
    }

    public static func steadyBeep(_ rng: inout SplitMix64) -> AlarmPattern {
        var d = Drawer(rng: rng)
        let period = d.draw("period", SteadyBeep.period)
        let beep = d.draw("beep", SteadyBeep.beep.lowerBound...min(SteadyBeep.beep.upperBound, period - SteadyBeep.shortestGap))
        let length = d.draw("length", SteadyBeep.duration)
        rng = d.rng
        let count = max(2, Int(((length - beep) / period).rounded(.down)) + 1)
        let pulses = (0..<count).map { Pulse(start: Double($0) * period, duration: beep) }
        return AlarmPattern(pulses: pulses, groupPeriod: nil,
                            parameters: "steady beep \(d.notes.joined(separator: ", ")), \(count) beeps", edgeDraws: d.edges)
    }

    /// From the first pulse's start to the last pulse's end.
    public var span: Double { pulses.last!.end }
}
