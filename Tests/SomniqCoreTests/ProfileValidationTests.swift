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
            == "night.json: classes.cough.debounce: unknown key (expected one of: tier, on, off, debounce_s, cooldown_s, smoothing, min_confidence, enabled, alert)")
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
            == "night.json: tiers.medium.cooldown_s: -1 must be from 0 to 3600 seconds")
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
    #expect(problem(#""base": {"on": 0.7}"#) == "night.json: base.off: is missing (the base must set every field, unless the profile extends another)")
    #expect(problem(#""classes": {}"#) == "night.json: base: is missing (or start from another profile with \"extends\": \"balanced\")")
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

// MARK: extends

private func child(_ body: String) throws -> Profile {
    try Profile(json: "{\"name\": \"night\", \"extends\": \"balanced\", \(body)}", file: "night.json")
}

@Test func aProfileThatExtendsChangesOnlyWhatItNames() throws {
    let p = try child(#""base": {"on": 0.8}, "classes": {"door": {"tier": "low"}, "music": {"enabled": false}}"#)
    let balanced = Profile.balanced
    for c in SoundClass.allCases {
        var expected = balanced.rule(for: c)
        expected.on = 0.8
        if c == .door { expected.tier = .low }
        if c == .music { expected.enabled = false }
        #expect(p.rule(for: c) == expected, "\(c.rawValue)")
    }
    // The door keeps balanced's class override (no debounce, no smoothing) beside its new tier.
    #expect(p.rule(for: .door).debounce == 0 && p.rule(for: .door).smoothing == Smoothing.none)
    #expect(p.ancestors == ["balanced"])
    #expect(p.description == "balanced with changes")
}

@Test func eachFieldKnowsWhichProfileSetIt() throws {
    let p = try child(#""base": {"on": 0.8}, "classes": {"door": {"tier": "low"}}"#)
    #expect(p.origin(of: "on", in: .base) == "night")
    #expect(p.origin(of: "off", in: .base) == "balanced")
    #expect(p.origin(of: "tier", in: .classOverride(.door)) == "night")
    #expect(p.origin(of: "debounce_s", in: .classOverride(.door)) == "balanced")
    #expect(p.origin(of: "debounce_s", in: .tier(.critical)) == "balanced")
    // A standalone profile set everything itself.
    #expect(Profile.balanced.origins.isEmpty)
}

@Test func inheritedRulesAreValidatedAsAWhole() {
    // balanced's on is 0.7: an off above it is an error in the child, at the child's key.
    #expect(problem(#""extends": "balanced", "base": {"off": 0.8}"#) == "night.json: base.off: 0.8 is above on (0.7)")
    #expect(problem(#""extends": "balanced", "classes": {"cough": {"on": 0.4}}"#) == "night.json: classes.cough.on: 0.4 is below off (0.5)")
    #expect(problem(#""extends": "balance""#)
            == "night.json: extends: no built-in profile \"balance\" (built-in profiles: very_conservative, conservative, balanced, sensitive, very_sensitive)")
    #expect(problem(#""extends": 3"#) == "night.json: extends: must be a string, not a number")
}

@Test func theHashOfAProfileThatExtendsCoversItsParent() throws {
    let text = #"{"name": "night", "extends": "balanced", "base": {"on": 0.8}}"#
    let a = try Profile(json: text, file: "a.json")
    let b = try Profile(json: text, file: "b.json") { _ throws(ProfileError) in Profile.builtin("sensitive")! }
    #expect(a.sha256 != b.sha256)
    #expect(a.sha256 == SHA256.hex(Array((text + "\n" + Profile.balanced.sha256).utf8)))
}

// MARK: warnings

@Test func theBuiltinProfilesGiveNoWarnings() {
    for name in Profile.builtinNames { #expect(Profile.builtin(name)!.warnings == [], "\(name)") }
}

@Test func aDebounceLongerThanTheSoundIsAWarning() throws {
    // The base a profile without `extends` must write, with no class adjustments: a 2 s
    // debounce outlasts glass, a scream, a gasp, a cough, a bark, a laugh, a door and the one-frame
    // breathing pause.
    let p = try Profile(json: "{\"name\": \"night\", \(base)}", file: "night.json")
    #expect(p.warnings.map(\.soundClass) == [.glassBreak, .scream, .gasp, .cough, .dogBark, .laughter, .door, .breathingPause])
    #expect(p.warnings.first { $0.soundClass == .cough }?.description
            == "base.debounce_s: 2 s is longer than cough usually lasts (about 0.5 s): most will never become events (try 0.5 or less)")
}

@Test func smoothingThatHidesAShortSoundIsAWarning() throws {
    let p = try child(#""tiers": {"critical": {"smoothing": {"method": "ema", "tau_s": 2}}}"#)
    #expect(p.warnings.map(\.soundClass) == [.glassBreak, .scream, .gasp])
    #expect(p.warnings[0].description
            == "tiers.critical.smoothing: smooths a clear glass_break of about 0.5 s down to 0.39, below on (0.7): it will rarely become an event")
    let mean = try child(#""classes": {"cough": {"smoothing": {"method": "window_mean", "window_s": 4, "threshold": 0.5}}}"#)
    #expect(mean.warnings.map(\.description)
            == ["classes.cough.smoothing: smooths a clear cough of about 0.5 s down to 0.25, below the window threshold (0.5): it will rarely become an event"])
}

@Test func aCriticalClassTurnedOffIsAWarning() throws {
    let p = try child(#""classes": {"smoke_alarm": {"enabled": false}, "music": {"enabled": false}}"#)
    #expect(p.warnings.map(\.description)
            == ["classes.smoke_alarm.enabled: smoke_alarm is a critical sound and is turned off: it will never be logged or alerted"])
}
