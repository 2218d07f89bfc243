import Testing
@testable import SomniqCore

private let base = #""base": {"min_confidence": 0.4, "on": 0.7, "off": 0.5, "debounce_s": 2, "cooldown_s": 15, "smoothing": {"method": "ema", "tau_s": 0.5}, "enabled": true}"#

private func problem(_ body: String) -> String? {
    do {
        _ = try Profile(json: "{\"name\": \"night\", \(body)}", file: "night.json")
        return nil
    } catch {
        return error.description
    }
}

@Test func offAboveOnNamesTheClassKey() {
    #expect(problem(base + #", "classes": {"snoring": {"off": 0.8}}"#)
            == "night.json: classes.snoring.off: 0.8 is above on (0.7)")
}

@Test func onBelowOffNamesTheMoreSpecificKey() {
    #expect(problem(base + #", "tiers": {"high": {"on": 0.4}}"#)
            == "night.json: tiers.high.on: 0.4 is below off (0.5)")
}

@Test func unknownKeyIsAnError() {
    #expect(problem(base + #", "classes": {"cough": {"debounce": 1}}"#)
            == "night.json: classes.cough.debounce: unknown key (expected one of: tier, on, off, debounce_s, cooldown_s, smoothing, min_confidence, enabled)")
}

@Test func wrongTypeIsAnError() {
    #expect(problem(base + #", "classes": {"cough": {"enabled": "yes"}}"#)
            == "night.json: classes.cough.enabled: must be true or false, not a string")
    #expect(problem(base + #", "tiers": {"low": {"on": "0.9"}}"#)
            == "night.json: tiers.low.on: must be a number, not a string")
}

@Test func valueOutsideUnitIntervalIsAnError() {
    #expect(problem(base + #", "classes": {"music": {"min_confidence": 1.2}}"#)
            == "night.json: classes.music.min_confidence: 1.2 is outside [0, 1]")
}

@Test func negativeTimeIsAnError() {
    #expect(problem(base + #", "tiers": {"medium": {"cooldown_s": -1}}"#)
            == "night.json: tiers.medium.cooldown_s: -1 is negative (a time in seconds must be ≥ 0)")
}

@Test func unknownClassOrTierIsAnError() {
    #expect(problem(base + #", "classes": {"snore": {"on": 0.9}}"#)
            == "night.json: classes.snore: unknown class (see `somniq profiles show balanced` for the list)")
    #expect(problem(base + #", "tiers": {"urgent": {"on": 0.9}}"#)
            == "night.json: tiers.urgent: unknown tier (expected one of: critical, high, medium, low)")
    #expect(problem(base + #", "classes": {"cough": {"tier": "urgent"}}"#)
            == "night.json: classes.cough.tier: unknown tier \"urgent\" (expected one of: critical, high, medium, low)")
}

@Test func missingBaseFieldIsAnError() {
    #expect(problem(#""base": {"on": 0.7}"#) == "night.json: base.off: is missing (the base must set every field)")
}

@Test func badSmoothingIsAnError() {
    #expect(problem(base + #", "classes": {"cough": {"smoothing": {"method": "median"}}}"#)
            == "night.json: classes.cough.smoothing.method: unknown method \"median\" (expected \"ema\", \"window_mean\" or \"none\")")
    #expect(problem(base + #", "classes": {"cough": {"smoothing": {"method": "window_mean", "window_s": 2, "threshold": 0.3}}}"#)
            == "night.json: classes.cough.smoothing.threshold: 0.3 is below off (0.5)")
}

@Test func invalidJSONSaysWhere() {
    #expect(problem("\"base\": ") == "night.json: not valid JSON (line 1, column 27: unexpected character '}')")
}

@Test func effectiveRuleTakesClassThenTierThenBase() throws {
    let p = try Profile(json: "{\"name\": \"night\", \(base), \"tiers\": {\"high\": {\"debounce_s\": 1, \"on\": 0.8}}, \"classes\": {\"cough\": {\"debounce_s\": 0}}}", file: "night.json")
    #expect(p.rule(for: .cough).debounce == 0)        // class override
    #expect(p.rule(for: .cough).on == 0.8)            // tier adjustment
    #expect(p.rule(for: .snoring).debounce == 1)      // tier adjustment
    #expect(p.rule(for: .speech).debounce == 2)       // base (medium tier has no adjustment)
    #expect(p.resolve(.cough).adjusted.map(\.field) == ["on", "debounce_s"])
}

@Test func builtinProfilesKeepTheSpecBaseNumbers() {
    let expected: [(String, Double, Double, Double, Double, Double)] = [
        ("very_conservative", 0.7, 0.9, 0.7, 5.0, 60), ("conservative", 0.6, 0.8, 0.6, 3.0, 30),
        ("balanced", 0.4, 0.7, 0.5, 2.0, 15), ("sensitive", 0.3, 0.6, 0.4, 1.0, 8),
        ("very_sensitive", 0.2, 0.5, 0.3, 0.5, 3),
    ]
    #expect(Profile.builtinNames == expected.map(\.0))
    for (name, conf, on, off, debounce, cooldown) in expected {
        let p = Profile.builtin(name)!
        #expect(p.base.minConfidence == conf && p.base.on == on && p.base.off == off)
        #expect(p.base.debounce == debounce && p.base.cooldown == cooldown)
    }
}
