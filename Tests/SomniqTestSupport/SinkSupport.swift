// Built only where Swift Testing is: with the tests (`swift build` builds every target,
// and a release build has no Testing module).
#if canImport(Testing)
import Foundation
import Testing

/// A free TCP port on loopback (bound, read, released).
package func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_addr.s_addr = inet_addr("127.0.0.1")
    a.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &a) { p in
        p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
    }
    guard ok else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: a.sin_port))
}

/// Lines a process writes to standard output, each with the wall time it arrived.
package final class LineRecorder: @unchecked Sendable {
    package let process = Process()
    private let lock = NSLock()
    private var buffer = Data()
    private var received: [(time: Double, line: String)] = []

    package init(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [weak self] h in
            let data = h.availableData
            guard let self, !data.isEmpty else { return }
            let now = Date().timeIntervalSince1970
            lock.lock()
            buffer.append(data)
            while let nl = buffer.firstIndex(of: 0x0A) {
                received.append((now, String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self)))
                buffer.removeSubrange(buffer.startIndex...nl)
            }
            lock.unlock()
        }
        try process.run()
    }

    package var lines: [(time: Double, line: String)] { lock.lock(); defer { lock.unlock() }; return received }

    @discardableResult
    /// The first line that satisfies `match`, waiting up to `timeout` seconds for it.
    package func first(timeout: Double = 10, where match: (String) -> Bool) throws -> (time: Double, line: String) {
        var found: (Double, String)?
        try waitUntil(timeout: timeout) { found = lines.first { match($0.line) }; return found != nil }
        return found!
    }

    package func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }
}

/// A real Mosquitto broker on a loopback port, for the length of a test: open to
/// anyone, or (`secure`) TLS only, with a certificate from a throwaway CA and a password.
package final class Broker {
    package let port: Int
    private let process = Process()
    package let directory = temporaryDirectory()
    /// With `secure`: the CA's certificate, and the one user's name and password.
    package let caFile: String?
    package static let user = "somniq-room", password = "s3cret pass"

    package init(secure: Bool = false) throws {
        port = try freePort()
        var conf = "listener \(port) 127.0.0.1\npersistence false\n"
        if secure {
            let ca = try Self.makeCertificates(in: directory)
            caFile = ca
            try runChecked("/usr/bin/mosquitto_passwd", ["-b", "-c", directory + "/passwd", Self.user, Self.password])
            conf += "cafile \(ca)\ncertfile \(directory)/server.crt\nkeyfile \(directory)/server.key\n"
                + "allow_anonymous false\npassword_file \(directory)/passwd\n"
        } else {
            caFile = nil
            conf += "allow_anonymous true\n"
        }
        let path = directory + "/mosquitto.conf"
        try conf.write(toFile: path, atomically: true, encoding: .utf8)
        let binary = try #require(["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                  "mosquitto not found: install the Debian package `mosquitto` (make test-deps)")
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-c", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitUntil(timeout: 5) { (try? runProgram("/usr/bin/mosquitto_pub", self.client + ["-t", "probe", "-n"]).status) == 0 }
    }

    /// The arguments mosquitto_pub and mosquitto_sub need to reach this broker.
    package var client: [String] {
        ["-h", "127.0.0.1", "-p", "\(port)"] + (caFile.map { ["--cafile", $0, "-u", Self.user, "-P", Self.password] } ?? [])
    }

    /// A CA and a server certificate for 127.0.0.1 signed by it (EC P-256, two days).
    private static func makeCertificates(in dir: String) throws -> String {
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try runChecked("/usr/bin/openssl", ["req", "-x509"] + ec + ["-keyout", dir + "/ca.key", "-out", dir + "/ca.crt",
                                                                    "-days", "2", "-subj", "/CN=somniq test CA"])
        try runChecked("/usr/bin/openssl", ["req"] + ec + ["-keyout", dir + "/server.key", "-out", dir + "/server.csr",
                                                           "-subj", "/CN=127.0.0.1"])
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: dir + "/san.ext", atomically: true, encoding: .utf8)
        try runChecked("/usr/bin/openssl", ["x509", "-req", "-in", dir + "/server.csr", "-CA", dir + "/ca.crt", "-CAkey", dir + "/ca.key",
                                            "-CAcreateserial", "-out", dir + "/server.crt", "-days", "2", "-extfile", dir + "/san.ext"])
        // The broker may read its files after dropping root to the `mosquitto` user.
        for f in ["ca.crt", "server.crt", "server.key", "passwd"] where FileManager.default.fileExists(atPath: dir + "/" + f) {
            chmod(dir + "/" + f, 0o644)
        }
        chmod(dir, 0o755)
        return dir + "/ca.crt"
    }

    /// A subscriber printing `time topic payload` for every message under `topic`.
    package func subscribe(_ topic: String) throws -> LineRecorder {
        let r = try LineRecorder("/usr/bin/mosquitto_sub", client + ["-q", "1", "-v", "-t", topic])
        // mosquitto_sub gives no sign that its subscription is in place: a probe message does.
        let probe = "probe-\(UUID().uuidString)"
        try waitUntil(timeout: 5) {
            _ = try? runProgram("/usr/bin/mosquitto_pub", client + ["-t", topic.replacingOccurrences(of: "#", with: probe), "-n"])
            return r.lines.contains { $0.line.contains(probe) }
        }
        return r
    }

    /// The retained messages under `topic` now: topic → payload. The broker sends them as
    /// it takes the subscription, before any message published after it: so once a probe
    /// published after has come, on a topic of its own subscribed beside, they all have.
    package func retained(_ topic: String) throws -> [String: String] {
        // Each message with its retained flag (`%r`): a live one may come too. (Not `-W`:
        // the test runner's blocked signals, SIGALRM among them, are inherited by its children.)
        let probe = "somniq-probe/\(UUID().uuidString)"
        let r = try LineRecorder("/usr/bin/mosquitto_sub", client + ["-F", "%r %t %p", "-t", topic, "-t", probe])
        defer { r.stop() }
        // mosquitto_sub gives no sign that its subscription is in place: the first probe
        // that comes was published after it.
        try waitUntil(timeout: 5) {
            _ = try? runProgram("/usr/bin/mosquitto_pub", client + ["-t", probe, "-n"])
            return r.lines.contains { $0.line.hasPrefix("0 " + probe) }
        }
        var out: [String: String] = [:]
        for (_, flagged) in r.lines where flagged.hasPrefix("1 ") {
            let line = flagged.dropFirst(2)
            guard let space = line.firstIndex(of: " ") else { continue }
            out[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return out
    }

    /// Waits until `subscriber`, on `topic` (a filter ending in `#`), has had every message
    /// the broker took before now: a probe published now comes after them. Its line
    /// holds `somniq/probe-` under `somniq/#`.
    package func caughtUp(_ subscriber: LineRecorder, on topic: String) throws {
        let probe = "probe-\(UUID().uuidString)"
        try runChecked("/usr/bin/mosquitto_pub", client + ["-t", topic.replacingOccurrences(of: "#", with: probe), "-n"])
        try subscriber.first { $0.contains(probe) }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// A real HTTP server (Python's http.server) that records each POST as one JSON line
/// on its standard output: path, headers, body; it answers each with `status`. With
/// `holding` (a path where it makes a FIFO), the first answer waits, once its line is
/// recorded, until the test opens that FIFO for writing and closes it (`release(_:)`).
package func startWebhookServer(port: Int, status: Int = 200, holding: String? = nil) throws -> LineRecorder {
    let script = """
    import http.server, json, sys
    held = sys.argv[3:]
    class H(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
            print(json.dumps({"path": self.path, "headers": dict(self.headers), "body": body.decode()}), flush=True)
            try: fifo = held.pop()
            except IndexError: fifo = None
            if fifo:
                with open(fifo) as f: f.read()
            self.send_response(int(sys.argv[2])); self.end_headers()
        def log_message(self, *a): pass
    http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()
    """
    if let holding { guard mkfifo(holding, 0o600) == 0 else { throw POSIXError(.EEXIST) } }
    let r = try LineRecorder("/usr/bin/python3", ["-c", script, "\(port)", "\(status)"] + (holding.map { [$0] } ?? []))
    try waitUntil(timeout: 5) { connects(port: port) }
    return r
}

/// Lets a webhook server started `holding` this FIFO answer its held request: opens the
/// FIFO for writing (waiting for the server to open it) and closes it, its end of file.
package func release(_ fifo: String) throws {
    guard let handle = FileHandle(forWritingAtPath: fifo) else { throw POSIXError(.ENOENT) }
    handle.closeFile()
}

/// A server that accepts connections and never answers: a hung endpoint.
package func startHangingServer(port: Int) throws -> LineRecorder {
    let script = """
    import socket, time, sys
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(('127.0.0.1', int(sys.argv[1]))); s.listen(64)
    held = []
    while True:
        c, _ = s.accept(); held.append(c)
    """
    let r = try LineRecorder("/usr/bin/python3", ["-c", script, "\(port)"])
    try waitUntil(timeout: 5) { connects(port: port) }
    return r
}

package func connects(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_addr.s_addr = inet_addr("127.0.0.1")
    a.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &a) { p in
        p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}

/// An exec sink's program: appends its arrival time, arguments, SOMNIQ_* variables and
/// stdin to `out`, one JSON line per run.
package func writeRecorderScript(in directory: String, out: String) throws -> String {
    let path = directory + "/notify.py"
    try """
    #!/usr/bin/python3
    import json, os, sys, time
    rec = {"time": time.time(), "argv": sys.argv[1:], "stdin": sys.stdin.read(),
           "env": {k: v for k, v in os.environ.items() if k.startswith("SOMNIQ_")}}
    with open(\(String(reflecting: out)), "a") as f: f.write(json.dumps(rec) + "\\n")
    """.write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o755)
    return path
}

/// Runs a program and throws with its stderr unless it succeeds.
package func runChecked(_ path: String, _ arguments: [String]) throws {
    let r = try runProgram(path, arguments)
    guard r.status == 0 else {
        throw NSError(domain: path, code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: "\(path) \(arguments): \(r.stderr)"])
    }
}

/// The three kinds of endpoint a sink reaches, all real and on this machine: a Mosquitto
/// broker with a subscriber on `somniq/#`, an HTTP server recording posts, and a program
/// for the exec sink recording its runs in `execOut`.
package final class Endpoints {
    package let broker: Broker
    package let subscriber: LineRecorder
    package let httpPort: Int
    package let web: LineRecorder
    package let execOut: String
    package let program: String

    package init(in directory: String, name: String) throws {
        broker = try Broker()
        subscriber = try broker.subscribe("somniq/#")
        httpPort = try freePort()
        web = try startWebhookServer(port: httpPort)
        execOut = directory + "/exec-\(name).jsonl"
        program = try writeRecorderScript(in: directory, out: execOut)
    }

    package func stop() {
        subscriber.stop()
        web.stop()
    }
}

/// Prints when each sink had the event (Unix time), after its `event_start` record was
/// written (`logged`): a measure, not a test (the machine's load decides it).
package func printLatencies(_ arrivals: [(String, Double)], after logged: Double, _ what: String) {
    print("\(what): sink latency after the event_start record was written: "
          + arrivals.map { "\($0.0) \(Int(($0.1 - logged) * 1000)) ms" }.joined(separator: ", "))
}
#endif
