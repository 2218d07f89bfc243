import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
@testable import SomniqWeb
import Testing

/// The web server's connection limits. Its deadlines for a request's head and body run on
/// a clock the test moves: the server's own handler (`ConnectionLimits.Handler`) on
/// SwiftNIO's `EmbeddedEventLoop`, whose time passes only when told. A connection whose
/// first head is not whole 5 s after it opened is closed then, not 1 ms sooner; a body not
/// whole 5 s after its head is answered 408 and closed then. The connections themselves are
/// tested through `somniq serve` (WebTests: the same deadlines on real sockets, the body's
/// limit, a peer's 8, slow clients and /healthz).
struct ConnectionLimitsTests {
    /// A peer is an IPv4 address, or an IPv6 /64 (a host picks any address of it); an IPv4
    /// address on a dual-stack socket is itself.
    @Test func peersAreAddressesOrSlash64s() throws {
        func peer(_ ip: String) throws -> String { ConnectionLimits.peer(try SocketAddress(ipAddress: ip, port: 8080)) }
        #expect(try peer("192.168.1.5") == "192.168.1.5")
        #expect(try peer("::ffff:192.168.1.5") == "192.168.1.5")
        #expect(try peer("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64")
        #expect(try peer("2001:db8:1:2:ffff::9") == peer("2001:db8:1:2:3:4:5:6"))
        #expect(try peer("2001:db8:1:3::1") != peer("2001:db8:1:2::1"))
        #expect(try peer("::1") == "0:0:0:0::/64")
    }

    /// A connection to a handler with the server's limits (`WebServer`: 5 s for a head, 5 s
    /// for a body).
    func connection() throws -> EmbeddedChannel {
        #expect(WebServer.headSeconds == 5 && WebServer.bodySeconds == 5)
        let limits = ConnectionLimits(perPeer: WebServer.connectionsPerPeer, total: WebServer.maxConnections,
                                      headSeconds: WebServer.headSeconds, bodySeconds: WebServer.bodySeconds, bodyLimit: WebServer.formLimit)
        let channel = EmbeddedChannel(handler: ConnectionLimits.Handler(limits), loop: EmbeddedEventLoop())
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40_000)).wait()
        return channel
    }

    @Test func aConnectionWithoutAWholeHeadIsClosedFiveSecondsAfterItOpened() throws {
        let channel = try connection()
        channel.embeddedEventLoop.advanceTime(by: .seconds(5) - .milliseconds(1))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive)
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil, "closed without a reply")
    }

    @Test func aBodyNotWholeFiveSecondsAfterItsHeadIsAnswered408() throws {
        let channel = try connection()
        channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        let head = HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1", path: "/night/2026-11-22/episode",
                               headerFields: [.contentLength: "100"])
        try channel.writeInbound(HTTPRequestPart.head(head))
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "severity=mild")))
        // Past the head's 5 s from the connection: the head came in time, its body has 5 s of its own.
        channel.embeddedEventLoop.advanceTime(by: .seconds(5) - .milliseconds(1))
        #expect(channel.isActive)
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        guard case let .head(reply)? = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no reply")
            return
        }
        #expect(reply.status.code == 408 && reply.headerFields[.connection] == "close")
        guard case let .body(body)? = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no body")
            return
        }
        #expect(String(buffer: body) == "the request's body did not arrive whole within 5 s of its head\n")
        #expect(!channel.isActive)
    }
}
