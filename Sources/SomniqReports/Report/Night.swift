import SomniqCore
import SomniqLog
import SomniqSupport

/// One night as its log tells it: the sessions that started in it (a night runs from
/// noon to noon, local time), or one replayed recording with no wall-clock time. Times
/// are seconds from the night's first record.
public struct Night: Sendable {
    public struct Event: Sendable {
        public var id: String
        public var soundClass: SoundClass
        public var tier: Tier
        public var onset: Double, offset: Double
        public var alert: Bool
        public var suppressed: Suppression?
        public var peakDbfs: Double
        public var confidence: Double
        public var truncated: Bool
        /// The decision trace, as logged.
        public var trace: LogRecord.Trace?
        /// The file its sound was kept in, when it keeps one.
        public var clip: String?
        /// Why its clip was never written (a `clip_skipped` status: the disk full, …).
        public var clipNotKept: String?
        /// Still open where the log ends: its session has not ended, so the sound may go on
        /// (the daemon hears it now, or stopped without closing the log). Its offset is where
        /// the session's audio was last logged; it is not `truncated`.
        public var open = false
        public var seconds: Double { offset - onset }
    }

    public struct Minute: Sendable {
        public var start: Double, seconds: Double
        public var leq: Double, l10: Double, l90: Double, lmax: Double, floor: Double
        public var active: [SoundClass: Double]
    }

    /// A condition of the daemon worth reading about: a lost device, silent or clipping
    /// input, overruns, a log or a sink that failed, a refused profile.
    public struct Incident: Sendable {
        public var time: Double
        public var status: LogStatus
        public var detail: String
    }

    /// `2026-11-22` (the evening's date), or the recording's path for a replay.
    public var key: String
    /// Unix time of second 0, when the log has wall-clock times.
    public var start: Double?
    /// Seconds of audio heard.
    public var heard = 0.0
    /// Seconds the daemon could not hear the room while it ran: its device lost, or open
    /// and sending no audio (`capture_stalled`), until `listening` again or the session's end.
    public var unheard = 0.0
    /// Seconds from the first record to the last.
    public var span = 0.0
    public var events: [Event] = []
    public var minutes: [Minute] = []
    public var incidents: [Incident] = []
    public var sessions = 0
    /// Profiles in force (name and SHA-256), sources (device or file).
    public var profiles: [String] = []
    public var sources: [String] = []
    /// What of its log was skipped (counted over the whole log the night was read from).
    public var skipped = LogSkips()
    /// What the sleeper reported of it (`somniq episode add`), wherever in the log.
    public var episodes: [Episode] = []
    /// What the listener said of its events (`somniq label`), by event id.
    public var labels: [String: EventLabel] = [:]
    /// What the morning summary said of this night, as the daemon sent it (its last),
    /// wherever in the log.
    public var morningSummary: LogRecord.MorningSummary?

    /// The session still going on where the log ends (no `session_end` yet): where its
    /// second 0 lies on the night's axis, and how many seconds of its audio the log's level
    /// records hold. Only a night read to the log's end has one.
    public struct OpenSession: Sendable {
        public var offset: Double
        public var logged: Double
    }
    public var openSession: OpenSession?

    /// "23:10" for a night with wall-clock time, else the elapsed "1:05:00".
    public func clock(_ t: Double, seconds: Bool = false) -> String {
        if let start { return WallClock.localTime(start + t, seconds: seconds) }
        let s = Int(t.rounded(.down))
        return s >= 3600 ? String(cFormat: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(cFormat: "%d:%02d", s / 60, s % 60)
    }
}

/// Turns log records into nights, in the order they appear, holding one night at a time.
/// A session that runs past noon (the daemon's, which lasts as long as it runs) goes on in
/// the next night from its first minute (`level` record) of that night.
public struct NightBuilder {
    /// Between a session_start and its session_end, and the session's start (unix time).
    private var inSession = false
    private var sessionStart: Double?
    private var night: Night?
    /// The current session's offset into the night, and its events waiting for their end.
    private var offset = 0.0
    private var open: [String: Night.Event] = [:]
    private var sessionSeconds = 0.0
    /// Where this session's events start in the night's, and its clips that were not kept.
    private var sessionFirstEvent = 0
    private var notKept: [String: String] = [:]
    /// Since when (Unix time) the session has not heard the room: its device lost or its
    /// capture stalled, and no `listening` since.
    private var unheardSince: Double?
    /// Records skipped because a number in them is out of its range.
    public private(set) var outOfRange = 0

    public init() {}

    /// Adds a line of the log (one this version does not read is passed over); returns
    /// the previous night when this one starts a new night.
    public mutating func add(_ line: LogLine) -> Night? {
        guard case let .success(r) = line else { return nil }
        return add(r)
    }

    /// Adds a record; returns the previous night when this one starts a new night.
    public mutating func add(_ r: LogRecord) -> Night? {
        guard LogRanges.valid(r) else {
            outOfRange += 1
            return nil
        }
        var finished: Night?
        // The session's first minute of another night (its `level` record, timed at the
        // minute's start, by the same clock as the night's key: daylight-saving days too)
        // begins that night. The records before it, in the order written, stay in the
        // night they came in, so that every way of reading the log cuts it at one record.
        // A time more than a year past the session's start (a damaged or hostile record)
        // cuts nothing: a night begun there would put its records years off its axis.
        if inSession, case let .level(m) = r, let key = night?.key, let start = night?.start, let since = sessionStart,
           let w = m.time.flatMap(WallClock.parse), w > start, w - since <= LogRanges.seconds.upperBound,
           WallClock.night(w) != key {
            finished = continueInNextNight(at: w)
        }
        switch r {
        case let .sessionStart(s):
            closeSession()
            inSession = true
            unheardSince = nil
            let start = s.startTime.flatMap(WallClock.parse)
            sessionStart = start
            let source = s.source?.name ?? "?"
            let key = start.map(WallClock.night) ?? source
            // A replay without a start time is a night of its own; sessions of one
            // evening (restarts) make one night.
            if night?.key != key || start == nil || night?.start == nil {
                finished = night
                night = Night(key: key, start: start)
                offset = 0
            } else if let start, let first = night?.start {
                offset = start - first
            }
            sessionFirstEvent = night!.events.count
            night!.sessions += 1
            let profile = "\(s.profile ?? "?") (\(s.profileSHA256 ?? "?"))"
            if !night!.profiles.contains(profile) { night!.profiles.append(profile) }
            if !night!.sources.contains(source) { night!.sources.append(source) }
        case let .eventStart(e):
            guard let onset = e.onset else { break }
            anchor(e.onsetTime, at: onset)
            open[e.id] = Night.Event(id: e.id, soundClass: e.soundClass, tier: e.tier ?? .low, onset: offset + onset, offset: offset + onset,
                                     alert: e.alert, suppressed: e.suppressed, peakDbfs: e.trace?.levelDbfs ?? -120,
                                     confidence: 0, truncated: false, trace: e.trace, clip: nil)
        case let .eventEnd(end):
            guard let e0 = open[end.id], let off = end.offset else { break }
            anchor(end.offsetTime, at: off)
            // An end before its start is as out of range as a number can be.
            guard offset + off >= e0.onset - 0.001 else {
                outOfRange += 1
                break
            }
            var e = e0
            open[end.id] = nil
            e.offset = offset + off
            e.peakDbfs = end.peakDbfs ?? e.peakDbfs
            e.confidence = end.confidence ?? 0
            e.truncated = end.truncated
            e.clip = end.clip
            night?.events.append(e)
        case let .level(m):
            anchor(m.time, at: m.start)
            night?.minutes.append(.init(start: offset + m.start, seconds: m.seconds, leq: m.leq ?? -120, l10: m.l10 ?? -120,
                                        l90: m.l90 ?? -120, lmax: m.lmax ?? -120, floor: m.floor ?? -120,
                                        active: Dictionary(m.active, uniquingKeysWith: { _, last in last })))
            night?.heard += m.seconds
            sessionSeconds = m.start + m.seconds
        case let .status(s):
            if s.status == .clipSkipped, let id = s.id { notKept[id] = s.error ?? "" }
            let time = s.time.flatMap(WallClock.parse)
            let unheardFor = s.unheardSeconds.map { min(max(0, $0), LogRanges.seconds.upperBound) }
            if LogStatus.deafness.contains(s.status), unheardSince == nil, let time {
                // A stall is said once the device has been quiet for `seconds`.
                unheardSince = time - (s.status == .captureStalled ? min(max(0, s.seconds ?? 0), 3600) : 0)
            } else if s.status == .listening, let unheardFor {
                night?.unheard += unheardFor
                unheardSince = nil
            }
            guard Self.incidents.contains(s.status) || s.status == .listening && unheardFor != nil else { break }
            let shown: [LogRecord.Status.Detail.Name] = [.error, .framesLost, .seconds, .unheard, .sink, .dropped, .samples, .openIDs, .path]
            let detail = shown.compactMap { name in
                s[name].map { "\(name.rawValue.replacing("_", with: " ")) \($0.stringValue ?? $0.compactText)" }
            }.joined(separator: ", ")
            // At the time it was written (the stream stands still through a stall it says).
            let at = axis(time) ?? offset + (s.streamSeconds ?? 0)
            night?.incidents.append(.init(time: at, status: s.status, detail: detail))
        case let .sessionEnd(end):
            inSession = false
            if let since = unheardSince, let endTime = end.endTime.flatMap(WallClock.parse), endTime > since {
                night?.unheard += min(endTime - since, LogRanges.seconds.upperBound)
            }
            unheardSince = nil
            let s = end.streamSeconds ?? sessionSeconds
            let ended = axis(end.endTime.flatMap(WallClock.parse)) ?? 0
            let span = max(night?.span ?? 0, offset + s, ended)
            night?.span = span
            // Logs written before level records existed: the session's length is what was heard.
            if night?.minutes.isEmpty == true { night?.heard += s }
            closeSession()
        case .episode, .episodeRemoved, .label, .morningSummary:
            break
        }
        return finished
    }

    /// A record's logged wall time of its stream time `streamSeconds` (an event's onset or
    /// offset, a minute's start) places this session on the night's axis from here on. The
    /// daemon times its records by one rule (`LiveClock`): its stream stands still through a
    /// stall while the wall clock runs on, so the axis follows the times it logged, never
    /// the session's start plus stream time. A time more than a year off the session's
    /// start (a damaged or hostile record) moves nothing.
    private mutating func anchor(_ time: String?, at streamSeconds: Double) {
        guard let t = axis(time.flatMap(WallClock.parse)) else { return }
        offset = t - streamSeconds
    }

    /// Where a Unix time of this session lies on the night's axis; nil for none, or one more
    /// than a year off the session's start.
    private func axis(_ time: Double?) -> Double? {
        guard let since = sessionStart, let start = night?.start, let time,
              time - since >= -60, time - since <= LogRanges.seconds.upperBound else { return nil }
        return time - start
    }

    /// Ends the night, and goes on with the session in the night of `time` (from its noon,
    /// on whose time axis the session's offset is then). Returns the night ended.
    private mutating func continueInNextNight(at time: Double) -> Night? {
        guard var ended = night, let oldStart = ended.start else { return nil }
        if !notKept.isEmpty {
            for i in sessionFirstEvent..<ended.events.count {
                if let why = notKept[ended.events[i].id] { ended.events[i].clipNotKept = why }
            }
        }
        // Events still open end here, cut off (as at a session's end): an event belongs
        // to one night, and a reader of the next night alone would not know them.
        let cut = offset + sessionSeconds
        for var e in open.values.sorted(by: { $0.onset < $1.onset }) {
            e.offset = max(e.onset, cut)
            e.truncated = true
            e.clipNotKept = notKept[e.id]
            ended.events.append(e)
        }
        open.removeAll()
        ended.span = max(ended.span, cut, ended.events.map(\.offset).max() ?? 0)
        let key = WallClock.night(time)
        guard let newStart = Self.noon(of: key) else { return nil }
        offset -= newStart - oldStart
        var next = Night(key: key, start: newStart)
        next.sessions = 1
        next.profiles = ended.profiles
        next.sources = ended.sources
        night = next
        sessionFirstEvent = 0
        return ended
    }

    /// Noon, local time, of the evening `key` (`2026-11-22`).
    static func noon(of key: String) -> Double? { WallClock.parse("\(key)T12:00") }

    /// The night in progress at the end of what was read. `atLogEnd`: what was read is the
    /// whole rest of the log, so a session with no `session_end` is still open there (its
    /// events `open`, the night's `openSession`), not one cut short.
    public mutating func finish(atLogEnd: Bool = false) -> Night? {
        if atLogEnd, inSession {
            night?.openSession = .init(offset: offset, logged: sessionSeconds)
            closeSession(open: true)
        } else {
            closeSession()
        }
        defer { night = nil }
        return night
    }

    /// Events still open when a session ends without closing them (a crash) end where
    /// the session's audio was last heard, marked truncated; with `open`, where the log
    /// ends with the session going on, marked open.
    private mutating func closeSession(open isOpen: Bool = false) {
        if !notKept.isEmpty, let n = night {
            for i in sessionFirstEvent..<n.events.count {
                if let why = notKept[n.events[i].id] { night!.events[i].clipNotKept = why }
            }
        }
        for var e in open.values.sorted(by: { $0.onset < $1.onset }) {
            e.offset = max(e.onset, offset + sessionSeconds)
            e.truncated = !isOpen
            e.open = isOpen
            e.clipNotKept = notKept[e.id]
            night?.events.append(e)
        }
        open.removeAll()
        notKept.removeAll()
        if let n = night { night?.span = max(n.span, offset + sessionSeconds, n.events.map(\.offset).max() ?? 0) }
        sessionSeconds = 0
    }

    static let incidents: Set<LogStatus> = [.deviceLost, .captureStalled, .inputSilent, .clipping, .overrun, .logWriteFailed,
                                            .sinkDropped, .profileRejected, .previousSessionUnclean, .badSamples,
                                            .clipSkipped, .nightAudioFailed, .nightAudioDropped, .optionalRefused]
}
