import NIOCore
import Testing
@testable import SomniqWeb

/// The web server's connection limits; the connections themselves are tested through
/// `somniq serve` (WebTests: the head's and the body's deadlines, the body's limit, a peer's
/// 8, slow clients and /healthz).
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
}
