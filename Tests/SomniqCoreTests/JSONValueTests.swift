import Glibc
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
/// times the keys cost about four times the work (4.1-4.4 times, on 2 cores busy with 4 other
/// loops too). A search of the members, as before, cost 16 times as much (2e8 comparisons for
/// 20,000 keys). The work is counted as this thread's CPU time, not as seconds on the wall:
/// a busy machine delays the test, it does not lengthen what is measured, and nothing bounds
/// the test's own duration. The least of five parses of each size is compared.
@Test func anObjectWithManyKeysParsesInLinearTimeAndADuplicateIsStillFound() throws {
    func text(_ n: Int) -> String { "{" + (0..<n).map { "\"key\($0)\": \($0)" }.joined(separator: ",") + "}" }
    func work(parsing n: Int) throws -> Double {
        let text = text(n)
        var least = Double.infinity
        for _ in 0..<5 {
            let start = threadCPUSeconds()
            let parsed = try JSONValue(parsing: text)
            least = min(least, threadCPUSeconds() - start)
            guard case let .object(members) = parsed else { Issue.record("not an object"); return least }
            #expect(members.count == n)
        }
        return least
    }
    let small = try work(parsing: 5_000), large = try work(parsing: 20_000)
    #expect(large / small < 10, "4× the keys cost \(large / small)× the CPU time (\(small) s, \(large) s)")
    let members = (0..<40_000).map { "\"key\($0)\": \($0)" }
    #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: "{" + members.joined(separator: ",") + ", \"key7\": 0}") }
}

/// The CPU time this thread has run, in seconds: unlike the wall clock, it does not grow
/// while the thread waits for a core.
private func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}
