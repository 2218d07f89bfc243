import Foundation
@testable import SomniqConfig
@testable import SomniqReports
@testable import SomniqSupport
import SomniqTestSupport
import Testing
@testable import SomniqWeb
import SomniqCore

/// The web page: its configuration, the log's index, and the pages, clips and JSON of
/// `somniq serve` and of `somniq run` with "http", fetched by curl and rendered by chromium.
@Suite(.serialized) final class WebTests {
    let dir = temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    // MARK: configuration

    @Test func aLoopbackAddressNeedsNoTokenAndAnyOtherDoes() throws {
        let local = try DaemonConfig.parse(#"{"http": {"listen": "127.0.0.1:8080"}}"#, file: "c.json")
        #expect(local.http == HTTPConfig(host: "127.0.0.1", port: 8080) && local.http?.isLoopback == true)
        #expect(try DaemonConfig.parse(#"{"http": {"listen": "[::1]:8080"}}"#, file: "c.json").http?.isLoopback == true)
        let open = try DaemonConfig.parse(#"{"http": {"listen": "0.0.0.0:8080", "token": "0123456789abcdef0123"}}"#, file: "c.json")
        #expect(open.http?.token == "0123456789abcdef0123" && open.http?.isLoopback == false)
        #expect(DaemonConfig().http == nil, "off by default")
        let cases: [(String, String)] = [
            (#"{"http": {"listen": "0.0.0.0:8080"}}"#,
             "c.json: http: listening on 0.0.0.0 needs a token: set \"token\" or \"token_file\" (only a loopback address such as 127.0.0.1 is served without one)"),
            (#"{"http": {"listen": "192.168.1.5"}}"#,
             "c.json: http.listen: \"192.168.1.5\" must be an address and a port: \"127.0.0.1:8080\", \"0.0.0.0:8080\", \"[::1]:8080\""),
            (#"{"http": {"listen": "localhost:8080"}}"#,
             "c.json: http.listen: \"localhost:8080\" must be an address and a port: \"127.0.0.1:8080\", \"0.0.0.0:8080\", \"[::1]:8080\""),
            (#"{"http": {"listen": "127.0.0.1:70000"}}"#,
             "c.json: http.listen: \"127.0.0.1:70000\" must be an address and a port: \"127.0.0.1:8080\", \"0.0.0.0:8080\", \"[::1]:8080\""),
            (#"{"http": {"listen": "0.0.0.0:80", "token": "short"}}"#,
             "c.json: http.token: must be 16 to 256 letters, digits or -._~+/= (make one with: openssl rand -hex 24)"),
            (#"{"http": {"listen": "0.0.0.0:80", "token": "0123456789abcdef; x=1"}}"#,
             "c.json: http.token: must be 16 to 256 letters, digits or -._~+/= (make one with: openssl rand -hex 24)"),
            (#"{"http": {}}"#, "c.json: http: needs \"listen\": \"HOST:PORT\", such as \"127.0.0.1:8080\""),
            (#"{"http": {"listen": "127.0.0.1:80", "port": 80}}"#,
             "c.json: http.port: unknown key (expected one of: listen, token, token_file, public_url)"),
        ]
        for (text, message) in cases {
            #expect(throws: ConfigError.self, "\(text)") { try DaemonConfig.parse(text, file: "c.json") }
            do { _ = try DaemonConfig.parse(text, file: "c.json") } catch { #expect(error.description == message) }
        }
    }

    @Test func aTokenFileMustBeItsOwnersAlone() throws {
        let file = dir + "/token"
        try "0123456789abcdef0123456789abcdef\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o644)
        let text = #"{"http": {"listen": "0.0.0.0:8080", "token_file": "\#(file)"}}"#
        do { _ = try DaemonConfig.parse(text, file: "c.json"); Issue.record("a world-readable token file was taken") } catch {
            #expect(error.description == "c.json: http.token_file: \(file) may be read by other users (mode 644): chmod 600 it")
        }
        chmod(file, 0o600)
        #expect(try DaemonConfig.parse(text, file: "c.json").http?.token == "0123456789abcdef0123456789abcdef")
        let both = #"{"http": {"listen": "0.0.0.0:8080", "token": "0123456789abcdef0123", "token_file": "\#(file)"}}"#
        do { _ = try DaemonConfig.parse(both, file: "c.json"); Issue.record("both were taken") } catch {
            #expect(error.description == "c.json: http.token_file: give \"token\" or \"token_file\", not both")
        }
    }

    @Test func tokensCompareWholly() {
        let token = Array("0123456789abcdef".utf8)
        #expect(Guard.equal(token, token))
        #expect(!Guard.equal(token, Array("0123456789abcdeX".utf8)))
        #expect(!Guard.equal(token, Array("0123456789abcdef0".utf8)), "a longer one")
        #expect(!Guard.equal(token, Array("0123456789abcde".utf8)), "a prefix")
        #expect(!Guard.equal(token, []))
    }

    @Test func rangeHeadersAreReadAsRFC9110Has() {
        func read(_ header: String) -> String {
            switch ClipFile.parse(header, size: 1000) {
            case nil: "whole"
            case .some(nil): "416"
            case let .some(.some((a, b))): "\(a)-\(b)"
            }
        }
        #expect(read("bytes=0-99") == "0-99")
        #expect(read("bytes=900-") == "900-999")
        #expect(read("bytes=-100") == "900-999")
        #expect(read("bytes=990-2000") == "990-999")
        #expect(read("bytes=1000-") == "416", "past the end")
        #expect(read("bytes=0-1,5-9") == "whole", "several ranges: the whole file")
        #expect(read("items=0-1") == "whole")
        #expect(read("bytes=9-1") == "whole")
        #expect(read("bytes=-0") == "416", "the last 0 bytes")
        #expect(read("Bytes=0-9") == "0-9", "the unit is case-insensitive")
    }

    // MARK: somniq serve

    /// `somniq serve` on a free port of `address`, answering at `base` (the address, or
    /// `reachedAt`); stopped when the test lets go of it.
    final class Served {
        let process = Process()
        let port: Int
        let base: String

        init(_ log: String, clips: String, address: String = "127.0.0.1", reachedAt host: String = "127.0.0.1", tokenFile: String? = nil,
             config: String? = nil, zone: String? = nil) throws {
            port = try freePort()
            base = "http://\(host):\(port)"
            process.executableURL = URL(fileURLWithPath: Paths.somniq)
            process.arguments = ["serve", "--log", log, "--listen", "\(address):\(port)", "--clips", clips]
                + (tokenFile.map { ["--token-file", $0] } ?? []) + (config.map { ["--config", $0] } ?? [])
            if let zone { process.environment = ProcessInfo.processInfo.environment.merging(["TZ": zone]) { $1 } }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try waitForServer(base + "/healthz")
        }

        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            _ = try? waitForExit(process, timeout: 5)
        }

        deinit { stop() }
    }

    /// `serve --config` shows its times in the configuration's `time_zone`, whatever the
    /// machine's: an alert logged at 22:00:30 UTC is 03:30:30 in Kolkata on its night's page,
    /// and the API gives the logged time itself.
    @Test func serveShowsItsTimesInTheConfiguredZone() throws {
        let log = dir + "/zoned.jsonl"
        try """
        {"v":1,"kind":"session_start","source":{"type":"alsa","device":"hw:0"},"profile":"balanced","profile_sha256":"x","start_time":"2026-11-20T22:00:00.000Z"}
        {"v":1,"kind":"event_start","id":"z1","class":"cough","tier":"high","onset_s":30,"onset_time":"2026-11-20T22:00:30.000Z","alert":true}
        {"v":1,"kind":"event_end","id":"z1","class":"cough","onset_s":30,"offset_s":31,"offset_time":"2026-11-20T22:00:31.000Z","peak_dbfs":-30,"confidence":0.9,"truncated":false}
        {"v":1,"kind":"level","start_s":0,"seconds":60,"time":"2026-11-20T22:00:00.000Z","leq_dbfs":-40,"l10_dbfs":-35,"l90_dbfs":-50,"lmax_dbfs":-30,"floor_dbfs":-55,"active_s":{}}
        {"v":1,"kind":"session_end","stream_s":60}

        """.write(toFile: log, atomically: true, encoding: .utf8)
        let config = dir + "/zoned.json"
        try #"{"time_zone": "Asia/Kolkata"}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let server = try Served(log, clips: dir, config: config, zone: "UTC")
        defer { server.stop() }
        let page = try fetch(server.base + "/night/2026-11-20")
        #expect(page.text.contains("<tr id=\"e-z1\"><td>03:30:30</td>"), "\(page.text)")
        let api = try JSONValue(parsing: try fetch(server.base + "/api/night/2026-11-20").text)
        guard case let .array(events)? = api["events"] else { Issue.record("no events: \(api)"); return }
        #expect(events.first?["onset_time"]?.stringValue == "2026-11-20T22:00:30.000Z")
        let plain = try Served(log, clips: dir, zone: "UTC")
        defer { plain.stop() }
        #expect(try fetch(plain.base + "/night/2026-11-20").text.contains("<tr id=\"e-z1\"><td>22:00:30</td>"))
    }

    /// Every page and endpoint of a served log answers, with the headers every reply carries.
    @Test func serveAnswersEveryPageAndEndpoint() throws {
        let (log, clips) = try threeNights(in: dir)
        let server = try Served(log, clips: clips)
        defer { server.stop() }
        let (base, port) = (server.base, server.port)

        let night = try fetch(base + "/night/2026-11-21")
        #expect(night.status == 200 && night.headers["content-type"] == "text/html; charset=utf-8")
        #expect(night.text.contains("<h1>somniq · night of 2026-11-21</h1>"))
        #expect(night.text.contains("href=\"/night/2026-11-20\" rel=\"prev\"") && night.text.contains("href=\"/night/2026-11-22\" rel=\"next\""))
        #expect(night.text.contains("<audio controls preload=\"none\" src=\"/night/2026-11-21/clip/"))
        #expect(!night.text.contains("file://"), "clips are played over HTTP")
        #expect(!night.text.contains("<script"), "a night's page has no script")
        let csp = try #require(night.headers["content-security-policy"])
        #expect(csp.contains("default-src 'none'") && csp.contains("script-src 'self'") && !csp.contains("unsafe-eval"))
        #expect(night.headers["x-content-type-options"] == "nosniff" && night.headers["x-frame-options"] == "DENY")
        let first = try fetch(base + "/night/2026-11-20")
        #expect(!first.text.contains("rel=\"prev\"") && first.text.contains("rel=\"next\""))

        let tonight = try fetch(base + "/")
        #expect(tonight.status == 200 && tonight.text.contains("<h1>somniq · tonight</h1>"))
        #expect(tonight.text.contains("<script src=\"/static/live.js\" defer></script>"))
        #expect(tonight.text.contains("Serving the log <b>\(log)</b>: no capture here."))
        #expect(tonight.text.contains("href=\"/night/2026-11-22\" rel=\"prev\""), "the last night heard is a click away")
        let script = try fetch(base + "/static/live.js")
        #expect(script.status == 200 && script.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(script.text.contains("querySelectorAll(\"[data-live]\")"))

        let history = try fetch(base + "/history")
        #expect(history.status == 200 && history.text.contains("<a href=\"/night/2026-11-22\">2026-11-22</a>"))
        #expect(try fetch(base + "/history?group=week").text.contains("week 2026-W47"))

        let nights = try JSONValue(parsing: try fetch(base + "/api/nights").text)
        guard case let .array(rows)? = nights["nights"] else { Issue.record("no nights"); return }
        #expect(rows.compactMap { $0["night"]?.stringValue } == ["2026-11-20", "2026-11-21", "2026-11-22"])
        #expect(rows.first?["url"] == .string("/night/2026-11-20"))
        let apiNight = try JSONValue(parsing: try fetch(base + "/api/night/2026-11-22").text)
        let whole = try NightReports.night(in: log, key: "2026-11-22")
        guard case let .array(events)? = apiNight["events"], case let .array(levels)? = apiNight["levels"] else {
            Issue.record("no events"); return
        }
        #expect(events.count == whole.events.count && levels.count == whole.minutes.count)
        #expect(apiNight["start"] == .string(WallClock.iso8601(Date(timeIntervalSince1970: whole.start!))))
        #expect(events.contains { $0["clip_url"]?.stringValue?.hasPrefix("/night/2026-11-22/clip/") == true })
        let apiHistory = try fetch(base + "/api/history?group=month")
        #expect(apiHistory.text == (try History.read(logs: [log], grouping: .month)).json())
        let status = try JSONValue(parsing: try fetch(base + "/api/status").text)
        #expect(status["capture"] == .bool(false) && status["log"] == .string(log))

        let health = try fetch(base + "/healthz")
        #expect(health.status == 200 && health.text == "ok: serving \(log)\n")
        #expect(try fetch(base + "/metrics").status == 404, "no textfile beside this log")
        try "# TYPE somniq_device_up gauge\nsomniq_device_up{room=\"bedroom\"} 1\n".write(toFile: dir + "/somniq.prom", atomically: true, encoding: .utf8)
        let metrics = try fetch(base + "/metrics")
        #expect(metrics.status == 200 && metrics.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(metrics.text.contains("somniq_device_up{room=\"bedroom\"} 1"))

        // A page elsewhere that points its own name at 127.0.0.1 (DNS rebinding) gets nothing.
        let rebound = try fetch(base + "/api/nights", headers: ["Host: attacker.example:\(port)"])
        #expect(rebound.status == 403 && !rebound.text.contains("2026-11-2"))
        #expect(try fetch(base + "/api/nights", headers: ["Host: localhost:\(port)"]).status == 200)
        #expect(try fetch(base + "/night/2026-11-19").status == 404)
        #expect(try fetch(base + "/night/yesterday").status == 404)
        #expect(try fetch(base + "/api/night/2026-13-40").status == 404)
        #expect(try fetch(base + "/nothing").status == 404)
        #expect(try fetch(base + "/", method: "POST").status != 200, "read-only")
    }

    /// `/metrics` of `somniq serve` reads somniq.prom beside the log only if it is a regular
    /// file at that name: a link there is not followed, and a FIFO is neither waited for nor read.
    @Test func metricsFollowNoLinkAndWaitForNoFIFO() throws {
        let (log, clips) = try threeNights(in: dir)
        let server = try Served(log, clips: clips)
        defer { server.stop() }
        let prom = dir + "/somniq.prom"
        try FileManager.default.createSymbolicLink(atPath: prom, withDestinationPath: "/etc/passwd")
        let linked = try fetch(server.base + "/metrics")
        #expect(linked.status == 404 && !linked.text.contains("root:"), "\(linked.status): \(linked.text.prefix(100))")
        #expect(linked.text == "no metrics: \(prom): is a symbolic link, which is not followed; give a metrics file itself\n")

        try FileManager.default.removeItem(atPath: prom)
        #expect(mkfifo(prom, 0o600) == 0)
        // A FIFO with no writer would hold the server's open of it forever: the fetch's 5 s
        // only guards the test against that hang (it throws then), it measures nothing.
        let fifo = try fetch(server.base + "/metrics", timeout: 5)
        #expect(fifo.status == 404)
        #expect(fifo.text == "no metrics: \(prom): is not a regular file (a device, a FIFO or a socket); give a metrics file\n")
        #expect(try fetch(server.base + "/healthz").status == 200)
    }

    /// A request with two Host headers is 400 (RFC 9112 §3.2), whichever is first, and has
    /// nothing of the log; one Host is served.
    @Test func twoHostHeadersAreABadRequest() throws {
        let (log, clips) = try threeNights(in: dir)
        let server = try Served(log, clips: clips)
        defer { server.stop() }
        let here = "127.0.0.1:\(server.port)"
        func ask(_ hosts: [String]) throws -> String {
            let socket = try LoopbackSocket(port: server.port)
            socket.send("GET /api/nights HTTP/1.1\r\n" + hosts.map { "Host: \($0)\r\n" }.joined() + "Connection: close\r\n\r\n")
            return socket.readToEnd()
        }
        for hosts in [[here, here], [here, "attacker.example"], ["attacker.example", here]] {
            let reply = try ask(hosts)
            #expect(reply.hasPrefix("HTTP/1.1 400 "), "\(hosts): \(reply.prefix(60))")
            #expect(reply.hasSuffix("\r\n\r\nbad request: more than one Host header (RFC 9112 §3.2); send one\n"), "\(hosts)")
            #expect(!reply.contains("2026-11-2"), "\(hosts)")
        }
        #expect(try ask([here]).hasPrefix("HTTP/1.1 200 "))
    }

    /// The bearer scheme is read in any case (RFC 9110 §11.1), and after one or more spaces
    /// (§11.4); another scheme, or the token glued to it, is no bearer token.
    @Test func theBearerSchemeIsReadInAnyCase() throws {
        let (log, clips) = try threeNights(in: dir)
        let tokenFile = dir + "/token"
        let token = "0123456789abcdef0123456789abcdef"
        try token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile, 0o600)
        let server = try Served(log, clips: clips, tokenFile: tokenFile)
        defer { server.stop() }
        for given in ["Bearer \(token)", "bearer \(token)", "BEARER \(token)", "bEaReR \(token)", "Bearer   \(token)"] {
            #expect(try fetch(server.base + "/api/nights", headers: ["Authorization: " + given]).status == 200, "\(given)")
        }
        for given in ["Basic \(token)", "Bearer\(token)", "Bearer", "Bearers \(token)", "Bearer \(token) x"] {
            #expect(try fetch(server.base + "/api/nights", headers: ["Authorization: " + given]).status == 401, "\(given)")
        }
    }

    /// A clip plays and seeks over HTTP (range requests), is found by its event in the log,
    /// and no URL reaches a file by its path.
    @Test func clipsSeekWithRangeRequestsAndAreLookedUpNotJoined() throws {
        let (log, clips) = try threeNights(in: dir)
        let server = try Served(log, clips: clips)
        defer { server.stop() }
        let base = server.base
        let night = try NightReports.night(in: log, key: "2026-11-22")
        let event = try #require(night.events.first { $0.clip != nil })
        let file = clips + "/" + PathText.lastComponent(event.clip!)
        let bytes = try #require(FileManager.default.contents(atPath: file))
        let url = base + "/night/2026-11-22/clip/" + event.id

        let whole = try fetch(url)
        #expect(whole.status == 200 && whole.body == bytes && whole.headers["content-type"] == "audio/flac")
        #expect(whole.headers["accept-ranges"] == "bytes")
        let part = try fetch(url, headers: ["Range: bytes=100-199"])
        #expect(part.status == 206 && part.body == bytes[100..<200])
        #expect(part.headers["content-range"] == "bytes 100-199/\(bytes.count)")
        let tail = try fetch(url, headers: ["Range: bytes=-50"])
        #expect(tail.status == 206 && tail.body == bytes.suffix(50))
        let beyond = try fetch(url, headers: ["Range: bytes=\(bytes.count)-"])
        #expect(beyond.status == 416 && beyond.headers["content-range"] == "bytes */\(bytes.count)")

        // Another night's id, an unknown id, and paths: nothing but the log's own clips.
        #expect(try fetch(base + "/night/2026-11-21/clip/" + event.id).status == 404)
        #expect(try fetch(base + "/night/2026-11-22/clip/nope").status == 404)
        for probe in ["/night/2026-11-22/clip/..%2F..%2Fevents.jsonl", "/night/2026-11-22/clip/../../events.jsonl",
                      "/night/..%2F..%2Fetc%2Fpasswd", "/night/2026-11-22/clip/%2Fetc%2Fpasswd", "/static/../events.jsonl"] {
            let r = try fetch(base + probe)
            #expect(r.status == 404, "\(probe): \(r.status)")
            #expect(!r.text.contains("session_start") && !r.text.contains("root:"), "\(probe)")
        }
        // A deleted clip says so, on the page and at its URL.
        try FileManager.default.removeItem(atPath: file)
        #expect(try fetch(url).status == 404)
        #expect(try fetch(base + "/night/2026-11-22").text.contains("<span class=\"gone\">deleted</span>"))
    }

    /// Off loopback every request needs the token: none, a wrong one, or one in the wrong
    /// place is 401; a bearer header or the cookie `/?token=` sets is let through.
    @Test func offLoopbackEveryRequestNeedsTheToken() throws {
        let (log, clips) = try threeNights(in: dir)
        let tokenFile = dir + "/token"
        let token = "s3cret-0123456789abcdef"
        try (token + "\n").write(toFile: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile, 0o600)
        let refused = try somniq(["serve", "--log", log, "--listen", "0.0.0.0:8080"])
        #expect(refused.status == 64)
        #expect(refused.stderr == "somniq: --listen 0.0.0.0:8080 is not a loopback address: give --token-file FILE (a token of 16 or more letters and digits, mode 600)\n")

        // Reached at the machine's address on its network, as another machine would reach it.
        let server = try Served(log, clips: clips, address: "0.0.0.0", reachedAt: networkAddress() ?? "127.0.0.1", tokenFile: tokenFile)
        defer { server.stop() }
        let base = server.base
        for path in ["/", "/night/2026-11-22", "/history", "/api/nights", "/api/status", "/metrics", "/healthz", "/static/live.js"] {
            let r = try fetch(base + path)
            #expect(r.status == 401, "\(path) without the token: \(r.status)")
            #expect(r.headers["www-authenticate"] == "Bearer realm=\"somniq\"")
            #expect(!r.text.contains(token))
        }
        #expect(try fetch(base + "/api/nights", headers: ["Authorization: Bearer wrong-0123456789abcdef"]).status == 401)
        #expect(try fetch(base + "/api/nights", headers: ["Authorization: Bearer " + token + "x"]).status == 401)
        #expect(try fetch(base + "/api/nights", headers: ["Cookie: somniq_token=" + String(token.dropLast())]).status == 401)
        #expect(try fetch(base + "/api/nights", headers: ["Authorization: Bearer " + token]).status == 200)
        #expect(try fetch(base + "/?token=wrong").status == 401)

        let login = try fetch(base + "/history?token=" + token)
        #expect(login.status == 303 && login.headers["location"] == "/history")
        let cookie = try #require(login.headers["set-cookie"])
        #expect(cookie == "somniq_token=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000")
        #expect(try fetch(base + "/\\evil.example?token=" + token).headers["location"] == "/", "never to another host")
        #expect(try fetch(base + "//evil.example/?token=" + token).headers["location"] == "/")
        let page = try fetch(base + "/history", headers: ["Cookie: other=1; somniq_token=" + token])
        #expect(page.status == 200 && page.text.contains("somniq · history"))
    }

    /// Deleting a clip is the one change the page can make: a POST with the token, from the
    /// page's own origin; the file is gone and the page says so.
    @Test func deletingAClipNeedsTheTokenAndTheSameOrigin() throws {
        let (log, clips) = try threeNights(in: dir)
        let night = try NightReports.night(in: log, key: "2026-11-22")
        let event = try #require(night.events.first { $0.clip != nil })
        let file = clips + "/" + PathText.lastComponent(event.clip!)
        let path = "/night/2026-11-22/clip/\(event.id)/delete"

        // On loopback without a token: read-only.
        let open = try Served(log, clips: clips)
        let page = try fetch(open.base + "/night/2026-11-22")
        #expect(!page.text.contains("/delete"), "no delete button without a token")
        let r = try fetch(open.base + path, method: "POST", headers: ["Origin: http://127.0.0.1:\(open.port)"])
        #expect(r.status == 403 && r.text == "deleting a clip needs a token: set http.token in the configuration\n")
        open.stop()
        #expect(FileManager.default.fileExists(atPath: file))

        let tokenFile = dir + "/token"
        let token = "0123456789abcdef0123456789abcdef"
        try token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile, 0o600)
        let server = try Served(log, clips: clips, tokenFile: tokenFile)
        defer { server.stop() }
        let (base, port) = (server.base, server.port)
        let auth = "Authorization: Bearer " + token
        let withForm = try fetch(base + "/night/2026-11-22", headers: [auth])
        // Deleting asks first: the button that deletes is behind a "delete…" that opens it.
        #expect(withForm.text.contains("<details class=\"confirm\"><summary>delete…</summary> <form class=\"inline\" method=\"post\" "
                                       + "action=\"\(path)\"><button>delete this clip for good</button></form></details>"))
        #expect(try fetch(base + path, method: "POST", headers: ["Origin: http://127.0.0.1:\(port)"]).status == 401, "no token")
        let noOrigin = try fetch(base + path, method: "POST", headers: [auth])
        #expect(noOrigin.status == 403 && noOrigin.text.contains("no Origin"))
        let elsewhere = try fetch(base + path, method: "POST", headers: [auth, "Origin: http://evil.example"])
        #expect(elsewhere.status == 403 && elsewhere.text.contains("another site"))
        #expect(try fetch(base + "/night/2026-11-22/clip/\(event.id)", method: "DELETE", headers: [auth]).status != 200)
        #expect(FileManager.default.fileExists(atPath: file), "refused requests delete nothing")

        // The morning's form: an episode added from the phone, through the log's writer.
        #expect(withForm.text.contains("<form class=\"episode\" method=\"post\" action=\"/night/2026-11-22/episode\">"))
        let episodeURL = base + "/night/2026-11-22/episode"
        let form = "severity=moderate&symptom=gasping&symptom=dry-mouth&tags=alcohol+Late-Meal&note=woke+up+%3Cb%3Etwice%3C%2Fb%3E&at=23%3A11&duration="
        func post(_ body: String, _ headers: [String]) throws -> HTTPReply {
            try fetch(episodeURL, method: "POST", headers: headers + ["Content-Type: application/x-www-form-urlencoded"], body: body)
        }
        #expect(try post(form, ["Origin: http://127.0.0.1:\(port)"]).status == 401, "no token")
        #expect(try post(form, [auth, "Origin: http://evil.example"]).status == 403)
        let refused = try post("severity=mild&tags=%3Cscript%3E", [auth, "Origin: http://127.0.0.1:\(port)"])
        #expect(refused.status == 400 && refused.text == "the episode was not added: \"<script>\" is not a tag: letters, digits and - only, at most 32\n")
        let added = try post(form, [auth, "Origin: http://127.0.0.1:\(port)"])
        #expect(added.status == 303 && added.headers["location"] == "/night/2026-11-22#reported")
        let episode = try #require(records(log).last)
        #expect(episode["kind"] == .string("episode") && episode["severity"] == .string("moderate"))
        #expect(episode["symptoms"] == .array([.string("gasping"), .string("dry-mouth")]))
        #expect(episode["tags"] == .array([.string("alcohol"), .string("late-meal")]) && episode["note"] == .string("woke up <b>twice</b>"))
        let shown = try fetch(base + "/night/2026-11-22", headers: [auth]).text
        #expect(shown.contains("<q>woke up &lt;b&gt;twice&lt;/b&gt;</q>") && shown.contains("Tags: <b>alcohol</b>, <b>late-meal</b>"))

        let done = try fetch(base + path, method: "POST", headers: [auth, "Origin: http://127.0.0.1:\(port)"])
        #expect(done.status == 303 && done.headers["location"] == "/night/2026-11-22#alerts")
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try fetch(base + "/night/2026-11-22/clip/" + event.id, headers: [auth]).status == 404)
        #expect(try NightReports.night(in: log, key: "2026-11-22").events.count == night.events.count, "the log keeps every event")
    }

    /// The page's "now" is its clock's (in the daemon, the daemon's): the night
    /// /api/status names turns at noon of that clock, not of the machine's.
    @Test func thePagesNowIsItsClocks() throws {
        let (log, clips) = try threeNights(in: dir)
        let clock = TestClock(unix: try #require(WallClock.parse("2026-11-22T23:00:00")))
        let site = WebSite(.init(log: log, clips: clips, version: "test", live: nil, metricsFile: nil, canDelete: false, keepIndex: false,
                                 clock: clock), notices: { _ in })
        func night() throws -> JSONValue? { try JSONValue(parsing: String(decoding: site.apiStatus().body, as: UTF8.self))["night"] }
        #expect(try night() == .string("2026-11-22"))
        clock.advance(.seconds(12 * 3600))      // 11:00 the next day: the same night
        #expect(try night() == .string("2026-11-22"))
        clock.advance(.seconds(3600))           // noon
        #expect(try night() == .string("2026-11-23"))
    }

    // MARK: slow and many clients

    /// A request's head must be whole within 5 s of the connection's start: one sent a line
    /// every quarter of a second is closed then, one that takes 2.5 s is answered.
    @Test func aRequestHeadHasFiveSeconds() throws {
        let (log, clips) = try threeNights(in: dir)
        let server = try Served(log, clips: clips)
        defer { server.stop() }
        let slow = try LoopbackSocket(port: server.port), late = try LoopbackSocket(port: server.port)
        let opened = Date()
        slow.send("GET /healthz HTTP/1.1\r\n")
        late.send("GET /healthz HTTP/1.1\r\n")
        var closedAfter: Double?
        for line in 1...32 {
            // A slow client on a real socket: its pace, and the server's 5 s, are real time.
            Thread.sleep(until: opened.addingTimeInterval(Double(line) * 0.25))
            if slow.closedByServer {
                closedAfter = Date().timeIntervalSince(opened)
                break
            }
            slow.send("X-Slow-\(line): 1\r\n")
            if line == 10 { late.send("Host: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n") }
        }
        // Not before its 5 s (a timer may fire late on a loaded machine, never early; the 5 s
        // to the millisecond are ConnectionLimitsTests'); the 8 s of the loop guard against a hang.
        #expect(closedAfter.map { $0 >= 4.75 } == true, "closed after \(closedAfter.map { "\($0) s" } ?? "more than 8 s")")
        let reply = late.readToEnd(timeout: 1)
        #expect(reply.hasPrefix("HTTP/1.1 200 ") && reply.hasSuffix("ok: serving \(log)\n"), "\(reply.prefix(60))")
    }

    /// One address keeps at most 8 connections: its next one closes the one it has left
    /// waiting longest, and a whole request from it is answered at once.
    @Test func anAddressKeepsEightConnections() throws {
        let (log, clips) = try threeNights(in: dir)
        let server = try Served(log, clips: clips)
        defer { server.stop() }
        var sockets: [LoopbackSocket] = []
        for _ in 0..<12 {
            let socket = try LoopbackSocket(port: server.port)
            socket.send("GET /healthz HTTP/1.1\r\n")
            sockets.append(socket)
            // Taken in this order: the server's accepts cannot be seen from here, so the
            // connections are spaced in real time.
            Thread.sleep(forTimeInterval: 0.05)
        }
        try waitUntil(timeout: 5) { sockets.prefix(4).allSatisfy(\.closedByServer) }
        #expect(sockets.map(\.closedByServer) == Array(repeating: true, count: 4) + Array(repeating: false, count: 8))
        // At once: within the fetch's 3 s, where a place freed by a slow head's 5 s comes later.
        #expect(try fetch(server.base + "/healthz", timeout: 3).status == 200)
        try waitUntil(timeout: 5) { sockets[4].closedByServer }
        #expect(sockets[4].closedByServer, "the request took the place of the connection waiting longest")
        #expect(!sockets[5].closedByServer)
    }

    /// /healthz asked `every` seconds for `seconds`, once the slow clients already started have
    /// all connected (1.5 s on): how long each answer took, and what was not a 200. Real time,
    /// as the load is: the sleeps are the probes' pace.
    func probeHealth(_ server: Served, for seconds: Double, every: Double, timeout: Double) -> (took: [Double], failed: [String]) {
        Thread.sleep(forTimeInterval: 1.5)
        var took: [Double] = [], failed: [String] = []
        let end = Date(timeIntervalSinceNow: seconds)
        while Date() < end {
            let asked = Date()
            do {
                let r = try fetch(server.base + "/healthz", timeout: timeout)
                if r.status != 200 { failed.append("\(r.status) \(r.text)") }
            } catch { failed.append("\(error)") }
            took.append(Date().timeIntervalSince(asked))
            Thread.sleep(forTimeInterval: every)
        }
        return (took, failed)
    }

    /// 80 slow clients on loopback (a request head a line a second each, never ended,
    /// opened again when closed) for 8 s do not blind /healthz: every probe, one every
    /// 0.2 s from the same address, is answered 200 within 1 s; no slow connection is held
    /// past its head's 5 s.
    @Test func slowClientsLeaveHealthAnswered() throws {
        let (log, clips) = try threeNights(in: dir)
        let server = try Served(log, clips: clips)
        defer { server.stop() }
        let clients = SlowClients(port: server.port, count: 80, every: 1, seconds: 8)
        let (took, failed) = probeHealth(server, for: 6, every: 0.2, timeout: 3)
        let tally = clients.finished()
        let worst = took.max() ?? 0
        print("80 slow clients for 8 s: /healthz answered \(took.count - failed.count) of \(took.count), the slowest in \(Int(worst * 1000)) ms;"
              + " \(tally.opened) slow connections opened, the longest seen open \(String(format: "%.1f", tally.longestOpen)) s")
        #expect(failed.isEmpty, "\(failed)")
        #expect(worst < 1, "the slowest probe took \(worst) s")
        #expect(tally.longestOpen < 6.5, "a slow connection was held \(tally.longestOpen) s")
    }

    /// Issue 47's hostile probe, on loopback for 10 s: 400 slow heads (a line every 5 s
    /// each) from one address; or from 20 addresses, 200 slow heads (a line a second) and
    /// 100 slow bodies (a POST head to the episode form announcing 1 GB, or 10 KB, then a
    /// byte a second). Each is opened again as soon as it is closed. /healthz, asked every
    /// quarter of a second from 127.0.0.1, is answered 200 within 2 s every time; the 1 GB
    /// bodies are refused at once (413), the 10 KB ones closed, or answered 408 when their
    /// time is up, and no slow connection is held past its deadline.
    @Test(arguments: [(addresses: 1, bodies: 0), (addresses: 20, bodies: 100)])
    func hundredsOfSlowClientsLeaveHealthAnswered(addresses: Int, bodies: Int) throws {
        let (log, clips) = try threeNights(in: dir)
        let server = try Served(log, clips: clips)
        defer { server.stop() }
        let sources = (0..<addresses).map { "127.0.0.\(addresses == 1 ? 1 : 2 + $0)" }
        let path = "/night/2026-11-22/episode"
        let heads = SlowClients(port: server.port, count: bodies == 0 ? 400 : 200, every: bodies == 0 ? 5 : 1, seconds: 10, sources: sources)
        let huge = SlowClients(port: server.port, count: bodies / 2, every: 1, seconds: 10, sources: sources,
                               kind: .bodies(path: path, length: 1_000_000_000))
        let long = SlowClients(port: server.port, count: bodies / 2, every: 1, seconds: 10, sources: sources, kind: .bodies(path: path, length: 10_000))
        let (took, failed) = probeHealth(server, for: 8, every: 0.25, timeout: 5)
        let (h, g, l) = (heads.finished(), huge.finished(), long.finished())
        let worst = took.max() ?? 0
        print("\(bodies == 0 ? 400 : 300) slow clients from \(addresses) address(es) for 10 s: /healthz answered \(took.count - failed.count) of \(took.count),"
              + " the slowest in \(Int(worst * 1000)) ms; opened \(h.opened) slow heads, \(g.opened) 1 GB bodies (\(g.statuses)),"
              + " \(l.opened) 10 KB bodies (\(l.statuses)); the longest seen open \(String(format: "%.1f", max(h.longestOpen, g.longestOpen, l.longestOpen))) s")
        #expect(failed.isEmpty, "\(failed)")
        #expect(worst < 2, "the slowest probe took \(worst) s")
        #expect(g.statuses.keys.allSatisfy { $0 == 413 } && (bodies == 0 || g.statuses[413] != nil), "1 GB bodies: \(g.statuses)")
        #expect(l.statuses.keys.allSatisfy { $0 == 408 }, "10 KB bodies: \(l.statuses)")
        #expect(max(h.longestOpen, g.longestOpen, l.longestOpen) < 7.5, "a slow connection was held \(max(h.longestOpen, g.longestOpen, l.longestOpen)) s")
    }

    /// A POST whose body stops short of its Content-Length is answered 408 when its time is
    /// up, 5 s after its head, and closed; one announcing more than any form holds (1 GB)
    /// is answered 413 at once, before a byte of it is read.
    @Test func aBodyMustBeWholeInTimeAndNoLargerThanAForm() throws {
        let (log, clips) = try threeNights(in: dir)
        let server = try Served(log, clips: clips)
        defer { server.stop() }
        func head(_ length: Int) -> String {
            "POST /night/2026-11-22/episode HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: http://127.0.0.1:\(server.port)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(length)\r\n\r\n"
        }
        let huge = try LoopbackSocket(port: server.port)
        huge.send(head(1_000_000_000) + "severity=mild")
        // At once: within the read's 3 s, where a body awaited would be answered 408 at 5 s.
        let refused = huge.readToEnd(timeout: 3)
        #expect(refused.hasPrefix("HTTP/1.1 413 ") && refused.hasSuffix("the body is larger than 16 KB, the most a form of this page holds\n"),
                "\(refused.prefix(200))")

        let short = try LoopbackSocket(port: server.port)
        let asked = Date()
        short.send(head(100) + "severity=mild")
        let reply = short.readToEnd(timeout: 8)
        let took = Date().timeIntervalSince(asked)
        #expect(reply.hasPrefix("HTTP/1.1 408 ") && reply.lowercased().contains("connection: close")
                    && reply.hasSuffix("the request's body did not arrive whole within 5 s of its head\n"), "\(reply.prefix(200))")
        // Not before its 5 s (late under load, never early; the 5 s to the millisecond are
        // ConnectionLimitsTests'); the read's 8 s guard against a hang.
        #expect(took >= 4.5, "answered after \(took) s")
        #expect(try fetch(server.base + "/healthz").status == 200)
    }

    /// A request refused before its body is read (401: no token) has that one reply: the
    /// rest of its body, sent slowly, is not awaited past the body's 5 s, and the connection
    /// is closed then without a 408 after the 401.
    @Test func aRefusalBeforeTheBodyIsItsOnlyReply() throws {
        let (log, clips) = try threeNights(in: dir)
        let tokenFile = dir + "/token"
        try "0123456789abcdef0123456789abcdef".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile, 0o600)
        let server = try Served(log, clips: clips, tokenFile: tokenFile)
        defer { server.stop() }
        let socket = try LoopbackSocket(port: server.port)
        let asked = Date()
        socket.send("POST /night/2026-11-22/episode HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: http://127.0.0.1:\(server.port)\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000\r\n\r\nseverity=mild")
        var reply: [UInt8] = [], closedAfter: Double?
        for tick in 1...32 {
            // A slow body on a real socket: its pace, and the server's 5 s, are real time.
            Thread.sleep(until: asked.addingTimeInterval(Double(tick) * 0.25))
            let (bytes, closed) = socket.readAvailable()
            reply += bytes
            if closed {
                closedAfter = Date().timeIntervalSince(asked)
                break
            }
            socket.send("a")
        }
        let text = String(decoding: reply, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 401 ") && text.components(separatedBy: "HTTP/1.1 ").count == 2, "\(text)")
        // Not before the body's 5 s (late under load, never early); the loop's 8 s guard against a hang.
        #expect(closedAfter.map { $0 >= 4.5 } == true, "closed after \(closedAfter.map { "\($0) s" } ?? "more than 8 s")")
    }

    /// A POST whose client ends its side of the connection before the body is whole is not
    /// taken for a whole one: it is answered 400 at once, saying so (the route, which failed
    /// to read it, answered 413, a form too large).
    @Test func aBodyCutShortByItsClientIsNotTakenWhole() throws {
        let (log, clips) = try threeNights(in: dir)
        let server = try Served(log, clips: clips)
        defer { server.stop() }
        let socket = try LoopbackSocket(port: server.port)
        socket.send("POST /night/2026-11-22/episode HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: http://127.0.0.1:\(server.port)\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nseverity=mild")
        shutdown(socket.fd, Int32(SHUT_WR))
        let reply = socket.readToEnd(timeout: 3)
        #expect(reply.isEmpty || reply.hasPrefix("HTTP/1.1 400 ") && reply.hasSuffix("the request's body ended before the length its head gave\n"), "\(reply.suffix(200))")
        // At once: closed within the read's 3 s, where a body awaited would be answered at 5 s.
        #expect(socket.closedByServer)
    }

    /// A request with two Origin headers is refused (400), as one with two Hosts is: the
    /// page's own origin first does not let another site's through.
    @Test func twoOriginHeadersAreRefused() throws {
        let (log, clips) = try threeNights(in: dir)
        let server = try Served(log, clips: clips)
        defer { server.stop() }
        func post(_ origins: [String]) throws -> String {
            let socket = try LoopbackSocket(port: server.port)
            socket.send("POST /night/2026-11-22/episode HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
                        + origins.map { "Origin: \($0)\r\n" }.joined() + "Content-Length: 13\r\nConnection: close\r\n\r\nseverity=mild")
            return socket.readToEnd()
        }
        let page = "http://127.0.0.1:\(server.port)"
        let one = try post([page])
        #expect(one.hasPrefix("HTTP/1.1 403 ") && one.hasSuffix("adding an episode needs a token: set http.token in the configuration\n"),
                "the page's own origin passes, to the token's check: \(one.suffix(100))")
        for origins in [[page, "http://evil.example"], ["http://evil.example", page], [page, page]] {
            let two = try post(origins)
            #expect(two.hasPrefix("HTTP/1.1 400 ") && two.hasSuffix("bad request: more than one Origin header; send one\n"), "\(origins): \(two.suffix(100))")
        }
    }

    // MARK: somniq run with "http"

    /// The daemon on the ALSA file plugin (its capture paced at real time, then stalling),
    /// with the web page on: health and status follow the capture, /metrics is what the
    /// textfile would hold, and chromium renders tonight's page and sees it update itself.
    @Test func theDaemonServesTonightAndChromiumSeesItUpdate() throws {
        let rig = try LiveRig()
        let (fifo, writer) = try pacedFIFO(in: rig.home, feeding: try rig.raw(from: 0, seconds: 25))
        defer { writer.terminate() }
        let port = try freePort()
        let log = rig.home + "/events.jsonl", config = rig.home + "/config.json"
        try #"{"log": "\#(log)", "metrics": null, "http": {"listen": "127.0.0.1:\#(port)"}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let device = "fixture:FILE=\(fifo)"
        let p = try rig.start(["--config", config, "--device", device])
        defer { if p.isRunning { p.terminate() } }
        let base = "http://127.0.0.1:\(port)"
        try waitForServer(base + "/healthz")
        try waitUntil(timeout: 10) { (try? fetch(base + "/healthz"))?.status == 200 }
        #expect(try fetch(base + "/healthz").text == "ok: listening on \(device)\n")
        let status = try JSONValue(parsing: try fetch(base + "/api/status").text)
        #expect(status["listening"] == .bool(true) && status["device"] == .string(device) && status["problem"] == .null)
        #expect(status["night"] == .string(WallClock.night(Date().timeIntervalSince1970)))
        try waitUntil(timeout: 5) { (try? fetch(base + "/metrics"))?.text.contains("somniq_device_up{room=\"bedroom\"} 1") == true }
        let metrics = try fetch(base + "/metrics").text
        #expect(metrics.contains("# TYPE somniq_events_total counter") && metrics.contains("somniq_alerts_total{room=\"bedroom\",class=\"smoke_alarm\""))

        let tonight = try fetch(base + "/").text
        #expect(tonight.contains("<b>Listening</b> on \(device)"))
        #expect(tonight.contains("<h2>The night so far</h2>"))
        #expect(tonight.contains("data-live"))

        // chromium: the page renders, and 7 s later its script has fetched it again and
        // swapped in the status as the daemon has it then.
        let browser = try runProgram("/usr/bin/python3", [Paths.package + "/scripts/chromium-dom.py", base + "/", "1", "7"])
        #expect(browser.status == 0, "\(browser.stderr)")
        let doms = browser.stdout.components(separatedBy: "=== DOM at ")
        #expect(doms.count == 3, "\(browser.stdout.prefix(500))")
        if doms.count == 3 {
            let (before, after) = (doms[1], doms[2])
            #expect(before.contains("<h1>somniq · tonight</h1>") && before.contains("<b>Listening</b> on"))
            #expect(!before.contains("data-updates"))
            #expect(after.contains("<body data-updates=\""), "the script fetched the page again")
            func updated(_ dom: String) -> String? {
                dom.range(of: #"updated \d\d:\d\d:\d\d"#, options: .regularExpression).map { String(dom[$0]) }
            }
            #expect(updated(before) != nil && updated(after) != nil && updated(before) != updated(after),
                    "the status was swapped in anew: \(updated(before) ?? "-") then \(updated(after) ?? "-")")
        }

        // The capture stalls when the paced file ends: health turns 503 and says why.
        try waitUntil(timeout: 60) { (try? fetch(base + "/healthz"))?.status == 503 }
        let down = try fetch(base + "/healthz").text
        #expect(down.hasPrefix("no audio from \(device) for "), "\(down)")
        #expect(try fetch(base + "/").text.contains("<b>Not listening</b>: no audio from"))
        p.terminate()
        #expect(try waitForExit(p, timeout: 5) == 0)
        #expect(kinds(records(log)).last == "session_end")
    }
}
