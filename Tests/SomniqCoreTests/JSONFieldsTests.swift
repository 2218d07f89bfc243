import Testing
@testable import SomniqCore

/// The one JSON field reader, apart from the files it reads: its key paths and its words,
/// which profiles and the configuration say alike.
struct JSONFieldsTests {
    /// An error of the reader's own, so that nothing here leans on a profile's rules.
    struct Failure: FieldError, Equatable, CustomStringConvertible {
        var file: String, keyPath: String, problem: String
        var description: String { keyPath.isEmpty ? "\(file): \(problem)" : "\(file): \(keyPath): \(problem)" }
    }

    func document(_ text: String) throws(Failure) -> JSONFields<Failure> {
        try JSONField<Failure>(parsing: text, file: "f.json").object()
    }

    /// The error `read` throws, as it is printed.
    func problem(_ read: () throws -> Void) -> String? {
        do { try read(); return nil } catch { return "\(error)" }
    }

    @Test func theDocumentAndItsObjectsAreCheckedAndNamed() throws {
        #expect(problem { _ = try document("{") }?.hasPrefix("f.json: not valid JSON (line 1, column 2:") == true)
        #expect(problem { _ = try document("[1]") } == "f.json: must be an object, not an array")
        #expect(problem { _ = try JSONField<Failure>(parsing: "3", file: "f.json").object("the file must be a JSON object") }
                == "f.json: the file must be a JSON object, not a number")
        let doc = try document(#"{"a": {"b": {"c": 1}}, "list": [1, 2]}"#)
        // A key at the top is its own path; below it, paths join with a dot.
        let c = try doc.required("a").object().required("b").object()["c"]
        #expect(c?.keyPath == "a.b.c")
        #expect(try doc["list"]?.array().map(\.keyPath) == ["list[0]", "list[1]"])
        #expect(problem { _ = try doc.required("a").array("must be an array of things") }
                == "f.json: a: must be an array of things, not an object")
    }

    @Test func missingAndUnknownKeys() throws {
        let sink = JSONFields<Failure>(members: [("type", .string("x")), ("extra", .null)], path: "sinks[0]", file: "f.json")
        #expect(sink["url"] == nil)
        #expect(problem { _ = try sink.required("url") } == "f.json: sinks[0]: needs \"url\"")
        #expect(problem { _ = try sink.required("url", missing: "is missing") } == "f.json: sinks[0].url: is missing")
        #expect(problem { try sink.allowOnly(["type"]) } == "f.json: sinks[0].extra: unknown key (expected one of: type)")
        #expect(problem { try sink.allowOnly(["type"], problem: "not here") } == "f.json: sinks[0].extra: not here")
        #expect(problem { try sink.allowOnly(["type", "extra"]) } == nil)
        #expect(sink.entries.map(\.field.keyPath) == ["sinks[0].type", "sinks[0].extra"])
    }

    @Test func typedValuesSayWhatIsWrong() throws {
        let doc = try document(#"""
            {"s": "text", "n": 1.5, "i": 7, "b": true, "list": ["a", "b"], "empty": [], "holes": ["a", ""], "big": 1e30}
            """#)
        func field(_ key: String) -> JSONField<Failure> { doc[key]! }
        #expect(try field("s").string() == "text")
        #expect(problem { _ = try field("n").string() } == "f.json: n: must be a string, not a number")
        #expect(try field("b").bool())
        #expect(problem { _ = try field("s").bool() } == "f.json: s: must be true or false, not a string")

        #expect(try field("n").number() == 1.5)
        #expect(problem { _ = try field("s").number() } == "f.json: s: must be a number, not a string")
        #expect(try field("n").number(in: 1...2, unit: "seconds") == 1.5)
        #expect(problem { _ = try field("n").number(in: 2...3600, unit: "seconds") } == "f.json: n: 1.5 must be from 2 to 3600 seconds")
        #expect(problem { _ = try field("s").number(in: 2...3600, unit: "MB") } == "f.json: s: must be a number of MB, not a string")
        #expect(problem { _ = try field("s").number(in: 2...3600, unit: "seconds", typeProblem: "must be a number") }
                == "f.json: s: must be a number, not a string")
        #expect(problem { _ = try field("n").unitInterval() } == "f.json: n: 1.5 is outside [0, 1]")

        #expect(try field("i").integer(in: 1...10) == 7)
        #expect(problem { _ = try field("i").integer(in: 8...10) } == "f.json: i: 7 must be from 8 to 10")
        #expect(problem { _ = try field("n").integer(in: 1...10) } == "f.json: n: 1.5 must be a whole number from 1 to 10")
        #expect(problem { _ = try field("big").integer(in: 1...10) }
                == "f.json: big: 1e+30 must be a whole number from 1 to 10")
        #expect(problem { _ = try field("s").integer(in: 1...10) } == "f.json: s: must be a whole number from 1 to 10, not a string")

        #expect(try field("list").strings() == ["a", "b"])
        #expect(problem { _ = try field("empty").strings() } == "f.json: empty: must be a non-empty array of strings")
        #expect(problem { _ = try field("holes").strings() } == "f.json: holes: must be a non-empty array of non-empty strings")
    }
}
