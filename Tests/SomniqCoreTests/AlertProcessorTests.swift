import Testing
@testable import SomniqCore

private func scores(_ c: SoundClass, _ values: [Float]) -> [ClassScores] {
    values.map { v in var s = ClassScores(); s[c] = v; return s }
}

private func process(_ profile: Profile, _ frames: [ClassScores]) -> [AlertOutput] {
    var p = AlertProcessor(profile: profile)
    var out: [AlertOutput] = []
    for (i, f) in frames.enumerated() { p.step(f, frame: i, levels: .init(levelDbfs: -30, floorDbfs: -50)) { out.append($0) } }
    p.finish { out.append($0) }
    return out
}

@Test func cooldownSuppressedEventIsLoggedWithReason() {
    // balanced: cough has debounce 0, no smoothing, cooldown 15 s.
    let outputs = process(.balanced, scores(.cough, [0.9, 0, 0, 0, 0.9, 0, 0]))
    let starts = outputs.compactMap { if case let .start(e) = $0 { e } else { nil } }
    #expect(starts.map(\.onset) == [0.0, 2.0])
    #expect(starts.map(\.alert) == [true, false])
    #expect(starts.map(\.suppressed) == [nil, "cooldown"])
    #expect(starts.map(\.id) == ["e1", "e2"])
}

@Test func everyEventCarriesItsDecisionTrace() {
    let outputs = process(.balanced, scores(.smokeAlarm, [0, 0.95, 0.95, 0.95, 0]))
    guard case let .start(e)? = outputs.first else { Issue.record("no event"); return }
    #expect(e.soundClass == .smokeAlarm && e.tier == .critical)
    #expect(e.trace.rule == Profile.balanced.rule(for: .smokeAlarm))
    #expect(e.trace.peakRaw == Double(Float(0.95)))
    #expect(e.trace.levelDbfs == -30 && e.trace.floorDbfs == -50)
    #expect(e.trace.profileName == "balanced")
    #expect(e.trace.profileSHA256 == Profile.balanced.sha256)
}

@Test func eventOpenAtEndOfStreamIsClosedTruncated() {
    let outputs = process(.balanced, scores(.cough, [0.9, 0.9, 0.9]))
    guard case let .end(e)? = outputs.last else { Issue.record("no end"); return }
    #expect(e.truncated)
    #expect(e.offset == 1.5)
}

@Test func reloadThatDisablesAClassClosesItsOpenEvent() throws {
    var p = AlertProcessor(profile: .balanced)
    var out: [AlertOutput] = []
    for (i, v) in [Float(0.9), 0.9].enumerated() {
        var s = ClassScores(); s[.cough] = v
        p.step(s, frame: i, levels: .init(levelDbfs: -30, floorDbfs: -50)) { out.append($0) }
    }
    let text = Profile.builtinTexts.first { $0.name == "balanced" }!.text
        .replacing("\"cough\": {", with: "\"cough\": {\n      \"enabled\": false,")
    p.reload(try Profile(json: text, file: "night.json")) { out.append($0) }
    guard case let .end(e)? = out.last else { Issue.record("not closed: \(out)"); return }
    #expect(e.soundClass == .cough && e.offset == 1.0 && !e.truncated)
}

@Test func aClassSettledLaterRunsOnItsOwnFramesAndEndsAtItsOwnLast() {
    // Snoring settled 16 frames after the cough, as the classifier settles trains.
    var p = AlertProcessor(profile: .balanced)
    var out: [AlertOutput] = []
    let levels = AlertProcessor.Levels(levelDbfs: -30, floorDbfs: -50)
    for i in 0..<24 {
        var s = ClassScores(); s[.cough] = 0.9; s[.snoring] = 0.9
        p.step(s, frame: i, classes: [.cough], levels: levels) { out.append($0) }
        if i >= 16 { p.step(s, frame: i - 16, classes: [.snoring], levels: levels) { out.append($0) } }
    }
    p.finish { out.append($0) }
    let ends = out.compactMap { if case let .end(e) = $0 { e } else { nil } }
    let cough = ends.first { $0.soundClass == .cough }, snoring = ends.first { $0.soundClass == .snoring }
    #expect(cough?.onset == 0 && cough?.offset == 12 && cough?.truncated == true, "\(ends)")
    // Snoring is smoothed (τ 0.5 s): it reaches `on` at its second frame.
    #expect(snoring?.onset == 0.5 && snoring?.offset == 4 && snoring?.truncated == true, "\(ends)")
}
