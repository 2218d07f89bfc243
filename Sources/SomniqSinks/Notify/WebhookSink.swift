import CNetLibs
import FoundationEssentials
import Glibc
import SomniqConfig
import SomniqCore
import SomniqLog
import SomniqSupport
import Synchronization

/// POSTs each notification over HTTP(S) with libcurl: the record as JSON, or (format
/// `ntfy`) a line of text with ntfy's Title, Priority and Tags headers. Any answer but
/// 2xx, or none within the timeout, is a failure and is retried with backoff.
/// Redirects are not followed, and only http and https are spoken.
final class WebhookSink: SinkEndpoint, Sendable {
    private let config: SinkConfig.Webhook
    /// The curl handle; nil when libcurl could not be loaded (`loadFailure`). Only the sink's
    /// worker thread uses it, so its lock is never contended: it lets the compiler check that
    /// the sink may be shared, and keeps every use of the handle inside one `withLock`.
    private let curl: Mutex<UnsafeMutableRawPointer?>
    private let userAgent: String

    /// Loads libcurl (the first webhook sink does) and initialises it; why it could not
    /// be loaded, if it could not. `curl_global_init` is not thread-safe: the hub calls
    /// this before any worker starts.
    static let loadFailure: String? = {
        if let why = somniq_curl_load() { return String(cString: why) }
        somniq_curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return nil
    }()

    /// The clock a deadline is on (the hub's): what is left of it is libcurl's timeout.
    private let clock: any IOClock

    init(_ config: SinkConfig.Webhook, version: String, clock: any IOClock = SystemClock()) {
        self.config = config
        self.clock = clock
        userAgent = "somniq/\(version)"
        curl = Mutex(Self.loadFailure == nil ? somniq_curl_easy_init() : nil)
    }

    deinit { curl.withLock { if let handle = $0 { somniq_curl_easy_cleanup(handle) } } }

    func start(wake: @escaping @Sendable () -> Void) {}
    func stop() {}
    func takes(_ kind: SinkMessage.Kind) -> Bool { kind != .level }

    /// ntfy's priority (1 min … 5 urgent) for a message.
    static func ntfyPriority(_ m: SinkMessage) -> Int {
        if m.kind == .eventEnd { return 2 }
        if m.kind == .summary { return 3 }
        if m.isRecovery { return 3 }
        switch m.tier {
        case .critical: return 5
        case .high: return 4
        case .medium: return 3
        case .low: return 2
        }
    }

    /// The body and headers of a POST.
    static func request(_ m: SinkMessage, format: SinkConfig.Webhook.Format) -> (body: String, headers: [String]) {
        switch format {
        case .json:
            return (m.record.compactText, ["Content-Type: application/json"])
        case .ntfy:
            let emoji = m.kind == .summary ? "sunrise" : m.kind == .eventEnd || m.isRecovery ? "white_check_mark"
                : m.tier == .critical ? "rotating_light" : m.tier == .high ? "warning" : "bell"
            let tags = [emoji, m.soundClass?.rawValue ?? m.status?.rawValue ?? m.kind.rawValue, m.room]
            // ntfy's `Click`: tapping the notification opens the event on the page.
            return (m.text, ["Content-Type: text/plain; charset=utf-8",
                             "Title: \(m.title)",
                             "Priority: \(ntfyPriority(m))",
                             "Tags: \(tags.joined(separator: ","))"] + (m.link.map { ["Click: \($0)"] } ?? []))
        }
    }

    func deliver(_ message: SinkMessage, until deadline: ContinuousClock.Instant?) throws(SinkFailure) {
        var ms = Int(config.timeoutSeconds * 1000)
        if let deadline { ms = min(ms, max(1, Int((clock.now.duration(to: deadline).inSeconds * 1000).rounded(.up)))) }
        let (body, extra) = Self.request(message, format: config.format)
        let headers = extra + config.headers.sorted(by: { $0.key < $1.key }).map({ "\($0.key): \($0.value)" })
        let bytes = Array(body.utf8)
        // What curl said: its result, the answer's status, and its error text (if any).
        let done: (result: CURLcode, code: Int, said: [UInt8])? = curl.withLock { handle in
            guard let curl = handle else { return nil }
            var list: UnsafeMutablePointer<curl_slist>?
            for h in headers { list = somniq_curl_slist_append(list, h) }
            defer { somniq_curl_slist_free_all(list) }
            var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE))
            let result: CURLcode = bytes.withUnsafeBufferPointer { b in
                errorBuffer.withUnsafeMutableBufferPointer { e in
                    somniq_curl_easy_reset(curl)
                    _ = somniq_curl_set_string(curl, CURLOPT_URL, config.url)
                    _ = somniq_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
                    _ = somniq_curl_set_string(curl, CURLOPT_USERAGENT, userAgent)
                    _ = somniq_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
                    _ = somniq_curl_set_long(curl, CURLOPT_POST, 1)
                    _ = somniq_curl_set_pointer(curl, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: b.baseAddress))
                    _ = somniq_curl_set_long(curl, CURLOPT_POSTFIELDSIZE, b.count)
                    _ = somniq_curl_set_pointer(curl, CURLOPT_HTTPHEADER, list.map(UnsafeMutableRawPointer.init))
                    _ = somniq_curl_set_long(curl, CURLOPT_TIMEOUT_MS, ms)
                    _ = somniq_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, min(ms, 5000))
                    _ = somniq_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, e.baseAddress)
                    _ = somniq_curl_set_write_function(curl) { _, size, count, _ in size * count }
                    return somniq_curl_easy_perform(curl)
                }
            }
            var code = 0
            if result == CURLE_OK { _ = somniq_curl_response_code(curl, &code) }
            return (result, code, errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        }
        guard let done else { throw SinkFailure("cannot load libcurl: \(Self.loadFailure ?? "curl_easy_init failed")") }
        let host = Self.hostOf(config.url)
        guard done.result == CURLE_OK else {
            let detail = done.said.isEmpty ? String(cString: somniq_curl_easy_strerror(done.result)) : String(decoding: done.said, as: UTF8.self)
            // No connection made: the service cannot have the request. Any other failure
            // (a timeout, a connection cut) may come after the service took it.
            throw SinkFailure("POST to \(host) failed: \(detail)", unsent: done.result == CURLE_COULDNT_CONNECT)
        }
        guard (200..<300).contains(done.code) else { throw SinkFailure("POST to \(host) answered HTTP \(done.code)") }
    }

    /// The URL's scheme and host, for messages: the path may hold a secret (an ntfy topic).
    static func hostOf(_ url: String) -> String {
        guard let c = URLComponents(string: url), let scheme = c.scheme, let host = c.host else { return "the webhook" }
        return "\(scheme)://\(host)" + (c.port.map { ":\($0)" } ?? "")
    }
}
