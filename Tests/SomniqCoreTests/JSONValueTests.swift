import Testing
@testable import SomniqCore

@Test func jsonKeepsKeyOrderAndRoundTrips() throws {
    let text = #"{"b":1,"a":[true,null,"x\n\"y\""],"c":{"d":-0.25}}"#
    let value = try JSONValue(parsing: text)
    #expect(value.compactText == text)
}

@Test func jsonSyntaxErrorsSayWhere() {
    #expect(throws: JSONSyntaxError(line: 2, column: 10, problem: "expected ',' or '}' in an object")) {
        try JSONValue(parsing: "{\n  \"a\": 1 \"b\": 2}")
    }
    #expect(throws: JSONSyntaxError(line: 1, column: 11, problem: "duplicate key \"a\"")) {
        try JSONValue(parsing: #"{"a":1,"a":2}"#)
    }
}

@Test func sha256MatchesFIPSVectors() {
    #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
}

/// Duplicate keys are found with a set: an object of 200,000 keys (a 4 MB text) parses in
/// linear time. A search of the members, as before, made this 2e10 comparisons.
@Test(.timeLimit(.minutes(1)))
func anObjectWithManyKeysParsesInLinearTimeAndADuplicateIsStillFound() throws {
    let members = (0..<200_000).map { "\"key\($0)\": \($0)" }
    guard case let .object(parsed) = try JSONValue(parsing: "{" + members.joined(separator: ",") + "}") else {
        Issue.record("not an object")
        return
    }
    #expect(parsed.count == 200_000)
    #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: "{" + members.joined(separator: ",") + ", \"key7\": 0}") }
}
