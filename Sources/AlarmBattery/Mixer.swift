import Foundation

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
        var notes = [String(format: "background %@ %.1f dBFS RMS", what, Level.db(Level.rms(bed)))]
        if let room {
            room.microphone(&out)
            notes.append(String(format: "room RT60 %.2f s wet %.1f dB, microphone %.0f Hz-%.0f Hz",
                                room.rt60, room.wetDb, room.highPassHz, room.lowPassHz))
        }
        var peak = peakDbfs
        if clipped {
            for i in out.indices { out[i] = min(1, max(-1, out[i])) }
            notes.append(String(format: "sound peak %+.1f dBFS, hard-clipped at ±1", peakDbfs))
        } else {
            let over = Level.db(Level.peak(out)) - Battery.loudestPeakDbfs
            if over > 0 {
                let turn = Float(Level.gain(db: -over))
                for i in out.indices { out[i] *= turn }
                peak -= over
                notes.append(String(format: "sound peak %.1f dBFS (turned down %.1f dB: the background's peak reached full scale)", peak, over))
            } else {
                notes.append(String(format: "sound peak %.1f dBFS", peak))
            }
        }
        notes.append(String(format: "SNR %.1f dB %@", snrDb, band.map { String(format: "in the 1/3 octave on %.0f Hz", $0) } ?? "full band"))
        let dither = Level.gain(db: Battery.ditherDbfs)
        for i in out.indices { out[i] += Float(dither * rng.gaussian()) }
        return Result(samples: out, peakDbfs: peak, parameters: notes.joined(separator: "; "))
    }
}
