// Built only where Swift Testing is: with the tests (`swift build` builds every target,
// and a release build has no Testing module).
#if canImport(Testing)
import Foundation
import SomniqCore
import Testing

/// jsonschema's verdict on each document: nil when it is valid, else its first error.
/// The schema itself is checked against the draft 2020-12 metaschema first.
package func validate(_ documents: [String], against schema: String) throws -> [String?] {
    let python = Paths.sedevalPython
    try #require(FileManager.default.isExecutableFile(atPath: python), "no virtualenv at \(python): run `make sedeval`")
    let script = """
    import json, sys
    from jsonschema import Draft202012Validator
    schema = json.load(open(sys.argv[1]))
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    print(json.dumps([next((e.message for e in validator.iter_errors(json.loads(d))), None) for d in sys.argv[2:]]))
    """
    let r = try runProgram(python, ["-c", script, schema] + documents)
    try #require(r.status == 0, "\(r.stderr)")
    let verdicts: [JSONValue]? = if case let .array(v) = try JSONValue(parsing: r.stdout), v.count == documents.count { v } else { nil }
    return try #require(verdicts, "jsonschema printed \(r.stdout)").map(\.stringValue)
}
#endif
