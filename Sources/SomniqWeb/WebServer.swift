import FoundationEssentials
import Glibc
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle
import SomniqConfig
import SomniqCore
import SomniqReports
import SomniqSinks
import SomniqSupport

/// The web page's HTTP server (Hummingbird, over SwiftNIO's HTTP/1.1 parser): routes,
/// the token, the same-origin check for the requests that act (deleting a clip, adding an
/// episode, sending a test notification), clips with range requests, and the headers every
/// reply carries. What is served comes from `WebSite`, on its worker thread; the server's
/// own threads are SwiftNIO's, so neither touches the listening session's.
public enum WebServer {
    /// Beyond this many connections, the one that has waited longest for a request (of the
    /// peer holding the most) is closed; only connections being answered, or not read yet,
    /// may be more (see `Admission`). A phone, a laptop and a Prometheus scraper need a handful.
    public static let maxConnections = 32
    /// Beyond this many from one peer (an IPv4 address, an IPv6 /64), the one of its own that
    /// has waited longest is closed. A browser opens at most 6 connections to a server over
    /// HTTP/1.1; 8 leaves room for a script beside it, and four such peers are served whole.
    public static let connectionsPerPeer = 8
    /// A connection's first request head must be whole this long after it opened, or it is
    /// closed. A client sends its head at once, in one segment; 5 s leaves room for two
    /// retransmissions of a lost one on a poor Wi-Fi link (TCP waits 1 s, then 2 s: RFC 6298
    /// §2, §5.5), and a slow client holds a connection no longer than that.
    public static let headSeconds: Int64 = 5
    /// A request's body must be whole this long after its head, or it is answered 408 and
    /// the connection closed. The largest body, a form (`formLimit`), is a few segments,
    /// sent with the head; 5 s leaves room for two retransmissions, as for the head, and a
    /// slow client holds a request no longer than that.
    public static let bodySeconds: Int64 = 5
    /// A connection that sends nothing for this long is closed (a slow client holds a slot
    /// no longer).
    public static let idleSeconds: Int64 = 15
    /// Connects the kernel holds until they are accepted (Linux caps it at
    /// net.core.somaxconn, 4096 by default).
    static let backlog = 1024
    /// Page requests waiting for the worker thread beyond this are answered 503 at once.
    public static let queuedPages = 16
    /// The episode form's body: a note of 500 characters and every box ticked is under 2 KB.
    /// No request's body may be larger: one whose head announces more is answered 413 at
    /// once, before any of it is read.
    static let formLimit = 16 * 1024
    /// What each sink is given to deliver a test notification from the page (all at once):
    /// the page answers within this and `TestNotifier.grace`, well inside the 15 s a
    /// connection may stay silent.
    public static let testTimeout = Duration.seconds(8)

    /// The sinks the page's test notification goes to: the daemon's configuration.
    public struct Sinks: Sendable {
        public var configs: [SinkConfig]
        public var room: String
        public var profile: Profile
        public init(configs: [SinkConfig], room: String, profile: Profile) {
            self.configs = configs
            self.room = room
            self.profile = profile
        }
    }

    public struct Settings: Sendable {
        public var http: HTTPConfig
        public var log: String
        public var clips: String
        public var version: String
        public var live: LiveState?
        public var metricsFile: String?
        public var keepIndex = true
        /// `somniq run`'s sinks, for the page's test notification; nil (`somniq serve`, or no
        /// sinks configured): no button.
        public var sinks: Sinks?
        /// The page's clock: what "now" is (tonight, the state's age, a label's or an
        /// episode's time) and the test notification's deadlines. The daemon's, the machine's.
        public var clock: any IOClock = SystemClock()
        public init(http: HTTPConfig, log: String, clips: String, version: String, live: LiveState? = nil, metricsFile: String? = nil) {
            self.http = http
            self.log = log
            self.clips = clips
            self.version = version
            self.live = live
            self.metricsFile = metricsFile
        }
    }

    /// The server, as a service of the daemon's (or `serve`'s) service group. `onRunning`
    /// hears the port it listens on.
    /// `failsAlone`: a server that cannot serve is logged and the group runs on (the
    /// daemon); else its error ends the group (`somniq serve`).
    public static func service(_ settings: Settings, logger: Logger, failsAlone: Bool,
                               onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> WebService {
        let worker = SerialWorker(name: "somniq-web", capacity: queuedPages)
        let site = WebSite(.init(log: settings.log, clips: settings.clips, version: settings.version, live: settings.live,
                                 metricsFile: settings.metricsFile, canDelete: settings.http.token != nil,
                                 keepIndex: settings.keepIndex, testSinks: settings.sinks?.configs.map { "\($0.name) (\($0.typeName))" },
                                 clock: settings.clock),
                           notices: { logger.notice("\($0)") })
        // The index is brought up to the log now, so that the first visitor does not wait
        // for a year of log to be read (11 s for 365 nights of 8 h, once; then read back).
        Task { _ = try? await worker.run { site.warm() } }
        let router = Router()
        router.add(middleware: Guard(token: settings.http.token.map { Array($0.utf8) }, hosts: Guard.loopbackHosts(settings.http)))
        let pages = Pages(site: site, worker: worker)
        router.get("/") { _, _ in await pages.run { $0.tonight() } }
        router.get("/history") { request, _ in
            let grouping = grouping(request)
            return await pages.run { $0.history(grouping: grouping) }
        }
        router.get("/night/:key") { _, context in
            let key = context.parameters.get("key") ?? ""
            return await pages.run { $0.night(key) }
        }
        router.get("/night/:key/clip/:id") { request, context in
            let key = context.parameters.get("key") ?? "", id = context.parameters.get("id") ?? ""
            let range = header(request, "range")
            return await pages.run { site in
                switch site.clip(key, id: id) {
                case let .refused(reply): reply
                case let .file(file): ClipFile.reply(file, range: range)
                }
            }
        }
        router.post("/night/:key/clip/:id/delete") { request, context in
            if let refused = Guard.sameOrigin(request) { return respond(refused) }
            let key = context.parameters.get("key") ?? "", id = context.parameters.get("id") ?? ""
            return await pages.run { $0.deleteClip(key, id: id) }
        }
        router.post("/night/:key/episode") { request, context in
            if let refused = Guard.sameOrigin(request) { return respond(refused) }
            let key = context.parameters.get("key") ?? ""
            let body: ByteBuffer
            do { body = try await request.body.collect(upTo: formLimit) } catch {
                return respond(.text(413, "the form is larger than \(formLimit / 1024) KB"))
            }
            let fields = FormBody.fields(Array(body.readableBytesView))
            return await pages.run { $0.addEpisode(key, fields: fields) }
        }
        router.post("/night/:key/event/:id/label") { request, context in
            if let refused = Guard.sameOrigin(request) { return respond(refused) }
            let key = context.parameters.get("key") ?? "", id = context.parameters.get("id") ?? ""
            let body: ByteBuffer
            do { body = try await request.body.collect(upTo: formLimit) } catch {
                return respond(.text(413, "the form is larger than \(formLimit / 1024) KB"))
            }
            let fields = FormBody.fields(Array(body.readableBytesView))
            return await pages.run { $0.addLabel(key, id: id, fields: fields) }
        }
        // A test notification is sent on threads of its own, never the pages' one, since
        // each sink may take `testTimeout` to answer.
        let notifier = TestNotifier(sinks: settings.sinks, canSend: settings.http.token != nil, version: settings.version, logger: logger,
                                    clock: settings.clock)
        router.post(.init(stringLiteral: HTMLReport.testURL)) { request, _ in
            if let refused = Guard.sameOrigin(request) { return respond(refused) }
            return respond(await notifier.send())
        }
        router.get("/api/status") { _, _ in await pages.run { $0.apiStatus() } }
        router.get("/api/nights") { _, _ in await pages.run { $0.apiNights() } }
        router.get("/api/night/:key") { _, context in
            let key = context.parameters.get("key") ?? ""
            return await pages.run { $0.apiNight(key) }
        }
        router.get("/api/history") { request, _ in
            let grouping = grouping(request)
            return await pages.run { $0.apiHistory(grouping: grouping) }
        }
        // Health and metrics do not wait behind pages: a scraper or a monitor must be answered
        // while a year's index is being made.
        router.get("/healthz") { _, _ in respond(site.health()) }
        router.get("/metrics") { _, _ in respond(site.metrics()) }
        router.get("/static/live.js") { _, _ in
            respond(.init(status: 200, contentType: "text/javascript; charset=utf-8", body: Array(LiveScript.text.utf8)))
        }
        let address: BindAddress = .hostname(settings.http.host, port: settings.http.port)
        let limits = ConnectionLimits(perPeer: connectionsPerPeer, total: maxConnections, headSeconds: headSeconds,
                                      bodySeconds: bodySeconds, bodyLimit: formLimit)
        let app = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                LimitedHTTP1Channel(responder: responder, limits: limits, idleTimeout: .seconds(idleSeconds))
            },
            // Accepting never pauses: the limits must see a new connection to make room for
            // it, and close those beyond at once. Paused at 64 connections, with a slot held
            // a second by each new one that had sent nothing yet, a health check waited in the
            // kernel's backlog behind the hundreds of slow clients opening again as soon as
            // closed, 4 s and more. Those beyond the limits are closed as soon as read (or
            // after their first second, silent), so the descriptors held follow the clients;
            // were they to run out, SwiftNIO pauses accepting for a second (its
            // AcceptBackoffHandler). The backlog holds `backlog` connects: those hundreds
            // overflowed the default 256, and a connect beyond is dropped, to be sent again
            // only a second later (TCP's first timeout).
            configuration: .init(address: address, serverName: nil, backlog: backlog),
            onServerRunning: { channel in
                logger.info("web page on http://\(settings.http.listen)/\(settings.http.token == nil ? "" : " (token required)")")
                await onRunning(channel.localAddress?.port ?? settings.http.port)
            },
            logger: logger)
        return WebService(app: app, listen: settings.http.listen, failsAlone: failsAlone, logger: logger)
    }

    /// `?group=week` or `?group=month`; every night otherwise.
    static func grouping(_ request: Request) -> History.Grouping {
        request.uri.queryParameters["group"].flatMap { History.Grouping(rawValue: String($0)) } ?? .all
    }

    static func header(_ request: Request, _ name: String) -> String? {
        request.headers.first { $0.name.canonicalName == name }?.value
    }

    /// A reply as Hummingbird's response, with the headers every reply carries: a
    /// content-security-policy that allows this server's own script, styles written in
    /// the page, and nothing from anywhere else; no sniffing, framing or caching.
    static func respond(_ reply: WebSite.Reply) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = reply.contentType
        fields[.contentLength] = "\(reply.body.count)"
        fields[.cacheControl] = "no-store"
        fields[.contentSecurityPolicy] = "default-src 'none'; script-src 'self'; connect-src 'self'; media-src 'self'; img-src 'self'; "
            + "style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        fields[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        fields[HTTPField.Name("X-Frame-Options")!] = "DENY"
        fields[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        for (name, value) in reply.headers {
            if let n = HTTPField.Name(name) { fields[n] = value }
        }
        return Response(status: .init(code: reply.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: reply.body)))
    }

    /// Runs the site's work on its worker thread; a full queue is 503 at once.
    struct Pages: Sendable {
        let site: WebSite
        let worker: SerialWorker

        func run(_ body: @escaping @Sendable (WebSite) -> WebSite.Reply) async -> Response {
            let site = site
            do { return respond(try await worker.run { body(site) }) } catch {
                var busy = WebSite.Reply.text(503, "busy: \(queuedPages) pages are being made; try again in a moment")
                busy.headers.append(("Retry-After", "2"))
                return respond(busy)
            }
        }
    }
}

/// The token, when one is set: every request carries it as `Authorization: Bearer …` or
/// as the cookie that `/?token=…` sets once (then redirects to the same page without it,
/// so it stays out of the address bar and the history). Compared in constant time.
struct Guard: RouterMiddleware {
    typealias Context = BasicRequestContext
    let token: [UInt8]?
    /// Without a token (a loopback address), the `Host` names a request may carry.
    let hosts: Set<String>
    static let cookie = "somniq_token"

    /// The names of a loopback server: its address, `localhost` and `[::1]`, with its port
    /// (and without it, on port 80).
    static func loopbackHosts(_ http: HTTPConfig) -> Set<String> {
        let names = [http.host.contains(":") ? "[\(http.host)]" : http.host, "localhost", "127.0.0.1", "[::1]"]
        return Set(names.map { "\($0):\(http.port)" } + (http.port == 80 ? names : []))
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A request with more than one Host is refused (RFC 9112 §3.2): a proxy in front may
        // have routed it by another Host than the one read here. SwiftNIO keeps the first as
        // the authority and leaves any other among the fields.
        if request.headers.contains(where: { $0.name.canonicalName == "host" }) {
            return WebServer.respond(.text(400, "bad request: more than one Host header (RFC 9112 §3.2); send one"))
        }
        guard let token else {
            // A page elsewhere can point a name of its own at 127.0.0.1 (DNS rebinding) and
            // read what a loopback server serves without a token: its Host gives it away.
            let host = (request.head.authority ?? "").lowercased()
            guard hosts.contains(host) else {
                return WebServer.respond(.text(403, "refused: \(LogText.escape(host)) is not this server's name; open it as http://\(hosts.sorted().first ?? "127.0.0.1")/"))
            }
            return try await next(request, context)
        }
        if let given = request.uri.queryParameters["token"] {
            guard request.method == .get, Self.equal(token, Array(given.utf8)) else { return refuse() }
            var reply = WebSite.Reply.redirect(Self.sameServer(request.uri.path))
            reply.headers.append(("Set-Cookie", "\(Self.cookie)=\(String(decoding: token, as: UTF8.self)); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000"))
            return WebServer.respond(reply)
        }
        if let auth = WebServer.header(request, "authorization"), let given = Self.bearer(auth), Self.equal(token, Array(given.utf8)) {
            return try await next(request, context)
        }
        for header in request.headers where header.name.canonicalName == "cookie" {
            for part in header.value.split(separator: ";") {
                let pair = part.drop { $0 == " " }
                if pair.hasPrefix(Self.cookie + "="), Self.equal(token, Array(pair.dropFirst(Self.cookie.count + 1).utf8)) {
                    return try await next(request, context)
                }
            }
        }
        return refuse()
    }

    private func refuse() -> Response {
        var reply = WebSite.Reply.text(401, """
            somniq: this page needs its token. Open /?token=TOKEN once in this browser (the token is \
            http.token or the file http.token_file of the daemon's configuration), or send Authorization: Bearer TOKEN.
            """)
        reply.headers.append(("WWW-Authenticate", "Bearer realm=\"somniq\""))
        return WebServer.respond(reply)
    }

    /// The token of an `Authorization: Bearer TOKEN` field: the scheme in any case, then one
    /// or more spaces (RFC 9110 §11.1, §11.4); nil for another scheme.
    static func bearer(_ field: String) -> Substring? {
        guard let space = field.firstIndex(of: " "), field[..<space].lowercased() == "bearer" else { return nil }
        return field[space...].drop { $0 == " " }
    }

    /// A path on this server to redirect to: a single `/` first and no `\` (which browsers
    /// read as `/`), or else `/`: `//host` and `/\host` name other hosts.
    static func sameServer(_ path: String) -> String {
        path.hasPrefix("/") && !path.hasPrefix("//") && !path.contains("\\") && !path.lowercased().contains("%2f")
            && !path.lowercased().contains("%5c") ? path : "/"
    }

    /// Equal bytes, in a time that depends only on the configured token's length.
    static func equal(_ expected: [UInt8], _ given: [UInt8]) -> Bool {
        var difference = expected.count ^ given.count
        for i in expected.indices { difference |= Int(expected[i] ^ (i < given.count ? given[i] : 0)) }
        return difference == 0
    }

    /// A request that changes something must come from a page of this server: its
    /// `Origin` (or, from a browser that sends none, `Sec-Fetch-Site`) says so. A form on
    /// another site, which the cookie would otherwise follow, is refused (403).
    static func sameOrigin(_ request: Request) -> WebSite.Reply? {
        let host = request.head.authority ?? ""
        // Two are refused, as two Hosts are: the first may be this page's and the second
        // another site's, and what reads them next (a proxy) may take the other.
        guard request.headers.count(where: { $0.name.canonicalName == "origin" }) <= 1 else {
            return .text(400, "bad request: more than one Origin header; send one")
        }
        if let origin = WebServer.header(request, "origin") {
            // https too: behind a reverse proxy with TLS, the browser's origin is https.
            return origin == "http://\(host)" || origin == "https://\(host)" ? nil
                : .text(403, "refused: a request from another site (Origin \(LogText.escape(origin)))")
        }
        if WebServer.header(request, "sec-fetch-site") == "same-origin" { return nil }
        return .text(403, "refused: the request does not say it comes from this page (no Origin)")
    }
}

/// The web server as a service that fails alone: a port already taken (or any error of
/// the server) is logged, and the daemon listens on without its web page.
public struct WebService: Service {
    let app: any Service
    let listen: String
    let failsAlone: Bool
    let logger: Logger

    public func run() async throws {
        do { try await app.run() } catch {
            guard failsAlone else { throw WebServeError(description: "cannot serve on \(listen): \(error)") }
            logger.error("web page: cannot serve on \(listen): \(error); the daemon listens on without it")
            try? await gracefulShutdown()
        }
    }
}

public struct WebServeError: Error, CustomStringConvertible {
    public var description: String
}
