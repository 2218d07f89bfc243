import FoundationEssentials
import Glibc

/// `sd_notify(3)` without libsystemd: datagrams to `$NOTIFY_SOCKET` (a path, or an
/// abstract socket when it starts with `@`). Does nothing when not run by systemd.
public final class SystemdNotifier {
    private let socketPath: String?
    /// Half the watchdog interval systemd asked for; nil without a watchdog.
    public let watchdogInterval: Duration?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        watchdogInterval = environment["WATCHDOG_USEC"].flatMap(Int64.init).map { .microseconds($0 / 2) }
    }

    public func notify(_ state: String) {
        guard let socketPath else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(socketPath.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let message = Array(state.utf8)
        _ = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                sendto(fd, message, message.count, Int32(MSG_NOSIGNAL), sa, length)
            }
        }
    }
}
