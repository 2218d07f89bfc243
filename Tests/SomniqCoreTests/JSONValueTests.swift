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

/// Duplicate keys are found with a set, so an object parses in time linear in its keys: four
/// times the keys take about four times as long (a search of the members, as before, took
/// sixteen times as long, and 2e10 comparisons for 200,000 keys). The best of three runs of
/// each size is compared, so that a busy machine does not decide it.
@Test(.timeLimit(.minutes(5)))
func anObjectWithManyKeysParsesInLinearTimeAndADuplicateIsStillFound() throws {
    func text(_ n: Int) -> String { "{" + (0..<n).map { "\"key\($0)\": \($0)" }.joined(separator: ",") + "}" }
    func seconds(_ text: String) throws -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = ContinuousClock.now
            guard case let .object(parsed) = try JSONValue(parsing: text) else { Issue.record("not an object"); return best }
            let elapsed = ContinuousClock.now - start
            #expect(parsed.count == text.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: ":") ? 1 : 0) })
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        return best
    }
    let small = try seconds(text(25_000)), large = try seconds(text(100_000))
    #expect(large / small < 10, "4× the keys took \(large / small)× as long (\(small) s, \(large) s)")
    let members = (0..<100_000).map { "\"key\($0)\": \($0)" }
    #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: "{" + members.joined(separator: ",") + ", \"key7\": 0}") }
}
