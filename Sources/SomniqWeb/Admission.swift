/// Which connections the web server keeps when clients open too many: the state machine
/// under `ConnectionLimits`, with no I/O (tested as it is). Its methods return the
/// connections to close.
///
/// A connection waits (for a whole request, its head and its body, or idle between
/// requests) or is being answered. Waiting costs a client nothing, so a slow client
/// (slowloris: a head a line at a time, or a body a byte at a time) can keep any number of
/// connections waiting, while one that sent a whole request is answered at once.
/// So the limits close waiting connections, the longest waiting first:
/// - a peer keeps at most `perPeer` connections: beyond, the one of its own that has
///   waited longest is closed;
/// - all peers keep at most `total`: beyond, the one that has waited longest of the peer
///   holding the most is closed.
/// A new connection is not closed before what it sent with it has been read (a whole
/// request, from a client on the same address as slow ones, would be lost), or, if it
/// sends nothing, before it has had its chance (`hadItsChance`, the caller's timer). Until
/// then, and while every connection is being answered, there may be more than the limits.
struct Admission<ID: Hashable & Sendable>: Sendable {
    let perPeer: Int
    let total: Int

    private enum State: Sendable {
        /// Opened; nothing read from it yet.
        case new
        /// Waiting since this step of the machine (a smaller one has waited longer).
        case waiting(UInt64)
        case answering
    }
    private struct Held: Sendable {
        var peer: String
        var state: State
    }
    private var held: [ID: Held] = [:]
    private var step: UInt64 = 0

    init(perPeer: Int, total: Int) {
        precondition(perPeer >= 1 && total >= perPeer, "perPeer \(perPeer) must be 1 to total (\(total))")
        self.perPeer = perPeer
        self.total = total
    }

    var count: Int { held.count }
    func count(of peer: String) -> Int { held.values.count { $0.peer == peer } }
    func isWaiting(_ id: ID) -> Bool {
        if case .waiting? = held[id]?.state { true } else { false }
    }

    /// A new connection `id` from `peer`.
    mutating func open(_ id: ID, peer: String) -> [ID] {
        held[id] = Held(peer: peer, state: .new)
        return trim(peer)
    }

    /// What `id` sent with it has been read without a whole request, or it has sent
    /// nothing for its first moments: it waits, and may be closed for another.
    mutating func hadItsChance(_ id: ID) -> [ID] {
        guard let h = held[id], case .new = h.state else { return [] }
        let now = next()
        held[id]?.state = .waiting(now)
        return trim(h.peer)
    }

    /// A whole request, head and body, has arrived on `id`: it is being answered.
    mutating func answering(_ id: ID) {
        held[id]?.state = .answering
    }

    /// Every request `id` has had is answered: it waits again, from now.
    mutating func answered(_ id: ID) -> [ID] {
        guard let h = held[id] else { return [] }
        let now = next()
        held[id]?.state = .waiting(now)
        return trim(h.peer)
    }

    /// `id` is closed (by its client, by a timeout, or as this machine said).
    mutating func closed(_ id: ID) {
        held[id] = nil
    }

    private mutating func next() -> UInt64 {
        step += 1
        return step
    }

    /// Closes waiting connections, the longest waiting first, until `peer` and everyone
    /// are within their limits or nothing waits.
    private mutating func trim(_ peer: String) -> [ID] {
        var closing: [ID] = []
        while count(of: peer) > perPeer, let victim = longestWaiting(where: { $0 == peer }) {
            held[victim] = nil
            closing.append(victim)
        }
        while held.count > total {
            var holding: [String: Int] = [:]
            for h in held.values { holding[h.peer, default: 0] += 1 }
            let most = held.values.filter { if case .waiting = $0.state { true } else { false } }.map { holding[$0.peer]! }.max()
            guard let most, let victim = longestWaiting(where: { holding[$0] == most }) else { break }
            held[victim] = nil
            closing.append(victim)
        }
        return closing
    }

    private func longestWaiting(where include: (String) -> Bool) -> ID? {
        var found: (id: ID, since: UInt64)?
        for (id, h) in held {
            guard case let .waiting(since) = h.state, include(h.peer) else { continue }
            if since < found?.since ?? .max { found = (id, since) }
        }
        return found?.id
    }
}
