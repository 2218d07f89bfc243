import FoundationEssentials
import Glibc
import SomniqConfig
import SomniqCore
import SomniqReports
import SomniqSinks
import SomniqSupport
import Synchronization

/// What the web page serves, whatever serves it: the pages, the JSON, the clips, read
/// from one event log through its index. Everything here runs on the site's one worker
/// thread (`SerialWorker`), which owns the index; the HTTP layer (`WebServer`) only
/// carries requests and replies.
final class WebSite: Sendable {
    struct Reply: Sendable {
        var status: Int
        var contentType: String
        var body: [UInt8]
        var headers: [(String, String)] = []

        static func text(_ status: Int, _ text: String) -> Reply {
            Reply(status: status, contentType: "text/plain; charset=utf-8", body: Array((text + "\n").utf8))
        }
        static func html(_ text: String) -> Reply { Reply(status: 200, contentType: "text/html; charset=utf-8", body: Array(text.utf8)) }
        static func json(_ value: JSONValue) -> Reply {
            Reply(status: 200, contentType: "application/json", body: Array((value.prettyText + "\n").utf8))
        }
        static func redirect(_ location: String) -> Reply {
            Reply(status: 303, contentType: "text/plain; charset=utf-8", body: [], headers: [("Location", location)])
        }
    }

    struct Settings: Sendable {
        var log: String
        /// Where clips are looked up by the file name the log gives them.
        var clips: String
        var version: String
        /// The daemon's state; nil for `somniq serve`.
        var live: LiveState?
        /// The Prometheus textfile `somniq serve` shows at /metrics, when there is one.
        var metricsFile: String?
        /// Whether a clip may be deleted (a token is set).
        var canDelete: Bool
        /// Keep the index beside the log (else in memory).
        var keepIndex = true
        /// The sinks a test notification goes to, named for the page; nil: no button.
        var testSinks: [String]?
        /// What "now" is read from (its wall clock).
        var clock: any IOClock = SystemClock()
    }

    let settings: Settings
    /// The log's index, and whether the problem of keeping it was said. Only the site's
    /// worker thread takes the lock, so it never waits on it; the lock makes the compiler
    /// check that nothing else reads the index.
    private struct Indexed {
        let index: LogIndex
        var saidSaveProblem = false
    }
    private let indexed: Mutex<Indexed>
    private let notices: @Sendable (String) -> Void

    /// `notices` hears what the daemon's journal should: an index that cannot be kept
    /// (once), a clip deleted.
    init(_ settings: Settings, notices: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.notices = notices
        indexed = Mutex(Indexed(index: LogIndex(log: settings.log, indexPath: settings.keepIndex ? LogIndex.besideLog(settings.log) : nil)))
    }

    /// Brings the index up to the log; a log that cannot be read is a 503 with its reason.
    private func refreshed() -> Reply? {
        let (failure, problem): (Reply?, String?) = indexed.withLock { s in
            do { try s.index.refresh() } catch {
                return (.text(503, "\(error)"), nil)
            }
            guard let problem = s.index.saveProblem, !s.saidSaveProblem else { return (nil, nil) }
            s.saidSaveProblem = true
            return (nil, problem)
        }
        if let problem { notices(problem) }
        return failure
    }

    /// Reads the log into the index (at start, before any request).
    func warm() { _ = refreshed() }

    private var capture: HTMLReport.Capture {
        settings.live.map { .daemon($0.snapshot) } ?? .log(settings.log)
    }

    private func now() -> Double { settings.clock.unix }

    // MARK: pages

    /// `/`: tonight so far (the night the current time belongs to).
    func tonight() -> Reply {
        if let failed = refreshed() { return failed }
        let key = WallClock.night(now())
        let (night, keys, failure): (Night?, [String], Reply?) = indexed.withLock { s in
            do { return (try s.index.night(key), s.index.dates, nil) } catch { return (nil, [], .text(503, "\(error)")) }
        }
        if let failure { return failure }
        let previous = keys.last { $0 < key }
        return .html(HTMLReport.tonight(night, key: key, previous: previous, capture: capture, now: now(),
                                        version: settings.version, web: web(key)))
    }

    /// The night `key` (a date) of the log, brought up to date, or the reply saying why not.
    private func lookup(_ key: String) -> Result<Night, NotServed> {
        guard History.isDate(key) else { return .failure(NotServed(reply: .text(404, "no such night: a night is YYYY-MM-DD"))) }
        if let failed = refreshed() { return .failure(NotServed(reply: failed)) }
        return indexed.withLock { s in
            do {
                guard let found = try s.index.night(key) else {
                    let reported = s.index.episodes.of(key).count
                    return .failure(NotServed(reply: .text(404, reported > 0
                        ? "no sound was recorded on the night of \(key); it has \(reported) episode(s) reported"
                        : "no night \(key) in the log")))
                }
                return .success(found)
            } catch {
                return .failure(NotServed(reply: .text(503, "\(error)")))
            }
        }
    }

    struct NotServed: Error { var reply: Reply }

    /// `/night/DATE`: the report of a night, with the nights either side.
    func night(_ key: String) -> Reply {
        let found: Night
        switch lookup(key) {
        case let .success(n): found = n
        case let .failure(f): return f.reply
        }
        let keys = indexed.withLock { $0.index.dates }
        var w = web(key)
        w.previous = keys.last { $0 < key }
        w.next = keys.first { $0 > key }
        return .html(HTMLReport.render(found, version: settings.version, web: w))
    }

    /// The index's history of the log, grouped.
    private func history(of grouping: History.Grouping) -> History {
        indexed.withLock { $0.index.history(grouping: grouping) }
    }

    /// `/history`, `?group=week|month`.
    func history(grouping: History.Grouping) -> Reply {
        if let failed = refreshed() { return failed }
        return .html(history(of: grouping).html(version: settings.version, web: web(nil)))
    }

    private func web(_ key: String?) -> HTMLReport.Web {
        let clips = settings.clips
        var w = HTMLReport.Web(clipURL: { e in
            guard let key, Self.clipFile(e, in: clips) != nil else { return nil }
            return Self.clipURL(key, e)
        })
        if settings.canDelete, let key {
            w.deleteURL = { Self.clipURL(key, $0) + "/delete" }
            w.episodeURL = HTMLReport.nightURL(key) + "/episode"
            w.labelURL = { HTMLReport.nightURL(key) + "/event/" + HTMLReport.percentEncoded($0.id) + "/label" }
        }
        if settings.canDelete, let sinks = settings.testSinks, !sinks.isEmpty { w.testSinks = sinks }
        return w
    }

    static func clipURL(_ key: String, _ e: Night.Event) -> String {
        HTMLReport.nightURL(key) + "/clip/" + HTMLReport.percentEncoded(e.id)
    }

    /// Adds the episode the night page's form describes (POST, with the token and from the
    /// page's own origin, checked before this), through the event log's own writer.
    func addEpisode(_ key: String, fields: [(String, String)]) -> Reply {
        guard settings.canDelete else { return .text(403, "adding an episode needs a token: set http.token in the configuration") }
        func value(_ name: String) -> String? {
            fields.first { $0.0 == name }.map { $0.1.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let tags = (value("tags") ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        var duration: Double?
        if let text = value("duration") {
            guard let d = Double(text) else { return .text(400, "duration \(LogText.escape(text)): give minutes, such as 20") }
            duration = d
        }
        let made = Episode.make(night: key, severity: value("severity") ?? "", symptoms: fields.filter { $0.0 == "symptom" }.map(\.1),
                                tags: tags, note: value("note"), at: value("at"), duration: duration, now: now())
        switch made {
        case let .failure(e): return .text(400, "the episode was not added: \(e)")
        case let .success(episode):
            do { try EventLogWriter(path: settings.log).append(episode.record) } catch {
                return .text(503, "the episode was not added: \(error)")
            }
            notices("episode \(episode.id) added to the night of \(key) from the web page")
            return .redirect(HTMLReport.nightURL(key) + "#reported")
        }
    }

    /// Labels event `id` of the night as the page's buttons say (POST, with the token and
    /// from the page's own origin, checked before this): `as` is `right`, `not`, or `was`
    /// with `was` a class or `other`; a label record appended through the event log's own
    /// writer, as `somniq label` appends it.
    func addLabel(_ key: String, id: String, fields: [(String, String)]) -> Reply {
        guard settings.canDelete else { return .text(403, "labelling an event needs a token: set http.token in the configuration") }
        let found: Night
        switch lookup(key) {
        case let .success(n): found = n
        case let .failure(f): return f.reply
        }
        guard let event = found.events.first(where: { $0.id == id }) else {
            return .text(404, "no event \(LogText.escape(id)) in the night of \(key)")
        }
        let was = fields.first { $0.0 == "was" }.flatMap { EventLabel.Verdict($0.1) }
        let verdict: EventLabel.Verdict? = switch fields.first(where: { $0.0 == "as" })?.1 {
        case "right": .right
        case "not": .not
        case "was": was == .other || was.map { if case .was = $0 { true } else { false } } == true ? was : nil
        default: nil
        }
        guard let verdict else { return .text(400, "the event was not labelled: say right, not, or was with a class or other") }
        let label = EventLabel(id: id, night: key, soundClass: event.soundClass, verdict: verdict, time: now())
        do { try EventLogWriter(path: settings.log).append(label.record) } catch {
            return .text(503, "the event was not labelled: \(error)")
        }
        notices("event \(id) of the night of \(key) labelled \(verdict.text) from the web page")
        return .redirect(HTMLReport.nightURL(key) + "#" + HTMLReport.percentEncoded("e-" + id))
    }

    // MARK: JSON

    func apiStatus() -> Reply { .json(WebJSON.status(capture, now: now(), night: WallClock.night(now()))) }

    func apiNights() -> Reply {
        if let failed = refreshed() { return failed }
        return .json(WebJSON.nights(history(of: .all)))
    }

    func apiNight(_ key: String) -> Reply {
        let found: Night
        switch lookup(key) {
        case let .success(n): found = n
        case let .failure(f): return f.reply
        }
        let clips = settings.clips
        return .json(WebJSON.night(found) { e in Self.clipFile(e, in: clips) != nil ? Self.clipURL(key, e) : nil })
    }

    func apiHistory(grouping: History.Grouping) -> Reply {
        if let failed = refreshed() { return failed }
        return Reply(status: 200, contentType: "application/json", body: Array(history(of: grouping).json().utf8))
    }

    // MARK: health and metrics

    /// 200 while the capture is alive, 503 with the reason when not. `somniq serve` has no
    /// capture: it is healthy while its log can be read.
    func health() -> Reply {
        guard let live = settings.live else {
            return access(settings.log, R_OK) == 0 ? .text(200, "ok: serving \(LogText.escape(settings.log))")
                : .text(503, "cannot read \(LogText.escape(settings.log)): \(String(cString: strerror(errno)))")
        }
        let s = live.snapshot
        if let problem = LiveState.problem(s, now: now()) { return .text(503, LogText.escape(problem)) }
        return .text(200, "ok: listening on \(LogText.escape(s.device))" + [s.home, s.homeFit].compactMap { $0.map { "; " + LogText.escape($0) } }.joined())
    }

    /// The metrics as the textfile has them: the daemon's own, or the textfile beside the
    /// log that `somniq serve` serves. That file is only read if it is a regular file at
    /// its own name: a link there (to /etc/passwd, say) would serve whatever it points to,
    /// and a FIFO would block the read (the file is opened without blocking, then checked).
    func metrics() -> Reply {
        let text: String
        if let live = settings.live {
            text = live.snapshot.metrics
        } else if let file = settings.metricsFile {
            switch TextFile.read(file, what: "a metrics file", limit: 16 << 20, followingLinks: false) {
            case let .success(bytes): text = String(decoding: bytes, as: UTF8.self)
            case let .failure(e) where e.missing: return Self.noMetrics
            case let .failure(e): return .text(404, "no metrics: \(LogText.escape(file)): \(e.problem)")
            }
        } else {
            return Self.noMetrics
        }
        return Reply(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(text.utf8))
    }

    private static let noMetrics = Reply.text(404, "no metrics: somniq serve shows the daemon's textfile (somniq.prom beside the log), and there is none")

    // MARK: clips

    /// The file of event `id`'s clip in night `key`: looked up in the log, never taken
    /// from the URL, and found by its file name in the clips directory.
    enum ClipLookup { case file(String), refused(Reply) }

    func clip(_ key: String, id: String) -> ClipLookup {
        let found: Night
        switch lookup(key) {
        case let .success(n): found = n
        case .failure: return .refused(.text(404, "no clip of event \(LogText.escape(id)) in the night of \(LogText.escape(key))"))
        }
        guard let event = found.events.first(where: { $0.id == id }), event.clip != nil else {
            return .refused(.text(404, "no clip of event \(LogText.escape(id)) in the night of \(key)"))
        }
        guard let file = Self.clipFile(event, in: settings.clips) else {
            return .refused(.text(404, "the clip of event \(LogText.escape(id)) is deleted"))
        }
        return .file(file)
    }

    /// The clip's file, if it is there: the log's file name (its last component, never a
    /// `.`, `..` or hidden name) in the clips directory, itself resolved, and no symbolic
    /// link out of it.
    static func clipFile(_ e: Night.Event, in directory: String) -> String? {
        guard let logged = e.clip else { return nil }
        let name = PathText.lastComponent(logged)
        guard !name.isEmpty, !name.hasPrefix("."), ClipStore.isClipName(name) else { return nil }
        guard let dir = realPath(directory), let file = realPath(directory + "/" + name),
              file == dir + "/" + name else { return nil }
        var st = stat()
        guard stat(file, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return file
    }

    private static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// Deletes the clip of event `id` (POST, with the token and from the page's own origin,
    /// checked by the server before this), then goes back to its night.
    func deleteClip(_ key: String, id: String) -> Reply {
        guard settings.canDelete else { return .text(403, "deleting a clip needs a token: set http.token in the configuration") }
        switch clip(key, id: id) {
        case let .refused(reply): return reply
        case let .file(file):
            guard unlink(file) == 0 else {
                return .text(500, "cannot delete \(LogText.escape(file)): \(String(cString: strerror(errno)))")
            }
            notices("deleted the clip \(file) from the web page")
            return .redirect(HTMLReport.nightURL(key) + "#alerts")
        }
    }
}
