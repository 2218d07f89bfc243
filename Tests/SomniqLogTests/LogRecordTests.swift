@testable import SomniqCore
@testable import SomniqLog
import Testing

@Test func eventRecordsHaveVersionKindAndTrace() {
    let rule = Profile.balanced.rule(for: .cough)
    let start = SomniqCore.EventStart(id: "e1", soundClass: .cough, tier: .high, onset: 12.5, confidence: 0.8123, alert: false, suppressed: .cooldown,
                           trace: DecisionTrace(rule: rule, peakSmoothed: 0.8123, peakRaw: 0.9, levelDbfs: -31.26,
                                                floorDbfs: -52.04, profileName: "balanced", profileSHA256: "ab"))
    let text = LogRecord.eventStart(.init(start)).line
    #expect(text.hasPrefix(#"{"v":1,"kind":"event_start","id":"e1","class":"cough","tier":"high","onset_s":12.5,"confidence":0.812,"alert":false,"suppressed":"cooldown","trace":{"rule":{"tier":"high","on":0.7"#))
    #expect(text.hasSuffix(#""peak_smoothed":0.812,"peak_raw":0.9,"level_dbfs":-31.3,"floor_dbfs":-52,"profile":"balanced","profile_sha256":"ab"}}"#))
    let end = SomniqCore.EventEnd(id: "e1", soundClass: .cough, onset: 12.5, offset: 13, peakDbfs: -20, confidence: 0.7, truncated: true)
    #expect(LogRecord.eventEnd(.init(end, time: { _ in "2026-11-22T23:00:13Z" })).line
            == #"{"v":1,"kind":"event_end","id":"e1","class":"cough","onset_s":12.5,"offset_s":13,"offset_time":"2026-11-22T23:00:13Z","peak_dbfs":-20,"confidence":0.7,"truncated":true}"#)
}

/// A record of each kind, with every member its kind may have.
let everyKind: [LogRecord] = {
    let rule = Profile.balanced.rule(for: .cough)
    let time = "2026-11-22T23:10:00.000Z"
    var trace = DecisionTrace(rule: rule, peakSmoothed: 0.8123, peakRaw: 0.9, levelDbfs: -31.26, floorDbfs: -52.04,
                              profileName: "balanced", profileSHA256: String(repeating: "ab", count: 32))
    trace.weights = [.init(input: "share_low", value: 0.61234, weight: 1.5)]
    trace.confirmed = 14.25
    var held = trace
    held.home = HomeMemory.Match(eventID: "r1795389000-e2", at: time, distance: 0.41234, holdsBack: true)
    var kept = trace
    kept.home = HomeMemory.Match(eventID: "e3", at: nil, distance: 0.2, holdsBack: false)
    var heldAsSnoring = trace
    heldAsSnoring.home = HomeMemory.Match(eventID: "r1795389000-e4", at: time, distance: 0.3, holdsBack: true, was: .snoring)
    var asSnoring = heldAsSnoring
    asSnoring.home?.from = "e4"
    let start = SomniqCore.EventStart(id: "e1", soundClass: .cough, tier: .high, onset: 12.5, confidence: 0.8123, alert: false,
                                      suppressed: .cooldown, trace: trace)
    let end = SomniqCore.EventEnd(id: "e1", soundClass: .cough, onset: 12.5, offset: 13, peakDbfs: -20, confidence: 0.7, truncated: true)
    var minute = MinuteLevels.Minute(startSeconds: 60, seconds: 60, leqDbfs: -33.44, l10Dbfs: -27.9, l90Dbfs: -45.8, maxDbfs: -25.7,
                                     floorDbfs: -47.5)
    minute.activeSeconds[SoundClass.snoring.index] = 31.5
    var tallies = [ClassTally](repeating: .init(), count: SoundClass.allCases.count)
    tallies[SoundClass.cough.index].count(start)
    tallies[SoundClass.cough.index].count(end)
    return [
        .sessionStart(.init(source: .file(path: "night.flac", sampleRate: 44_100, channels: 2, format: "FLAC 16-bit"),
                            profile: .balanced, version: "1.0.0", startTime: time)),
        .sessionStart(.init(source: .device(name: "hw:0"), profile: .balanced, version: "1.0.0")),
        .eventStart(.init(start, time: { _ in time })),
        .eventStart(.init(SomniqCore.EventStart(id: "e2", soundClass: .cough, tier: .high, onset: 20, confidence: 0.8, alert: false,
                                                suppressed: .home, trace: held))),
        .eventStart(.init(SomniqCore.EventStart(id: "e3", soundClass: .cough, tier: .high, onset: 30, confidence: 0.95, alert: true,
                                                suppressed: nil, trace: kept))),
        .eventStart(.init(SomniqCore.EventStart(id: "e4", soundClass: .cough, tier: .high, onset: 40, confidence: 0.8, alert: false,
                                                suppressed: .home, trace: heldAsSnoring))),
        .eventStart(.init(SomniqCore.EventStart(id: "e5", soundClass: .snoring, tier: .low, onset: 40, confidence: 0.8, alert: false,
                                                suppressed: .profile, trace: asSnoring))),
        .eventEnd(.init(end, time: { _ in time }, clip: "/var/lib/somniq/clips/e1.flac")),
        .eventEnd(.init(closingUnseen: "e0", soundClass: .snoring)),
        .level(.init(minute, time: time)),
        .status(.init(.captureStalled, streamSeconds: 61.5, alert: true, details: [.device("hw:0"), .seconds(9.5)], time: time)),
        .status(.init(.listening, streamSeconds: 70, details: [.device("hw:0"), .unheard(8.5)])),
        .sessionEnd(.init(streamSeconds: 180, events: 1, alerts: 0, reason: .decodeError, classes: tallies, endTime: time, error: "a torn frame")),
        .episode(.init(id: "ep-1795412345-a1b2c3d4", night: "2026-11-22", severity: "moderate", symptoms: ["gasping"], tags: ["alcohol"],
                       note: "woke up twice", at: "2026-11-23T02:12:00.000Z", durationMinutes: 5, time: time)),
        .episodeRemoved(.init(id: "ep-1795412345-a1b2c3d4", time: time)),
        .label(.init(id: "r1795389000-e2", night: "2026-11-22", soundClass: .door, verdict: "not", time: time)),
        .label(.init(id: "e3", night: "/home/night.flac", soundClass: .dogBark, verdict: "cough", time: time)),
        .morningSummary(.init(room: "nursery", time: time, night: "2026-11-22", title: "somniq nursery: last night",
                              text: "Heard 23:10–23:13 (3.0 min).\n1 alert (cough); snoring 35 % of the night; 1 cough.\nStood out: cough at 23:11.",
                              headline: "1 alert, snoring 35 %, 1 cough", heardFrom: time, heardTo: time, heardSeconds: 180.04,
                              alerts: 1, alertsByClass: [.init(soundClass: "cough", count: 1)], snoringShare: 0.35123, coughs: 1,
                              stoodOut: .init(soundClass: "cough", id: "e3", time: time), link: nil)),
    ]
}()

@Test func aRecordOfEachKindIsWrittenReadAndWrittenAgainByteForByte() throws {
    #expect(Set(everyKind.map(\.kind)) == Set(LogRecord.Kind.allCases))
    for record in everyKind {
        let line = record.line
        let read = try #require(LogRecord.parse(line), "not a record: \(line)")
        let again = try read.get()
        #expect(again.line == line)
        // What was read once reads the same again (the first write rounds the pipeline's figures).
        #expect(try LogRecord(json: again.json) == again, "\(line)")
    }
}

@Test func aRecordThisVersionDoesNotReadIsSaidSo() {
    #expect(LogRecord.parse("not json") == nil)
    #expect(LogRecord.parse(#"{"v":1}"#) == nil)
    for (line, kind) in [(#"{"v":1,"kind":"second"}"#, "second"), (#"{"v":1,"kind":"status","status":"dreaming"}"#, "status"),
                         (#"{"v":1,"kind":"event_start","class":"cough","onset_s":1}"#, "event_start"),
                         (#"{"v":1,"kind":"level","seconds":60}"#, "level")] {
        #expect(LogRecord.parse(line) == .failure(LogRecord.Unread(kind: kind)))
    }
}

/// An event this home's memory held back: `"suppressed": "home"`, and the trace's `home`
/// names the event it was like (`kept` when the alert stood).
@Test func anEventHeldBackByThisHomesMemoryIsWrittenWithItsMatch() throws {
    var trace = DecisionTrace(rule: Profile.balanced.rule(for: .dogBark), peakSmoothed: 0.8, peakRaw: 0.9, levelDbfs: -30, floorDbfs: -50,
                              profileName: "balanced", profileSHA256: "ab")
    trace.home = HomeMemory.Match(eventID: "r1795389000-e5", at: "2026-11-22T23:11:31.000Z", distance: 0.41234, holdsBack: true)
    let start = SomniqCore.EventStart(id: "e7", soundClass: .dogBark, tier: .medium, onset: 3, confidence: 0.8, alert: false,
                                      suppressed: .home, trace: trace)
    let line = LogRecord.eventStart(.init(start)).line
    #expect(line.contains(#""alert":false,"suppressed":"home""#))
    #expect(line.hasSuffix(#""home":{"like":"r1795389000-e5","label":"not","at":"2026-11-22T23:11:31.000Z","distance":0.412}}}"#), "\(line)")
    guard case let .eventStart(read)? = try LogRecord.parse(line)?.get() else { Issue.record("not an event_start: \(line)"); return }
    #expect(read.suppressed == .home && read.trace?.home?.like == "r1795389000-e5" && read.trace?.home?.kept == nil)
}

/// An event like a sound marked "it was snoring": held back, its `label` the class said;
/// the event logged as snoring names it (`from`).
@Test func anEventReclassifiedByThisHomesMemoryIsWrittenWithTheClassSaid() throws {
    var trace = DecisionTrace(rule: Profile.balanced.rule(for: .snoring), peakSmoothed: 0.8, peakRaw: 0.9, levelDbfs: -30, floorDbfs: -50,
                              profileName: "balanced", profileSHA256: "ab")
    trace.home = HomeMemory.Match(eventID: "r1795389000-e5", at: nil, distance: 0.3, holdsBack: true, was: .snoring, from: "e7")
    let start = SomniqCore.EventStart(id: "e8", soundClass: .snoring, tier: .low, onset: 3, confidence: 0.8, alert: true,
                                      suppressed: nil, trace: trace)
    let line = LogRecord.eventStart(.init(start)).line
    #expect(line.hasSuffix(#""home":{"like":"r1795389000-e5","label":"snoring","from":"e7","distance":0.3}}}"#), "\(line)")
    guard case let .eventStart(read)? = try LogRecord.parse(line)?.get() else { Issue.record("not an event_start: \(line)"); return }
    #expect(read.trace?.home?.was == .snoring && read.trace?.home?.from == "e7")
}

/// An event held back too far from a sound marked "it was snoring" to be logged as snoring:
/// its `label` is `not`, what was said is its `said`, and it reads back as written. A log
/// written before `said` reads as it did.
@Test func anEventHeldBackFarFromASoundSaidToBeSnoringIsWrittenWithWhatWasSaid() throws {
    var trace = DecisionTrace(rule: Profile.balanced.rule(for: .cough), peakSmoothed: 0.8, peakRaw: 0.9, levelDbfs: -30, floorDbfs: -50,
                              profileName: "balanced", profileSHA256: "ab")
    trace.home = HomeMemory.Match(eventID: "r1795389000-e5", at: "2026-11-22T02:14:10.500Z", distance: 1.4, holdsBack: true, said: .snoring)
    let start = SomniqCore.EventStart(id: "e9", soundClass: .cough, tier: .medium, onset: 3, confidence: 0.8, alert: false,
                                      suppressed: .home, trace: trace)
    let line = LogRecord.eventStart(.init(start)).line
    #expect(line.hasSuffix(#""home":{"like":"r1795389000-e5","label":"not","said":"snoring","at":"2026-11-22T02:14:10.500Z","distance":1.4}}}"#),
            "\(line)")
    guard case let .eventStart(read)? = try LogRecord.parse(line)?.get() else { Issue.record("not an event_start: \(line)"); return }
    #expect(read.trace?.home?.said == .snoring && read.trace?.home?.was == nil && read.trace?.home?.label == "not")
    #expect(LogRecord.eventStart(read).line == line)
    let old = line.replacing(#""said":"snoring","#, with: "")
    guard case let .eventStart(before)? = try LogRecord.parse(old)?.get() else { Issue.record("not an event_start: \(old)"); return }
    #expect(before.trace?.home?.said == nil && before.trace?.home?.label == "not" && LogRecord.eventStart(before).line == old)
}

/// An event held back as much nearer a sound marked right as another class than any marked
/// right as its own: its `label` is `right`, its `class` that sound's.
@Test func anEventHeldBackAsASoundConfirmedAsAnotherClassIsWrittenWithThatClass() throws {
    var trace = DecisionTrace(rule: Profile.balanced.rule(for: .dogBark), peakSmoothed: 0.8, peakRaw: 0.9, levelDbfs: -30, floorDbfs: -50,
                              profileName: "balanced", profileSHA256: "ab")
    trace.home = HomeMemory.Match(eventID: "r1795389000-e8", at: nil, distance: 0.2, holdsBack: true, confirmed: .door)
    let start = SomniqCore.EventStart(id: "e9", soundClass: .dogBark, tier: .medium, onset: 3, confidence: 0.8, alert: false,
                                      suppressed: .home, trace: trace)
    let line = LogRecord.eventStart(.init(start)).line
    #expect(line.hasSuffix(#""home":{"like":"r1795389000-e8","label":"right","class":"door","distance":0.2}}}"#), "\(line)")
    guard case let .eventStart(read)? = try LogRecord.parse(line)?.get() else { Issue.record("not an event_start: \(line)"); return }
    #expect(read.trace?.home?.confirmed == .door && read.trace?.home?.was == nil)
    #expect(LogRecord.eventStart(read).line == line)
}

/// An event of a class this home's fit decides: the trace's `fit` names the class, its shift,
/// when the fit was learned and from how many marks, and reads back as written.
@Test func anEventDecidedWithThisHomesFitIsWrittenWithIt() throws {
    var trace = DecisionTrace(rule: Profile.balanced.rule(for: .cough), peakSmoothed: 0.75, peakRaw: 0.75, levelDbfs: -30, floorDbfs: -50,
                              profileName: "balanced", profileSHA256: "ab")
    trace.fit = HomeFit.Decided(soundClass: .cough, shift: 1.1106, learned: "2026-11-23T12:00:00.000Z", marks: 3)
    let start = SomniqCore.EventStart(id: "e4", soundClass: .cough, tier: .medium, onset: 3, confidence: 0.75, alert: true,
                                      suppressed: nil, trace: trace)
    let line = LogRecord.eventStart(.init(start)).line
    #expect(line.hasSuffix(#""fit":{"class":"cough","shift":1.1106,"learned":"2026-11-23T12:00:00.000Z","marks":3}}}"#), "\(line)")
    guard case let .eventStart(read)? = try LogRecord.parse(line)?.get() else { Issue.record("not an event_start: \(line)"); return }
    let fit = try #require(read.trace?.fit)
    #expect(fit.soundClass == "cough" && fit.shift == 1.1106 && fit.learned == "2026-11-23T12:00:00.000Z" && fit.marks == 3)
    #expect(LogRecord.eventStart(read).line == line)
}
