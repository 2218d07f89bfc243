// libFuzzer target: JSON text, as a profile (`/etc/somniq/profiles/NAME.json`).
//
// 1. `JSONValue(parsing:)`, the parser of profiles, config.json and the event log. When
//    it accepts a text, what `compactText` and `prettyText` write of the value must parse
//    back to an equal value (the writer is what the event log is made with).
// 2. `Profile(json:file:)`, the parser and validator `ProfileLoader` uses. A profile it
//    accepts is put in force: an `AlertProcessor` under it is stepped through a few
//    hundred frames of scores made from the input bytes, reloaded to and from a built-in
//    profile, and finished, as a live session does. Its warnings are worked out too.
// Errors the code throws are fine; a trap, an ASan report, a hang or a leak is a finding.
//
// Built by scripts/fuzz.sh; not part of the package build.
import SomniqCore
import SomniqSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)

    if let value = try? JSONValue(parsing: text) {
        for (how, written) in [("compactText", value.compactText), ("prettyText", value.prettyText)] {
            let again: JSONValue
            do { again = try JSONValue(parsing: written) } catch {
                fatalError("JSONValue.\(how) wrote text its parser rejects (\(error)): \(written)")
            }
            precondition(again == value, "JSONValue.\(how) does not round-trip: \(written)")
        }
    }

    let profile: Profile
    do { profile = try Profile(json: text, file: "fuzz.json") } catch {
        _ = error.description
        return 0
    }
    for c in SoundClass.allCases {
        let rule = profile.rule(for: c)
        precondition(rule.off <= rule.on, "accepted profile has off > on for \(c)")
        _ = rule.json.compactText
        _ = rule.smoothing.summary
    }
    for w in profile.warnings { _ = w.description }

    // Scores for each frame from the input bytes (cycled), so the fuzzer steers them too.
    var processor = AlertProcessor(profile: profile, idPrefix: "f")
    var scores = ClassScores()
    var opened = 0, closed = 0
    let emit: (AlertOutput) -> Void = { output in
        switch output {
        case .start: opened += 1
        case .end: closed += 1
        }
    }
    let classes = SoundClass.allCases
    let frames = 240
    for frame in 0..<frames {
        for (k, c) in classes.enumerated() {
            let b = size == 0 ? 0 : bytes[(frame * classes.count + k) % size]
            scores[c] = Float(b) / 255
        }
        if frame == frames / 3 { processor.reload(.balanced).forEach(emit) }
        if frame == 2 * frames / 3 { processor.reload(profile).forEach(emit) }
        processor.step(scores, frame: frame, levels: .init(levelDbfs: -30, floorDbfs: -60)).forEach(emit)
    }
    processor.finish().forEach(emit)
    precondition(closed == opened, "\(opened) events started but \(closed) ended after finish()")
    return 0
}
