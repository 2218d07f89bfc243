import RealModule

/// Puts a sound in a room over a background: the sound at its peak level, the background
/// scaled to give the SNR asked for, the microphone's band, clipping or a turn-down so
/// nothing passes full scale unless meant to, and dither.
struct Mixer {
    /// Samples of background before and after the sound.
    var pre: Int, post: Int
    /// The sound's peak, dBFS (above 0 when the case is clipped).
    var peakDbfs: Double
    var clipped: Bool
    var snrDb: Double
    /// Centre of the 1/3-octave band the SNR is measured in; nil: full band.
    var band: Double?
    var room: Room?
    var kind: String

    struct Result {
        var samples: [Float]
        /// The sound's own peak in the result, dBFS (before clipping).
        var peakDbfs: Double
        var parameters: String
    }

    /// `dry`: the sound, any scale; `active`: its samples that sound (for its RMS).
    func mix(_ dry: [Float], active: [Range<Int>], backgrounds: [String: [[Float]]], rng: inout SplitMix64) -> Result {
        var sound = dry
        if let room { sound = room.reverberate(dry, tail: room.rt60 + 0.1) }
        let target = Level.gain(db: peakDbfs) / max(Level.peak(sound), 1e-30)
        for i in sound.indices { sound[i] *= Float(target) }
        let soundRMS = Level.rms(sound, spans: active)

        let count = pre + sound.count + post
        var (bed, what) = Background.make(kind: kind, count: count, loops: backgrounds, rng: &rng)
        let bedRMS = band.map { Level.bandRMS(bed, centre: $0) } ?? Level.rms(bed)
        let g = Float(soundRMS / Level.gain(db: snrDb) / max(bedRMS, 1e-30))
        for i in bed.indices { bed[i] *= g }
        var out = bed
        for j in sound.indices { out[pre + j] += sound[j] }
        var notes = ["background \(what) \(fixed(Level.db(Level.rms(bed)), 1)) dBFS RMS"]
        if let room {
            room.microphone(&out)
            notes.append("room RT60 \(fixed(room.rt60, 2)) s wet \(fixed(room.wetDb, 1)) dB, microphone \(fixed(room.highPassHz, 0)) Hz-\(fixed(room.lowPassHz, 0)) Hz")
        }
        var peak = peakDbfs
        if clipped {
            for i in out.indices { out[i] = min(1, max(-1, out[i])) }
            notes.append("sound peak \(fixed(peakDbfs, 1, sign: true)) dBFS, hard-clipped at ±1")
        } else {
            let over = Level.db(Level.peak(out)) - Battery.loudestPeakDbfs
            if over > 0 {
                let turn = Float(Level.gain(db: -over))
                for i in out.indices { out[i] *= turn }
                peak -= over
                notes.append("sound peak \(fixed(peak, 1)) dBFS (turned down \(fixed(over, 1)) dB: the background's peak reached full scale)")
            } else {
                notes.append("sound peak \(fixed(peak, 1)) dBFS")
            }
        }
        notes.append("SNR \(fixed(snrDb, 1)) dB \(band.map { "in the 1/3 octave on \(fixed($0, 0)) Hz" } ?? "full band")")
        let dither = Level.gain(db: Battery.ditherDbfs)
        for i in out.indices { out[i] += Float(dither * rng.gaussian()) }
        return Result(samples: out, peakDbfs: peak, parameters: notes.joined(separator: "; "))
    }
}
