import FoundationEssentials
import Glibc
import SomniqCore
import SomniqSupport

/// `"http"` in config.json: the daemon's web page, off unless present.
///
///     "http": {"listen": "0.0.0.0:8080", "token_file": "/etc/somniq/web-token"}
///
/// A loopback address (127.0.0.0/8, ::1) is served without a token; any other address
/// needs one, given as `token` or read from `token_file` (a file only its owner may read).
public struct HTTPConfig: Sendable, Equatable {
    /// An IPv4 or IPv6 address (no name: a name may resolve to several), and a port.
    public var host: String
    public var port: Int
    /// The token every request must carry (a bearer header, or the cookie `/?token=` sets).
    public var token: String?
    /// Where the token came from (the file), for messages.
    public var tokenFile: String?
    /// The page's address as a phone reaches it (`https://somniq.home:8443`, behind a
    /// proxy, or `http://192.168.1.20:8080`), without a trailing slash: notifications link
    /// each event to its place on it, and Home Assistant's device links to it.
    public var publicURL: String?

    public init(host: String, port: Int, token: String? = nil) {
        self.host = host
        self.port = port
        self.token = token
    }

    public static let keys = ["listen", "token", "token_file", "public_url"]

    /// `127.0.0.1:8080`, or `[::1]:8080` for IPv6.
    public var listen: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    public var isLoopback: Bool { Self.isLoopback(host) }

    /// 127.0.0.0/8 and ::1 (RFC 1122 §3.2.1.3, RFC 4291 §2.5.3): no other machine can reach them.
    public static func isLoopback(_ host: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { b in b.prefix(15).allSatisfy { $0 == 0 } && b[15] == 1 }
        }
        return false
    }

    /// A token: 16 to 256 characters a cookie and a header carry as they are (RFC 6265's
    /// cookie-octets without `%`, RFC 6750's b64token): letters, digits, `-._~+/=`.
    /// 16 random characters of that set are over 90 bits.
    public static func tokenProblem(_ t: String) -> String? {
        let allowed = t.unicodeScalars.allSatisfy { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || "-._~+/=".unicodeScalars.contains(s)
        }
        guard allowed, (16...256).contains(t.unicodeScalars.count) else {
            return "must be 16 to 256 letters, digits or -._~+/= (make one with: openssl rand -hex 24)"
        }
        return nil
    }

    /// `somniq serve`'s `--listen` and `--token-file`, checked as the configuration's are.
    public static func options(listen: String, tokenFile: String?) throws(ConfigError) -> HTTPConfig {
        var members: [(String, JSONValue)] = [("listen", .string(listen))]
        if let tokenFile { members.append(("token_file", .string(tokenFile))) }
        return try parse(JSONField(.object(members), at: "", in: "somniq serve"))
    }

    /// Reads the `http` member; `tokenFileRefused` takes a token file that cannot be used
    /// (unreadable, readable by others, no token in it) instead of throwing: the daemon,
    /// which listens without the page rather than not at all.
    static func parse(_ field: JSONField<ConfigError>, tokenFileRefused: ((String, ConfigError) -> Void)? = nil) throws(ConfigError) -> HTTPConfig {
        let fields = try field.object()
        try fields.allowOnly(keys)
        guard let listen = fields["listen"] else { throw field.error("needs \"listen\": \"HOST:PORT\", such as \"127.0.0.1:8080\"") }
        let text = try listen.text()
        guard let (host, port) = Self.address(text) else {
            throw listen.error("\"\(text)\" must be an address and a port: \"127.0.0.1:8080\", \"0.0.0.0:8080\", \"[::1]:8080\"")
        }
        var c = HTTPConfig(host: host, port: port)
        if let t = fields["token"] {
            let token = try t.text()
            if let problem = tokenProblem(token) { throw t.error(problem) }
            c.token = token
        }
        if let f = fields["token_file"] {
            guard c.token == nil else { throw f.error("give \"token\" or \"token_file\", not both") }
            let path = try f.absolutePath()
            c.tokenFile = path
            do { c.token = try readToken(path, field: f) } catch {
                guard let tokenFileRefused else { throw error }
                tokenFileRefused(path, error)
            }
        }
        if let u = fields["public_url"] {
            let url = try u.text()
            guard url.hasPrefix("http://") || url.hasPrefix("https://"), url.count > 8, url.count <= 512,
                  ConfigText.problem(url) == nil, !url.unicodeScalars.contains(where: { $0 == " " || $0 == "\"" || $0 == "<" || $0 == ">" }) else {
                throw u.error("\"\(LogText.escape(url))\" must be an http:// or https:// URL, such as \"https://somniq.home:8443\"")
            }
            c.publicURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        // (A token file refused leaves no page to serve, with or without a token.)
        if c.token == nil, c.tokenFile == nil, !c.isLoopback {
            throw field.error("listening on \(host) needs a token: set \"token\" or \"token_file\" (only a loopback address such as 127.0.0.1 is served without one)")
        }
        return c
    }

    /// `HOST:PORT` with an IPv4 address, or `[HOST]:PORT` with an IPv6 one; port 1–65535.
    static func address(_ text: String) -> (String, Int)? {
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
            var v6 = in6_addr()
            guard inet_pton(AF_INET6, String(host), &v6) == 1 else { return nil }
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            var v4 = in_addr()
            guard inet_pton(AF_INET, String(host), &v4) == 1 else { return nil }
        }
        guard portText.allSatisfy(\.isASCII), let port = Int(portText), (1...65535).contains(port) else { return nil }
        return (String(host), port)
    }

    /// Where an event is on the page: its night's report, at its row.
    public func link(night: String, event id: String) -> String? {
        publicURL.map { "\($0)/night/\(night)#e-\(id)" }
    }

    /// The token in `path`, its trailing newline dropped. The file must not be readable
    /// by other users: a token every account on the machine can read guards nothing.
    static func readToken(_ path: String, field: JSONField<ConfigError>) throws(ConfigError) -> String {
        var st = stat()
        if stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_mode & (S_IRWXG | S_IRWXO) != 0 {
            throw field.error(String(cFormat: "%@ may be read by other users (mode %03o): chmod 600 it", path, Int(st.st_mode & 0o777)))
        }
        switch TextFile.read(path, what: "a token file") {
        case let .success(bytes):
            // `openssl rand -hex 24 > file` ends it with a newline; a token has no white space.
            let token = String(String(decoding: bytes, as: UTF8.self).unicodeScalars.filter { !$0.properties.isWhitespace })
            if let problem = tokenProblem(token) { throw field.error("the token in \(path) \(problem)") }
            return token
        case let .failure(e):
            throw field.error("\(path): \(e.problem)")
        }
    }
}
