import Foundation
@testable import SomniqConfig
import Testing
import SomniqCore

/// Every number of the configuration and the profiles has a range, and a value outside it
/// is refused with its key and the range (issue 26: `silence_s: 1e308` switched the
/// critical input_silent alert off).
@Suite struct ConfigRangeTests {
    private func configProblem(_ text: String) -> String? {
        do { _ = try DaemonConfig.parse(text, file: "c.json"); return nil } catch { return error.description }
    }

    private func profileProblem(_ text: String) -> String? {
        do { _ = try Profile(json: text, file: "p.json"); return nil } catch { return "\(error)" }
    }

    @Test func absurdConfigurationNumbersAreRefusedNamingTheKeyAndTheRange() {
        for (text, message) in [
            (#"{"silence_s": 1e308}"#, "c.json: silence_s: 1e+308 must be from 1 to 3600 seconds"),
            (#"{"silence_s": 1e-320}"#, "c.json: silence_s: 1e-320 must be from 1 to 3600 seconds"),
            (#"{"silence_s": 12345678901234567890123}"#, "c.json: silence_s: 1.2345678901234568e+22 must be from 1 to 3600 seconds"),
            // Beyond a Double: not a number JSON can mean here.
            (#"{"silence_s": 1e400}"#, "c.json: not valid JSON (line 1, column 20: invalid number)"),
            (#"{"clipping_s": 1e308}"#, "c.json: clipping_s: 1e+308 must be from 0.5 to 3600 seconds"),
            (#"{"sinks": [{"type": "exec", "command": ["/bin/true"], "timeout_s": 1e-320}]}"#,
             "c.json: sinks[0].timeout_s: 1e-320 must be from 0.1 to 300 seconds"),
            (#"{"sinks": [{"type": "mqtt", "port": 12345678901234567890123}]}"#,
             "c.json: sinks[0].port: 1.2345678901234568e+22 must be a whole number from 1 to 65535"),
            (#"{"sinks": [{"type": "mqtt", "keepalive_s": 1e308}]}"#,
             "c.json: sinks[0].keepalive_s: 1e+308 must be a whole number from 5 to 3600"),
            (#"{"sinks": [{"type": "mqtt", "queue": "many"}]}"#,
             "c.json: sinks[0].queue: must be a whole number from 1 to 100000, not a string"),
            (#"{"clips": {"max_mb": 1e308}}"#, "c.json: clips.max_mb: 1e+308 must be from 1 to 1000000 MB"),
        ] {
            let problem = configProblem(text)
            #expect(problem?.replacingOccurrences(of: "+", with: "") == message.replacingOccurrences(of: "+", with: ""),
                    "\(text): \(problem ?? "accepted")")
        }
        // The bounds themselves are in range.
        #expect(configProblem(#"{"silence_s": 1, "clipping_s": 3600}"#) == nil)
        #expect(configProblem(#"{"silence_s": 3600, "clipping_s": 0.5}"#) == nil)
    }

    @Test func absurdProfileNumbersAreRefusedNamingTheKeyAndTheRange() {
        func profile(_ classes: String) -> String { #"{"name": "p", "extends": "balanced", "classes": {"snoring": \#(classes)}}"# }
        for (text, message) in [
            (profile(#"{"debounce_s": 1e308}"#), "classes.snoring.debounce_s: 1e+308 must be from 0 to 3600 seconds"),
            (profile(#"{"cooldown_s": 5000}"#), "classes.snoring.cooldown_s: 5000 must be from 0 to 3600 seconds"),
            (profile(#"{"smoothing": {"method": "ema", "tau_s": 1e-320}}"#),
             "classes.snoring.smoothing.tau_s: 1e-320 must be from 0.05 to 3600 seconds"),
            (profile(#"{"smoothing": {"method": "window_mean", "window_s": 12345678901234567890123, "threshold": 0.5}}"#),
             "classes.snoring.smoothing.window_s: 1.2345678901234568e+22 must be from 0.05 to 3600 seconds"),
            (profile(#"{"on": 1e308}"#), "classes.snoring.on: 1e+308 is outside [0, 1]"),
        ] {
            let problem = profileProblem(text)
            #expect(problem?.replacingOccurrences(of: "+", with: "").hasSuffix(message.replacingOccurrences(of: "+", with: "")) == true,
                    "\(text): \(problem ?? "accepted")")
            #expect(problem?.hasPrefix("p.json") == true)
        }
        #expect(profileProblem(profile(#"{"debounce_s": 3600, "smoothing": {"method": "ema", "tau_s": 0.05}}"#)) == nil)
    }
}
