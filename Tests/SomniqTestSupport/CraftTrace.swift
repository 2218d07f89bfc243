// Built only where Swift Testing is: with the tests (`swift build` builds every target,
// and a release build has no Testing module).
#if canImport(Testing)
import Foundation
import Testing

/// Sets the trace's `confirmed_s` of event `id`'s `event_start` to `value` (as written);
/// returns its `onset_s`, as written.
package func craftTrace(_ log: String, id: String, confirmed value: String) throws -> String {
    var onset = ""
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map { line in
        guard line.contains(#""kind":"event_start""#), line.contains(#""id":"\#(id)""#) else { return String(line) }
        onset = String(line.firstMatch(of: /"onset_s":([^,}]+)/)!.1)
        return String(line).replacing(/"confirmed_s":[^,}]+/, with: #""confirmed_s":\#(value)"#)
    }
    #expect(!onset.isEmpty, "no event_start of \(id)")
    try lines.joined(separator: "\n").write(toFile: log, atomically: true, encoding: .utf8)
    return onset
}
#endif
