import Testing
@testable import SomniqCore

private func scores(_ c: SoundClass, _ values: [Float]) -> [ClassScores] {
    values.map { v in var s = ClassScores(); s[c] = v; return s }
}

private func process(_ profile: Profile, _ frames: [ClassScores]) -> [AlertOutput] {
    var p = AlertProcessor(profile: profile)
    var out: [AlertOutput] = []
    for (i, f) in frames.enumerated() { out += p.step(f, frame: i, levels: .init(levelDbfs: -30, floorDbfs: -50)) }
    out += p.finish()
    return out
}

@Test func cooldownSuppressedEventIsLoggedWithReason() {
    // balanced: cough has debounce 0, no smoothing, cooldown 15 s.
    let outputs = process(.balanced, scores(.cough, [0.9, 0, 0, 0, 0.9, 0, 0]))
    let starts = outputs.compactMap { if case let .start(e) = $0 { e } else { nil } }
    #expect(starts.map(\.onset) == [0.0, 2.0])
    #expect(starts.map(\.alert) == [true, false])
    #expect(starts.map(\.suppressed) == [nil, .cooldown])
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

@Test func theTraceCarriesTheLearnedWeightsOfTheFrameItsEventStartsOn() {
    var p = AlertProcessor(profile: .balanced)
    let levels = AlertProcessor.Levels(levelDbfs: -30, floorDbfs: -50)
    var asked: [(SoundClass, Int)] = []
    var out: [AlertOutput] = []
    for (i, v) in [Float(0), 0.9, 0.9].enumerated() {
        var s = ClassScores(); s[.cough] = v
        out += p.step(s, frame: i, classes: [.cough, .music], levels: levels) { c in
            asked.append((c, i))
            return [LearnedRules.Weight(input: "flux@0", value: Double(i), weight: 0.5)]
        }
    }
    guard case let .start(e)? = out.first else { Issue.record("no event: \(out)"); return }
    // Asked only for the class whose event starts, at the frame it starts on.
    #expect(asked.map(\.0) == [.cough] && asked.map(\.1) == [1])
    #expect(e.trace.weights == [LearnedRules.Weight(input: "flux@0", value: 1, weight: 0.5)])
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
        out += p.step(s, frame: i, levels: .init(levelDbfs: -30, floorDbfs: -50))
    }
    let text = Profile.builtinTexts.first { $0.name == "balanced" }!.text
        .replacing("\"cough\": {", with: "\"cough\": {\n      \"enabled\": false,")
    out += p.reload(try Profile(json: text, file: "night.json"))
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
        out += p.step(s, frame: i, classes: [.cough], levels: levels)
        if i >= 16 { out += p.step(s, frame: i - 16, classes: [.snoring], levels: levels) }
    }
    out += p.finish()
    let ends = out.compactMap { if case let .end(e) = $0 { e } else { nil } }
    let cough = ends.first { $0.soundClass == .cough }, snoring = ends.first { $0.soundClass == .snoring }
    #expect(cough?.onset == 0 && cough?.offset == 12 && cough?.truncated == true, "\(ends)")
    // Snoring is smoothed (τ 0.5 s): it reaches `on` at its second frame.
    #expect(snoring?.onset == 0.5 && snoring?.offset == 4 && snoring?.truncated == true, "\(ends)")
}

@Test func theConfidenceShownIsThePeakSmoothedScoreTheThresholdCompared() throws {
    // balanced snoring: EMA smoothing, on 0.7. Raw scores that average 0.77 over the event
    // but whose smoothed peak, the figure `on` is compared with, is higher.
    let outputs = process(.balanced, scores(.snoring, [0.6, 1, 1, 1, 1, 1, 1, 0.4, 0.4, 0.4, 0, 0, 0, 0, 0, 0]))
    let start = try #require(outputs.compactMap { if case let .start(e) = $0 { e } else { nil } }.first)
    let end = try #require(outputs.compactMap { if case let .end(e) = $0 { e } else { nil } }.first)
    #expect(start.confidence == start.trace.peakSmoothed)
    #expect(start.confidence >= Profile.balanced.rule(for: .snoring).on)
    #expect(end.confidence >= start.confidence && end.confidence <= 1)
    // An event shown under `on` could never have been raised by it: none is.
    let strict = try Profile(json: #"{"name": "strict", "extends": "balanced", "classes": {"snoring": {"on": 0.9, "min_confidence": 0.8}}}"#,
                             file: "strict.json")
    for output in process(strict, scores(.snoring, [0.85, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85, 0, 0, 0, 0])) {
        Issue.record("raised with the smoothed score never at 0.9: \(output)")
    }
}

@Test func aClassTheProfileDoesNotAlertIsLoggedSuppressedByTheProfileAndStartsNoCooldown() throws {
    let quiet = try Profile(json: #"{"name": "doors", "extends": "balanced", "classes": {"door": {"alert": false}}}"#, file: "doors.json")
    #expect(!quiet.rule(for: .door).alert && quiet.rule(for: .cough).alert)
    #expect(quiet.rule(for: .door).json["alert"] == .bool(false) && quiet.rule(for: .cough).json["alert"] == nil)
    let outputs = process(quiet, scores(.door, [0.9, 0, 0, 0.9, 0, 0]))
    let starts = outputs.compactMap { if case let .start(e) = $0 { e } else { nil } }
    #expect(starts.map(\.onset) == [0.0, 1.5])
    #expect(starts.map(\.alert) == [false, false])
    #expect(starts.map(\.suppressed) == [.profile, .profile])
}

/// A smoke alarm's event spans what the alarm detector heard (the hook its descriptor names,
/// `AlarmSpan`): it opens at the alarm's first beep, though its score rose seconds later, and
/// ends at its last beep heard. Another class given the same alarm keeps its machine's bounds.
@Test func aSmokeAlarmsEventSpansWhatTheDetectorHeard() throws {
    let levels = AlertProcessor.Levels(levelDbfs: -30, floorDbfs: -50)
    let raised = [Float](repeating: 0, count: 8) + [Float](repeating: 0.95, count: 8) + [Float](repeating: 0, count: 12)
    func run(_ c: SoundClass, _ alarm: AlarmDetector.Span?, frames: [Float] = raised, end: Bool = false) -> [AlertOutput] {
        var p = AlertProcessor(profile: .balanced)
        var out: [AlertOutput] = []
        for (i, v) in frames.enumerated() {
            var s = ClassScores()
            s[c] = v
            out += p.step(s, frame: i, levels: levels, alarm: alarm)
        }
        return out + p.finish(alarm: end ? alarm : nil)
    }
    func bounds(_ out: [AlertOutput]) -> [Double] {
        out.map { if case let .start(e) = $0 { e.onset } else if case let .end(e) = $0 { e.offset } else { -1 } }
    }
    let machine = bounds(run(.smokeAlarm, nil))
    #expect(machine.count == 2)
    // Heard from 2.25 s (before the machine's onset, within its confirmation) to 6 s.
    let heard = AlarmDetector.Span(from: 2.25, to: machine[0], active: false, pattern: .temporalThree, hz: 3100, lastHeard: 6)
    #expect(bounds(run(.smokeAlarm, heard)) == [2.25, 6])
    #expect(bounds(run(.cough, heard)) == bounds(run(.cough, nil)))
    // One that began longer before than any pattern takes to confirm is another alarm's.
    let old = AlarmDetector.Span(from: machine[0] - AlarmDetector.longestConfirmation - 1, to: machine[0] - AlarmDetector.longestConfirmation - 0.5,
                                 active: false, pattern: .temporalThree, hz: 3100, lastHeard: 1)
    #expect(bounds(run(.smokeAlarm, old)) == machine)
    // An alarm heard on after the stream ends: its event, open at the end, ends at its last beep.
    let open = [Float](repeating: 0, count: 8) + [Float](repeating: 0.95, count: 12)
    let sounding = AlarmDetector.Span(from: 2.25, to: 9.5, active: true, pattern: .temporalThree, hz: 3100, lastHeard: 9.25)
    #expect(bounds(run(.smokeAlarm, sounding, frames: open, end: true)) == [2.25, 9.25])
    // The span of an alarm whose event has ended opens no second event at its first beep.
    let twice = raised + raised
    let again = bounds(run(.smokeAlarm, heard, frames: twice))
    #expect(again.count == 4 && again[0] == 2.25 && again[1] == 6 && again[2] == machine[0] + 14)
}
