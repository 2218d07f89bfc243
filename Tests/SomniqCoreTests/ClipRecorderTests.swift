import Testing
@testable import SomniqCore

private func start(_ id: String, _ c: SoundClass, tier: Tier, onset: Double, alert: Bool = true,
                   suppressed: Suppression = .cooldown) -> EventStart {
    EventStart(id: id, soundClass: c, tier: tier, onset: onset, confidence: 0.9, alert: alert, suppressed: alert ? nil : suppressed,
               trace: DecisionTrace(rule: Profile.balanced.rule(for: c), peakSmoothed: 1, peakRaw: 1, levelDbfs: -20,
                                    floorDbfs: -60, profileName: "balanced", profileSHA256: ""))
}

private func end(_ id: String, _ c: SoundClass, onset: Double, offset: Double) -> EventEnd {
    EventEnd(id: id, soundClass: c, onset: onset, offset: offset, peakDbfs: -20, confidence: 0.9, truncated: false)
}

/// A stream whose sample n holds n itself, so a clip says exactly where it starts.
private func push(_ r: ClipRecorder, from: Int, count: Int) -> [ClipRecorder.Clip] {
    let block = (from..<from + count).map(Float.init)
    return block.withUnsafeBufferPointer { r.append($0) }
}

@Test func onlyAlertedOrHomeHeldBackEventsAtTheTierOrAboveOfKeptClassesKeepAClip() {
    let policy = ClipPolicy()
    #expect(policy.keeps(start("a", .smokeAlarm, tier: .critical, onset: 1)))
    #expect(policy.keeps(start("b", .cough, tier: .high, onset: 1)))
    #expect(!policy.keeps(start("c", .door, tier: .medium, onset: 1)))
    #expect(!policy.keeps(start("d", .cough, tier: .high, onset: 1, alert: false)), "a suppressed event alerted no one")
    #expect(!policy.keeps(start("d", .cough, tier: .high, onset: 1, alert: false, suppressed: .profile)))
    // Held back by this home's memory: kept, so that it can be heard and marked right.
    #expect(policy.keeps(start("d", .cough, tier: .high, onset: 1, alert: false, suppressed: .home)))
    #expect(!policy.keeps(start("d", .door, tier: .medium, onset: 1, alert: false, suppressed: .home)), "below min_tier all the same")
    // What people say is never kept by default, at any tier; named, it is.
    #expect(!policy.keeps(start("e", .speech, tier: .critical, onset: 1)))
    #expect(!policy.keeps(start("f", .laughter, tier: .high, onset: 1)))
    var named = ClipPolicy()
    named.minTier = .low
    named.classes = [.speech]
    #expect(named.keeps(start("g", .speech, tier: .medium, onset: 1)))
    #expect(!named.keeps(start("h", .cough, tier: .high, onset: 1)), "classes names every class kept")
}

@Test func aClipRunsFromPreBeforeTheOnsetToPostAfterTheEnd() {
    let r = ClipRecorder(policy: ClipPolicy(), delaySeconds: 10)          // pre 5 s, post 3 s
    #expect(push(r, from: 0, count: 16_000 * 20).isEmpty)
    // Decided at 20 s, with its onset at 12 s: the clip starts at 7 s, from the ring.
    #expect(r.started(start("e1", .cough, tier: .high, onset: 12), name: "c.flac"))
    #expect(push(r, from: 16_000 * 20, count: 16_000 * 5).isEmpty)
    #expect(r.ended(end("e1", .cough, onset: 12, offset: 22)) == "c.flac")
    // Complete once the stream has passed 25 s: the samples past it are not taken.
    let clips = push(r, from: 16_000 * 25, count: 16_000 * 2)
    #expect(clips.count == 1)
    let c = clips[0]
    #expect(c.name == "c.flac" && c.eventID == "e1" && c.startSeconds == 7)
    #expect(c.samples.count == 16_000 * 18)
    #expect(c.samples.first == Float(16_000 * 7) && c.samples.last == Float(16_000 * 25 - 1))
    #expect(zip(c.samples, c.samples.dropFirst()).allSatisfy { $1 == $0 + 1 }, "no sample lost or repeated")
}

@Test func aLongEventKeepsItsFirstAndLoudestHalfClips() {
    var policy = ClipPolicy()
    policy.maxSeconds = 10
    let r = ClipRecorder(policy: policy, delaySeconds: 5)
    // A quiet event from 6 s to 38 s with a loud burst at 25–28 s (a snore train's loudest).
    func level(_ n: Int) -> Float { (25 * 16_000..<28 * 16_000).contains(n) ? 0.5 : 0.01 }
    func stream(_ from: Int, _ count: Int) -> [ClipRecorder.Clip] {
        let block = (from..<from + count).map(level)
        return block.withUnsafeBufferPointer { r.append($0) }
    }
    _ = stream(0, 8 * 16_000)
    r.started(start("e1", .snoring, tier: .high, onset: 6), name: "s.flac")
    _ = stream(8 * 16_000, 31 * 16_000)
    _ = r.ended(end("e1", .snoring, onset: 6, offset: 38))
    let clips = stream(39 * 16_000, 3 * 16_000)
    #expect(clips.count == 1)
    let c = clips[0].samples
    #expect(c.count == 10 * 16_000 && clips[0].startSeconds == 1)
    // The first 5 s from 1 s as heard; then the first 5 whole seconds holding all of the
    // burst, 23–28 s.
    #expect(c[0..<5 * 16_000].allSatisfy { $0 == 0.01 })
    #expect(c[5 * 16_000..<7 * 16_000].allSatisfy { $0 == 0.01 })
    #expect(c[7 * 16_000..<10 * 16_000].allSatisfy { $0 == 0.5 })
}

@Test func anOnsetOlderThanTheRingStartsAtItsOldestAndAFullClipKeepsItsLoudestStretch() {
    var policy = ClipPolicy()
    policy.maxSeconds = 10
    let r = ClipRecorder(policy: policy, delaySeconds: 1)                  // a ring of 6 s
    #expect(r.ringSeconds == 6)
    _ = push(r, from: 0, count: 16_000 * 30)
    // An onset at 5 s, decided at 30 s: the ring goes back to 24 s only.
    r.started(start("e1", .snoring, tier: .high, onset: 5), name: "s.flac")
    _ = push(r, from: 16_000 * 30, count: 16_000 * 30)
    _ = r.ended(end("e1", .snoring, onset: 5, offset: 58))
    let clips = push(r, from: 16_000 * 60, count: 16_000 * 2)
    #expect(clips.count == 1)
    #expect(clips[0].startSeconds == 24)
    #expect(clips[0].samples.count == 16_000 * 10)
    #expect(clips[0].samples.first == Float(16_000 * 24))
    // Its first 5 s, then the loudest 5 s while it lasted: here the last, 55–60 s.
    #expect(clips[0].samples[16_000 * 5 - 1] == Float(16_000 * 29 - 1))
    #expect(clips[0].samples[16_000 * 5] == Float(16_000 * 55) && clips[0].samples.last == Float(16_000 * 60 - 1))
}

@Test func theStreamsEndCompletesEveryOpenClip() {
    let r = ClipRecorder(policy: ClipPolicy(), delaySeconds: 5)
    _ = push(r, from: 0, count: 16_000 * 10)
    r.started(start("e1", .smokeAlarm, tier: .critical, onset: 8), name: "a.flac")
    r.started(start("e2", .speech, tier: .medium, onset: 9), name: "s.flac")
    _ = push(r, from: 16_000 * 10, count: 16_000)
    let clips = r.finish()
    #expect(clips.map(\.name) == ["a.flac"])
    #expect(clips[0].samples.count == 16_000 * 8)
}
