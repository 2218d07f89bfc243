import Foundation
import Testing
import SomniqCore
@testable import SomniqIO

/// Clips from the shared corpus, each placed 6 s into the corpus's quiet bedroom
/// background (so the floor is the room's, as it is for a daemon that has been
/// listening), at the level it was recorded at.
@Suite(.enabled(if: Paths.corpusPresent, "needs ../shared/corpus beside the clone"))
struct ClipTests {
    static let lead = 6.0

    func mixed(_ clip: String) throws -> [Float] {
        var room = try readMono16k(Paths.corpus + "/quiet/dev-quiet-01.flac")
        let sound = try readMono16k(Paths.corpus + "/clips/" + clip)
        let start = Int(Self.lead * Double(StreamClock.sampleRate))
        room = Array(room.prefix(start + sound.count + 4 * StreamClock.sampleRate))
        for (i, x) in sound.enumerated() { room[start + i] += x }
        return room
    }

    @Test(arguments: [
        ("snoring/SYNTH_snore_01.wav", SoundClass.snoring), ("snoring/heroes_sleep.wav", .snoring),
        ("cough/scratch_cough_male.wav", .cough), ("cough/AUG_scratch_cough_male__pp80eq.wav", .cough),
        ("speech/ktub_de_words.wav", .speech), ("speech/asterisk_allison_demo_congrats.wav", .speech),
        ("smoke_alarm/SYNTH_T3_3100Hz.wav", .smokeAlarm), ("smoke_alarm/SYNTH_T3_3400Hz.wav", .smokeAlarm),
        ("dog_bark/gc_lrbark1.wav", .dogBark), ("dog_bark/scratch_dog1.wav", .dogBark),
        ("door/gc_knock.wav", .door), ("door/ufo_door1_close.wav", .door),
        ("baby_cry/scratch_babycry.wav", .babyCry), ("baby_cry/SYNTH_babycry_02.wav", .babyCry),
    ])
    func clipFiresItsClass(clip: String, expected: SoundClass) throws {
        let found = try detections(samples: mixed(clip))
        let hits = found.filter { $0.soundClass == expected }
        #expect(!hits.isEmpty, "\(clip): found \(found)")
        // Near the clip's placement: a window starts at most 1 s before the sound, and a
        // smoothed, debounced class (speech) may confirm a weak first word a little late.
        #expect(hits.contains { abs($0.onset - Self.lead) <= 2.0 }, "\(clip): found \(found)")
    }

    @Test func quietBedroomRaisesNothing() throws {
        let found = try detections(Paths.corpus + "/quiet/dev-quiet-01.flac")
        #expect(found.isEmpty, "false detections on 600 s of quiet: \(found)")
    }
}
