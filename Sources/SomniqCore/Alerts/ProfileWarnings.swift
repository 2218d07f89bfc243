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

extension Profile {
    /// Settings under which a clear instance of a class (raw score 1 for its descriptor's
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
            let usual = c.descriptor.usualSeconds
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
