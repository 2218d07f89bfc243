// Built only where Swift Testing is: with the tests (`swift build` builds every target,
// and a release build has no Testing module).
#if canImport(Testing)
import Foundation
import SomniqCore

/// A reply as curl saw it: the status, the headers (names lowercased) and the body.
package struct HTTPReply {
    package var status: Int
    package var headers: [String: String]
    package var body: Data
    package var text: String { String(decoding: body, as: UTF8.self) }
}

/// One HTTP request through curl, a client that is not the server's own code.
package func fetch(_ url: String, method: String = "GET", headers: [String] = [], body: String? = nil, timeout: Double = 10) throws -> HTTPReply {
    let bodyFile = NSTemporaryDirectory() + "somniq-body-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: bodyFile) }
    var arguments = ["-s", "-S", "-g", "--path-as-is", "--max-time", "\(timeout)", "-X", method, "-D", "-", "-o", bodyFile]
    for h in headers { arguments += ["-H", h] }
    if let body { arguments += ["--data-binary", body] }
    arguments.append(url)
    let r = try runProgram("/usr/bin/curl", arguments)
    guard r.status == 0 else { throw CurlFailed(message: "curl \(url): \(r.status) \(r.stderr)") }
    var lines = r.stdout.components(separatedBy: "\r\n")
    let status = Int(lines.removeFirst().split(separator: " ")[1])!
    var fields: [String: String] = [:]
    for line in lines {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        fields[name] = fields[name].map { $0 + ", " + value } ?? value
    }
    return HTTPReply(status: status, headers: fields, body: FileManager.default.contents(atPath: bodyFile) ?? Data())
}

package struct CurlFailed: Error, CustomStringConvertible {
    package var message: String
    package var description: String { message }
    package init(message: String) { self.message = message }
}

/// Waits until `url` answers at all (any status).
package func waitForServer(_ url: String, timeout: Double = 20) throws {
    try waitUntil(timeout: timeout) { (try? fetch(url, timeout: 1)) != nil }
}

/// A log of three nights with clips, copied into `dir`: the demo night replayed as if it
/// began at 23:10 on 20, 21 and 22 November 2026, its alerts' clips kept. Made once.
package func threeNights(in dir: String) throws -> (log: String, clips: String) {
    let made = try ThreeNights.made.get()
    let fm = FileManager.default
    try fm.copyItem(atPath: made + "/events.jsonl", toPath: dir + "/events.jsonl")
    try fm.copyItem(atPath: made + "/clips", toPath: dir + "/clips")
    return (dir + "/events.jsonl", dir + "/clips")
}

private enum ThreeNights {
    package static let made = Result<String, any Error> {
        let dir = temporaryDirectory()
        let log = dir + "/events.jsonl", clips = dir + "/clips"
        var text = ""
        for day in ["2026-11-20", "2026-11-21", "2026-11-22"] {
            let r = try runProgram(Paths.somniq, ["replay", Paths.demoNight, "--format", "jsonl", "--output", dir + "/\(day).jsonl",
                                                  "--start", "\(day)T23:10", "--clips", clips])
            guard r.status == 0 else { throw CurlFailed(message: r.stderr) }
            text += try String(contentsOfFile: dir + "/\(day).jsonl", encoding: .utf8)
        }
        try text.write(toFile: log, atomically: true, encoding: .utf8)
        return dir
    }
}

/// The demo night's log of 22 November, as `threeNights` made it.
package func madeNight(_ day: String) throws -> String { try ThreeNights.made.get() + "/\(day).jsonl" }

/// A FIFO fed with raw 16 kHz mono S16_LE at real time (0.1 s every 0.1 s, as a sound card
/// delivers it), then held open without data: a capture that stalls when the file ends.
package func pacedFIFO(in dir: String, feeding file: String) throws -> (path: String, writer: Process) {
    let fifo = dir + "/paced-\(UUID().uuidString).fifo"
    guard mkfifo(fifo, 0o600) == 0 else { throw POSIXError(.EEXIST) }
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    writer.arguments = ["-c", """
        import sys, time
        data = open(sys.argv[1], 'rb').read()
        out = open(sys.argv[2], 'wb', buffering=0)
        start = time.monotonic()
        for k in range(0, len(data), 3200):
            out.write(data[k:k + 3200])
            time.sleep(max(0, start + (k + 3200) / 32000 - time.monotonic()))   # a microphone's pace
        time.sleep(600)   # holding the FIFO open: no end of stream
        """, file, fifo]
    // Not the test runner's output: a writer outliving a failed test must not hold it open.
    writer.standardOutput = FileHandle.nullDevice
    writer.standardError = FileHandle.nullDevice
    try writer.run()
    return (fifo, writer)
}

/// This machine's first IPv4 address that is not loopback (its address on the network,
/// where another machine's browser would reach it), if it has one.
package func networkAddress() -> String? {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0 else { return nil }
    defer { freeifaddrs(list) }
    var p = list
    while let entry = p {
        defer { p = entry.pointee.ifa_next }
        guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
        let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if !text.hasPrefix("127.") { return text }
    }
    return nil
}

/// A TCP connection to 127.0.0.1:`port` written and read as bytes: for what curl will not
/// send (two Host headers, a request head a line at a time). Closed when let go of.
/// `source`: the loopback address it comes from (all of 127/8 is this machine's), for
/// clients on several addresses.
package final class LoopbackSocket {
    package let fd: Int32

    package init(port: Int, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        if let source {
            var s = sockaddr_in()
            s.sin_family = sa_family_t(AF_INET)
            s.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &s) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard bound else {
                let e = errno
                close(fd)
                throw POSIXError(POSIXErrorCode(rawValue: e) ?? .EADDRNOTAVAIL)
            }
        }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        a.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &a) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            let e = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: e) ?? .ECONNREFUSED)
        }
    }

    deinit { close(fd) }

    /// Writes `text`; false once the server has closed the connection.
    @discardableResult
    package func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Whether the server has closed the connection (its end, or a reset, is there to
    /// read), without waiting.
    package var closedByServer: Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// What the server has sent, without waiting, and whether it has closed the connection
    /// after it.
    package func readAvailable() -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                bytes += chunk[0..<n]
                continue
            }
            return (bytes, n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
        }
    }

    /// Everything the server sends until it closes the connection, or until `timeout`.
    package func readToEnd(timeout: Double = 5) -> String {
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            reply += chunk[0..<n]
        }
        return String(decoding: reply, as: UTF8.self)
    }
}

/// Slow clients as a hostile probe runs them (slowloris): `count` connections to
/// 127.0.0.1:`port`, from `sources` in turn, each sending a little every `every` seconds,
/// in turns spread over that period, and never the end; a connection the server closes is
/// opened again at once. What they send is `kind`'s. They stop by themselves after
/// `seconds`, closing all.
package final class SlowClients: @unchecked Sendable {
    package enum Kind {
        /// A request head one line a turn, from the turn after the connection opened.
        case heads
        /// A whole POST head to `path` (with the page's own Origin), its body of `length`
        /// bytes announced, then one byte of it a turn.
        case bodies(path: String, length: Int)
    }
    package struct Tally {
        /// Connections opened, the first `count` included.
        package var opened = 0
        /// The longest any connection was seen open (when found closed, or at the end).
        package var longestOpen = 0.0
        /// Replies that began `HTTP/1.1 <status>`, counted by status, read as connections
        /// were found closed.
        package var statuses: [Int: Int] = [:]
    }
    private let lock = NSLock()
    private var tally = Tally()
    private let done = DispatchSemaphore(value: 0)

    package init(port: Int, count: Int, every: Double, seconds: Double, sources: [String] = ["127.0.0.1"], kind: Kind = .heads) {
        Thread { [self] in
            run(port: port, count: count, every: every, seconds: seconds, sources: sources, kind: kind)
            done.signal()
        }.start()
    }

    /// The tally, once they have stopped.
    package func finished() -> Tally {
        done.wait()
        return lock.withLock { tally }
    }

    private func run(port: Int, count: Int, every: Double, seconds: Double, sources: [String], kind: Kind) {
        guard count > 0 else { return }
        let start = Date()
        var held: [(socket: LoopbackSocket, since: Date, lines: Int, reply: [UInt8])?] = Array(repeating: nil, count: count)
        func seen(_ since: Date) { lock.withLock { tally.longestOpen = max(tally.longestOpen, Date().timeIntervalSince(since)) } }
        /// Reads what connection `i` has been sent; whether it is closed.
        func closed(_ i: Int) -> Bool {
            guard let h = held[i] else { return true }
            let (bytes, closed) = h.socket.readAvailable()
            held[i]?.reply += bytes
            return closed
        }
        func open(_ i: Int) {
            if let h = held[i] {
                seen(h.since)
                let reply = String(decoding: h.reply, as: UTF8.self)
                if reply.hasPrefix("HTTP/1.1 "), let status = Int(reply.dropFirst(9).prefix(3)) {
                    lock.withLock { tally.statuses[status, default: 0] += 1 }
                }
            }
            held[i] = nil
            guard let socket = try? LoopbackSocket(port: port, from: sources[i % sources.count]) else { return }
            switch kind {
            case .heads:
                break
            case let .bodies(path, length):
                socket.send("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\n"
                            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(length)\r\n\r\n")
            }
            held[i] = (socket, Date(), 0, [])
            lock.withLock { tally.opened += 1 }
        }
        var turn = 0
        while true {
            let at = start.addingTimeInterval(Double(turn) * every / Double(count))
            guard at.timeIntervalSince(start) < seconds else { break }
            // Until the next turn, a connection the server closes is opened again.
            var fds = held.map { pollfd(fd: $0?.socket.fd ?? -1, events: Int16(POLLIN), revents: 0) }
            let wait = Int32(max(0, at.timeIntervalSinceNow * 1000).rounded(.up))
            if poll(&fds, nfds_t(fds.count), wait) > 0 {
                for (i, p) in fds.enumerated() where p.revents != 0 && closed(i) { open(i) }
                continue
            }
            guard Date() >= at else { continue }
            let i = turn % count
            turn += 1
            if held[i] != nil, !closed(i), let h = held[i] {
                switch kind {
                case .heads: h.socket.send(h.lines == 0 ? "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n" : "X-Slow-\(h.lines): \(turn)\r\n")
                case .bodies: h.socket.send("a")
                }
                held[i]?.lines += 1
            } else {
                open(i)
            }
        }
        for case let h? in held { seen(h.since) }
    }
}
#endif
