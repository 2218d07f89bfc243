import Foundation
import SomniqTestSupport
import Testing
import SomniqCore

/// Where a clip is placed: a bedroom's background, so that the floor is the room's, as
/// it is for a daemon that has been listening.
enum Room: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// Pink noise at the quiet night's level (−45 dBFS RMS), made by sox from a fixed
    /// seed: in every clone.
    case pink
    /// The corpus's quiet bedroom: pink noise, a fan and light rain (`quiet/dev-quiet-01`).
    case quietNight

    var testDescription: String { rawValue }

    /// The rooms tests run in here: the corpus's only where corpus tests run.
    static var here: [Room] { Paths.corpusTestsRun ? allCases : [.pink] }

    private static let pinkSamples: [Float] = {
        let path = temporaryDirectory() + "/pink.flac"
        try! sox("-n", "-r", "16000", "-c", "1", "-b", "16", path, "synth", "40", "pinknoise", "vol", "0.0265")
        return try! readMono16k(path)
    }()

    var samples: [Float] {
        get throws {
            switch self {
            case .pink: Self.pinkSamples
            case .quietNight: try readMono16k(Paths.corpus + "/quiet/dev-quiet-01.flac")
            }
        }
    }
}

/// Clips of the corpus (the key ones copied into `fixtures/clips`), each placed 6 s into
/// a room at the level it was recorded at; and moments of the dev scenes that once went
/// wrong. A case whose clip or room is not in this clone runs only where corpus tests run.
struct ClipTests {
    static let lead = 6.0

    /// The clip, `times` times one after another with 1.5 s between them, `gainDb` from
    /// the level it was recorded at, starting `late` seconds after the lead.
    func mixed(_ clip: String, in room: Room, times: Int = 1, gainDb: Float = 0, late: Double = 0) throws -> [Float] {
        var background = try room.samples
        let sound = try readMono16k(Paths.clip(clip)).map { $0 * Float.pow(10, gainDb / 20) }
        let start = Int((Self.lead + late) * Double(StreamClock.sampleRate))
        let period = sound.count + 3 * StreamClock.sampleRate / 2
        background = Array(background.prefix(start + (times - 1) * period + sound.count + 4 * StreamClock.sampleRate))
        for k in 0..<times {
            for (i, x) in sound.enumerated() { background[start + k * period + i] += x }
        }
        return background
    }

    /// Every room for `clip`, where the clip runs here.
    static func rooms(_ clip: String) -> [Room] { Paths.clipRuns(clip) ? Room.here : [] }

    static let clipsAndClasses: [(String, SoundClass)] = [
        ("snoring/SYNTH_snore_01", .snoring), ("snoring/heroes_sleep", .snoring),
        ("cough/scratch_cough_male", .cough), ("cough/AUG_scratch_cough_male__pp80eq", .cough),
        ("speech/ktub_de_words", .speech), ("speech/asterisk_allison_demo_congrats", .speech),
        ("smoke_alarm/SYNTH_T3_3100Hz", .smokeAlarm), ("smoke_alarm/SYNTH_T3_3400Hz", .smokeAlarm),
        ("dog_bark/gc_lrbark1", .dogBark), ("dog_bark/scratch_dog1", .dogBark),
        ("door/gc_knock", .door), ("door/ufo_door1_close", .door),
        ("baby_cry/scratch_babycry", .babyCry), ("baby_cry/SYNTH_babycry_02", .babyCry),
    ]
    static var clipCases: [(String, SoundClass, Room)] {
        clipsAndClasses.flatMap { clip, c in rooms(clip).map { (clip, c, $0) } }
    }

    @Test(arguments: clipCases)
    func clipFiresItsClass(clip: String, expected: SoundClass, room: Room) throws {
        // Snoring is a train of snores, one a breath: a single snore is not yet snoring.
        let found = try detections(samples: mixed(clip, in: room, times: expected == .snoring ? 3 : 1))
        let hits = found.filter { $0.soundClass == expected }
        #expect(!hits.isEmpty, "\(clip): found \(found)")
        // Near the clip's placement: a window starts at most 1 s before the sound, and a
        // smoothed, debounced class (speech) may confirm a weak first word a little late.
        // Snoring starts with the first snore, once the second has come. A smoke alarm is
        // found by its pattern, within one T3 cycle (4 s) of its first beep (issue 25).
        let latest = Self.lead + (expected == .smokeAlarm ? 4.0 : 2.0)
        #expect(hits.contains { $0.onset >= Self.lead - 2.0 && $0.onset <= latest }, "\(clip): found \(found)")
    }

    @Test(arguments: [-20, -14] as [Float], rooms("door/scratch_doorclose"))
    func aDoorIsHeardFromTheCreakOfItsSwingToTheEndOfTheSlam(gainDb: Float, room: Room) throws {
        // The Scratch door: a hinge creak of about 1.4 s, then the slam; in the hall, about
        // 25 or 31 dB above the bedroom's floor (recorded at full scale, it would be 45 dB).
        let found = try detections(samples: mixed("door/scratch_doorclose", in: room, gainDb: gainDb))
        let doors = found.filter { $0.soundClass == .door }
        #expect(doors.count == 1, "found \(found)")
        #expect(doors.first.map { $0.onset <= Self.lead + 0.5 } == true, "the swing is part of the door: \(doors)")
        #expect(doors.first.map { $0.offset >= Self.lead + 2.0 } == true, "the slam is part of the door: \(doors)")
        #expect(!found.contains { $0.soundClass == .phoneRing }, "a creak is not a ringer: \(found)")
        #expect(!found.contains { $0.soundClass == .gasp }, "a slam dies at once, a gasp holds: \(found)")
    }

    @Test(arguments: rooms("door/scratch_doorclose"))
    func aLoudSlamNearTheMicrophoneIsADoor(room: Room) throws {
        // The Scratch door at full level, 45 dB over the floor: the slam rattles above the
        // floor for most of a second, but it is at full strength only for tens of ms.
        let found = try detections(samples: mixed("door/scratch_doorclose", in: room))
        let doors = found.filter { $0.soundClass == .door }
        #expect(doors.count == 1 && doors.allSatisfy { $0.offset >= Self.lead + 2.0 }, "found \(found)")
        #expect(!found.contains { $0.soundClass == .gasp || $0.soundClass == .music }, "found \(found)")
    }

    @Test(arguments: [0, -10] as [Float], rooms("glass_break/minetest_break_glass1"))
    func aShortShatterOverAThudIsGlassNotADoor(gainDb: Float, room: Room) throws {
        // The Minetest shatter carries much of its power below 150 Hz, but it rises as far
        // above the floor at 2.4–6 kHz as anywhere: glass, wherever the thud puts the power.
        // At its recorded level and 10 dB down (in the next room), 37 and 27 dB over the floor.
        let found = try detections(samples: mixed("glass_break/minetest_break_glass1", in: room, gainDb: gainDb))
        #expect(found.contains { $0.soundClass == .glassBreak && abs($0.onset - Self.lead) <= 0.5 }, "found \(found)")
        #expect(!found.contains { $0.soundClass == .door }, "found \(found)")
    }

    @Test(arguments: rooms("scream/ufo_civfemscream01a"))
    func aScreamThatOpensOnASteadyVowelStartsWithIt(room: Room) throws {
        // The UFO scream holds a pure 725 Hz "ah" for its first half second, as steady as
        // a ringer's line; the rough scream that follows says what it was. Starting 0.25 s
        // into a window, it fills the next window's first half with that vowel alone.
        let found = try detections(samples: mixed("scream/ufo_civfemscream01a", in: room, gainDb: -12, late: 0.25))
        let screams = found.filter { $0.soundClass == .scream }
        #expect(screams.count == 1, "found \(found)")
        #expect(screams.first.map { $0.onset <= Self.lead + 0.25 } == true, "found \(found)")
        #expect(!found.contains { $0.soundClass == .phoneRing }, "found \(found)")
    }

    @Test(.enabled(if: Paths.corpusTestsRun, "needs ../shared/corpus beside the clone"))
    func aCoughIsNotASyllableOfSpeechThatHasNotBegun() throws {
        // Dev scene 3, 80–92 s: a woman's cough at 86.86 s, starting 0.14 s before a window
        // ends, where its voiced start reads as a word. One window of voice is not running
        // speech, and the cough is a cough.
        let scene = try readMono16k(Paths.corpus + "/scenes/dev-scene-03.flac")
        let found = try detections(samples: Array(scene[80 * StreamClock.sampleRate ..< 92 * StreamClock.sampleRate]))
        #expect(found.contains { $0.soundClass == .cough && abs($0.onset - 6.86) <= 0.5 }, "found \(found)")
        #expect(!found.contains { $0.soundClass == .speech }, "found \(found)")
    }

    static var ringCases: [(Float, Double, Room)] {
        rooms("phone_ring/fillets_phone0").flatMap { room in [0, -10].flatMap { g in [0, 0.25, 0.5, 0.75].map { (Float(g), $0, room) } } }
    }

    @Test(arguments: ringCases)
    func aRingtoneIsNoScream(gainDb: Float, late: Double, room: Room) throws {
        // The Fillets phone: a 798 Hz ringtone whose line wavers as it starts and stops,
        // voiced and shrill as a scream, but with a quarter of its energy above 4 kHz;
        // wherever it falls against the windows.
        let found = try detections(samples: mixed("phone_ring/fillets_phone0", in: room, gainDb: gainDb, late: late))
        #expect(!found.contains { $0.soundClass == .scream }, "found \(found)")
    }

    @Test(arguments: rooms("dog_bark/gc_farm_dog"))
    func aBarkFromAcrossTheYardIsABark(room: Room) throws {
        // The GCompris farm dog, 10 dB down: two barks 31 dB over the floor whose onsets,
        // smeared by the yard's echoes, rise 8–9 dB within 47 ms.
        let found = try detections(samples: mixed("dog_bark/gc_farm_dog", in: room, gainDb: -10))
        #expect(found.contains { $0.soundClass == .dogBark && abs($0.onset - Self.lead) <= 0.5 }, "found \(found)")
    }

    @Test(arguments: Room.here)
    func aQuietBedroomRaisesNothing(room: Room) throws {
        let found = try detections(samples: room.samples)
        #expect(found.isEmpty, "false detections in the \(room) room: \(found)")
    }
}

@Test func theCorpusIsBesideTheCloneWhenCIIsSet() {
    // Elsewhere its tests are skipped and the in-repo fixtures stand for it; in CI a missing
    // corpus is a broken machine, not a reason to pass.
    #expect(!Paths.inCI || Paths.corpusPresent, "CI is set but there is no corpus at \(Paths.corpus)")
}
