import Testing
@testable import SomniqWeb

/// Which connections the web server keeps when clients open too many: waiting ones give
/// way, the longest waiting first, and a connection is not closed before it is read.
struct AdmissionTests {
    /// Opens `id` and reads it without a whole request: what is closed on the way.
    private func slow(_ a: inout Admission<String>, _ id: String, _ peer: String) -> [String] {
        a.open(id, peer: peer) + a.hadItsChance(id)
    }

    @Test func aPeerBeyondItsLimitClosesItsLongestWaiting() {
        var a = Admission<String>(perPeer: 3, total: 10)
        #expect(["a", "b", "c"].flatMap { slow(&a, $0, "p") } == [])
        #expect(a.open("d", peer: "p") == ["a"])
        a.answering("b")
        #expect(a.open("e", peer: "p") == ["c"], "b is being answered: c has waited longest")
        #expect(slow(&a, "x", "q") == [], "another peer is not counted with p")
        #expect(a.count(of: "p") == 3 && a.count == 4)
    }

    /// A whole request from the address slow clients come from is not closed for the slow
    /// connections opened after it, before it was read.
    @Test func aConnectionIsNotClosedBeforeItIsRead() {
        var a = Admission<String>(perPeer: 3, total: 10)
        for id in ["s1", "s2", "s3"] { _ = slow(&a, id, "p") }
        #expect(a.open("probe", peer: "p") == ["s1"])
        #expect(a.open("s4", peer: "p") == ["s2"])
        #expect(a.open("s5", peer: "p") == ["s3"])
        #expect(a.open("s6", peer: "p") == [], "nothing read waits: more than the limit, for now")
        a.answering("probe")
        #expect(a.hadItsChance("probe") == [])
        #expect(a.hadItsChance("s4") == ["s4"], "read, and waiting longest")
        #expect(a.hadItsChance("s5") == [] && a.count(of: "p") == 3)
        #expect(!a.isWaiting("probe"))
    }

    @Test func aConnectionWaitsAgainFromItsAnswer() {
        var a = Admission<String>(perPeer: 3, total: 10)
        for id in ["a", "b", "c"] { _ = slow(&a, id, "p") }
        a.answering("a")
        #expect(a.answered("a") == [] && a.isWaiting("a"))
        #expect(a.open("d", peer: "p") == ["b"], "a waits since its answer, after b and c began to")
    }

    /// While every connection of a peer is being answered there may be more than its
    /// limit; the first to wait again is closed.
    @Test func theLimitHoldsAsSoonAsOneWaits() {
        var a = Admission<String>(perPeer: 2, total: 10)
        for id in ["a", "b"] {
            _ = a.open(id, peer: "p")
            a.answering(id)
        }
        #expect(a.open("c", peer: "p") == [])
        a.answering("c")
        #expect(a.hadItsChance("c") == [] && a.count(of: "p") == 3)
        #expect(a.answered("b") == ["b"])
        #expect(a.open("d", peer: "p") == [] && a.hadItsChance("d") == ["d"], "a slow one beyond the limit")
    }

    @Test func beyondTheTotalThePeerHoldingMostGivesWay() {
        var a = Admission<String>(perPeer: 3, total: 5)
        for (id, peer) in [("a", "p1"), ("b", "p1"), ("c", "p1"), ("d", "p2"), ("e", "p3")] {
            #expect(slow(&a, id, peer) == [])
        }
        #expect(a.open("f", peer: "p4") == ["a"], "p1 holds the most")
        #expect(a.open("g", peer: "p2") == ["b"], "p1 and p2 hold 2 each: b has waited longest of theirs")
        a.answering("c")
        a.answering("d")
        #expect(a.hadItsChance("f") == [] && a.hadItsChance("g") == [])
        #expect(a.open("h", peer: "p5") == ["g"], "p2 holds the most, and g of it waits")
        #expect(a.open("i", peer: "p6") == ["e"], "then all hold one: e has waited longest")
        #expect(a.count == 5)
    }

    @Test func aClosedConnectionIsForgotten() {
        var a = Admission<String>(perPeer: 2, total: 4)
        _ = slow(&a, "a", "p")
        a.closed("a")
        a.closed("a")
        #expect(a.answered("a") == [] && a.hadItsChance("a") == [])
        #expect(a.count == 0)
        #expect(slow(&a, "b", "p") + slow(&a, "c", "p") == [])
    }

    @Test func wrongLimitsAreRefused() async {
        await #expect(processExitsWith: .failure) { _ = Admission<Int>(perPeer: 0, total: 4) }
        await #expect(processExitsWith: .failure) { _ = Admission<Int>(perPeer: 8, total: 4) }
    }
}
