import Testing
@testable import SomniqCore

/// Feeds `scores` as consecutive frames (0.5 s apart) and collects the actions.
private func run(_ machine: inout AlertStateMachine, _ scores: [Double], from first: Int = 0) -> [AlertStateMachine.Action] {
    scores.enumerated().compactMap { machine.step($0.element, frame: first + $0.offset) }
}

private func rule(on: Double = 0.7, off: Double = 0.5, debounce: Double = 0, cooldown: Double = 0,
                  smoothing: Smoothing = .none, minConfidence: Double = 0) -> AlertRule {
    AlertRule(on: on, off: off, debounce: debounce, cooldown: cooldown, smoothing: smoothing, minConfidence: minConfidence)
}

@Test func debounceKeepsOnsetAtCandidateStart() {
    var machine = AlertStateMachine(rule: rule(debounce: 2.0, cooldown: 15))
    #expect(run(&machine, [0, 0.9, 0.9, 0.9, 0.9, 0.9, 0.2]) == [.open(onset: 0.5), .close(offset: 3.0)])
}

@Test func candidateShorterThanDebounceIsNotAnEvent() {
    var machine = AlertStateMachine(rule: rule(debounce: 2.0))
    // 0.5 … 2.0 s is 1.5 s: one frame short of the debounce.
    #expect(run(&machine, [0, 0.9, 0.9, 0.9, 0.9, 0.2, 0, 0]).isEmpty)
}

@Test func hysteresisStartsAtOnAndEndsBelowOff() {
    var machine = AlertStateMachine(rule: rule(on: 0.7, off: 0.5))
    // 0.6 is below on: nothing starts. 0.7 starts; 0.55 and 0.5 hold it; 0.49 ends it.
    #expect(run(&machine, [0.6, 0.7, 0.55, 0.5, 0.49, 0.6]) == [.open(onset: 0.5), .close(offset: 2.0)])
}

@Test func cooldownSuppressesTheAlertButKeepsTheEvent() {
    var machine = AlertStateMachine(rule: rule(cooldown: 3.0))
    let actions = run(&machine, [0.9, 0.2, 0, 0.9, 0.2, 0, 0, 0, 0, 0.9, 0.1])
    #expect(actions == [
        .open(onset: 0.0), .close(offset: 0.5),
        .open(onset: 1.5, suppressed: true), .close(offset: 2.0),   // 1.0 s after the alerted end
        .open(onset: 4.5), .close(offset: 5.0),                     // 4.0 s after it: alerted again
    ])
}

@Test func cooldownCountsFromTheLastAlertedEventNotTheLastEvent() {
    var machine = AlertStateMachine(rule: rule(cooldown: 2.0))
    // Alerted event ends at 0.5; a suppressed one runs 1.0–1.5; the next at 2.5 is 2.0 s after 0.5.
    let actions = run(&machine, [0.9, 0, 0.9, 0, 0, 0.9, 0])
    #expect(actions == [.open(onset: 0), .close(offset: 0.5), .open(onset: 1.0, suppressed: true), .close(offset: 1.5),
                        .open(onset: 2.5), .close(offset: 3.0)])
}

@Test func uncertaintyFilterZeroesScoresBelowMinConfidence() {
    var machine = AlertStateMachine(rule: rule(on: 0.3, off: 0.2, minConfidence: 0.4))
    // 0.35 would pass `on` but is below min_confidence, so it counts as 0.
    #expect(run(&machine, [0.35, 0.35, 0.45, 0.35]) == [.open(onset: 1.0), .close(offset: 1.5)])
}

@Test func emaSmoothingDelaysAndBridges() {
    // tau = 0.5 s: alpha = 1 − e^(−1) ≈ 0.632.
    var machine = AlertStateMachine(rule: rule(on: 0.7, off: 0.3, smoothing: .ema(tau: 0.5)))
    // 0.632, 0.865 (start at 0.5 s), 0.318 (a one-frame dip is bridged), 0.749, 0.276 (ends at 2.0 s).
    let actions = run(&machine, [1, 1, 0, 1, 0, 0])
    #expect(actions == [.open(onset: 0.5), .close(offset: 2.0)])
}

@Test func windowMeanUsesItsThresholdInsteadOfOn() {
    // Mean of the last 1.0 s (2 frames); threshold 0.6; on (0.9) is not used.
    var machine = AlertStateMachine(rule: rule(on: 0.9, off: 0.4, smoothing: .windowMean(window: 1.0, threshold: 0.6)))
    // means: 0.35, 0.7 (start at 0.5), 0.7, 0.35 (< 0.4: end at 1.5)
    #expect(run(&machine, [0.7, 0.7, 0.7, 0.0]) == [.open(onset: 0.5), .close(offset: 1.5)])
}

@Test func emaAndWindowMeanDifferOnTheSameScores() {
    let scores: [Double] = [0, 1, 1, 0, 0, 0, 0]
    var ema = AlertStateMachine(rule: rule(on: 0.8, off: 0.3, smoothing: .ema(tau: 0.5)))
    var mean = AlertStateMachine(rule: rule(on: 0.8, off: 0.3, smoothing: .windowMean(window: 1.5, threshold: 0.6)))
    // EMA: 0.632, 0.865 (start 1.0), 0.318, 0.117 (end 2.0).
    #expect(run(&ema, scores) == [.open(onset: 1.0), .close(offset: 2.0)])
    // Mean of 3 frames: 0.333, 0.667 (start 1.0), 0.667, 0.333, 0 (end 2.5).
    #expect(run(&mean, scores) == [.open(onset: 1.0), .close(offset: 2.5)])
}

@Test func finishClosesAnOpenEventAsTruncated() {
    var machine = AlertStateMachine(rule: rule())
    #expect(run(&machine, [0.9, 0.9]) == [.open(onset: 0)])
    #expect(machine.finish(frame: 2) == .close(offset: 1.0, truncated: true))
    #expect(machine.finish(frame: 3) == nil)
}

@Test func finishDropsAnUnconfirmedCandidate() {
    var machine = AlertStateMachine(rule: rule(debounce: 2))
    #expect(run(&machine, [0.9, 0.9]).isEmpty)
    #expect(machine.finish(frame: 2) == nil)
}

@Test func disabledRuleNeverOpens() {
    var r = rule()
    r.enabled = false
    var machine = AlertStateMachine(rule: r)
    #expect(run(&machine, [1, 1, 1, 0]).isEmpty)
}
