import RealModule

/// A setting that is valid but makes a class nearly impossible to fire, or silences a
/// critical sound: `profiles validate` prints these without failing.
public struct ProfileWarning: Equatable, Sendable, CustomStringConvertible {
    public var soundClass: SoundClass
    /// The key path of the setting to change (`classes.cough.debounce_s`, `base.smoothing`).
    public var keyPath: String
    public var problem: String
    public var description: String { "\(keyPath): \(problem)" }
}

extension SoundClass {
    /// How long an event of the class usually lasts, in seconds: what a rule must be able
    /// to confirm. Figures are the sound's physics, checked against the `tune/` labels
    /// (median in brackets) and never longer than them:
    /// - a door slam or breaking glass is an impulse that a bedroom's reverberation
    ///   (RT60 0.3–0.5 s) ends within half a second [0.54, 0.70 s];
    /// - one bark, one cough, one gasp: a single expulsion or inhalation, 0.2–0.6 s
    ///   [0.54, 1.44, 1.12 s];
    /// - a scream or a laugh: one exhalation of voice, about a second [1.86, 1.32 s];
    /// - a phone rings in a cadence (2 s on, 4 s off in North America), a baby cries in
    ///   bouts of 1–1.5 s cries, thunder rumbles 3–10 s, a remark is a few seconds of
    ///   speech: about 5 s [5.62, 4.68, 6.44, 6.86 s];
    /// - a smoke alarm sounds until it is silenced, and snoring, breathing and music go on
    ///   for minutes: 10 s is a short spell [10.66, 33.5, 21.3, 10.76 s];
    /// - a breathing pause is marked at one frame, where breathing resumes.
    public var usualSeconds: Double {
        switch self {
        case .door, .glassBreak, .dogBark, .cough, .gasp, .breathingPause: 0.5
        case .scream, .laughter: 1
        case .phoneRing, .babyCry, .thunder, .speech: 5
        case .smokeAlarm, .snoring, .breathing, .music: 10
        }
    }
}

extension Profile {
    /// Settings under which a clear instance of a class (raw score 1 for its
    /// `usualSeconds`) would not become an event, and critical classes turned off.
    public var warnings: [ProfileWarning] {
        var out: [ProfileWarning] = []
        for c in SoundClass.allCases {
            let (rule, sources) = self.sources(c)
            func warn(_ field: String, _ problem: String) {
                out.append(ProfileWarning(soundClass: c, keyPath: Self.setting(field, in: sources).keyPath, problem: problem))
            }
            guard rule.enabled else {
                if rule.tier == .critical {
                    warn("enabled", "\(c.rawValue) is a critical sound and is turned off: it will never be logged or alerted")
                }
                continue
            }
            let usual = c.usualSeconds
            // Frames a sound of that length keeps the score up: the first at its start, then
            // one per hop (a 0.5 s sound spans 2 frame times).
            let frames = Int((usual / StreamClock.frameSeconds).rounded(.down)) + 1
            let held = Double(frames - 1) * StreamClock.frameSeconds
            if rule.debounce > held + 1e-9 {
                warn("debounce_s", "\(n(rule.debounce)) s is longer than \(c.rawValue) usually lasts (about \(n(usual)) s): most will never become events (try \(n(held)) or less)")
            }
            let peak: Double
            switch rule.smoothing {
            case .none: peak = 1
            case let .ema(tau): peak = 1 - .exp(-Double(frames) * StreamClock.frameSeconds / tau)
            case let .windowMean(window, _):
                let length = max(1, Int((window / StreamClock.frameSeconds).rounded()))
                peak = min(1, Double(frames) / Double(length))
            }
            if peak + 1e-9 < rule.startLevel {
                let level = rule.startLevel == rule.on ? "on (\(n(rule.on)))" : "the window threshold (\(n(rule.startLevel)))"
                warn("smoothing", "smooths a clear \(c.rawValue) of about \(n(usual)) s down to \(n(peak)), below \(level): it will rarely become an event")
            }
        }
        return out
    }
}

private func n(_ x: Double) -> String { JSONValue.format((x * 100).rounded() / 100) }
