import FoundationEssentials
import Glibc
import SomniqConfig
import SomniqCore
import SomniqLog
import SomniqSupport

/// What the sleeper reports of a night, which the microphone cannot know: how bad it was,
/// symptoms from a fixed list, free tags (factors such as `alcohol`, remedies such as
/// `side-sleeping`), a note, when it happened and for how long. Kept in the event log as an
/// `episode` record; removing one appends an `episode_removed` record (the log is only
/// ever appended to).
public struct Episode: Sendable, Equatable {
    public enum Severity: String, Sendable, CaseIterable { case mild, moderate, severe }

    /// The symptoms SomniQ's sleep episodes name.
    public enum Symptom: String, Sendable, CaseIterable, Comparable {
        case snoring, gasping, restless, insomnia, nightmares, sleepwalking
        case daytimeSleepiness = "daytime-sleepiness", morningHeadache = "morning-headache"
        case dryMouth = "dry-mouth", chestPain = "chest-pain"

        public var words: String {
            switch self {
            case .snoring: "snoring"
            case .gasping: "gasping for air"
            case .restless: "restless sleep"
            case .insomnia: "insomnia"
            case .nightmares: "nightmares"
            case .sleepwalking: "sleepwalking"
            case .daytimeSleepiness: "excessive daytime sleepiness"
            case .morningHeadache: "morning headache"
            case .dryMouth: "dry mouth"
            case .chestPain: "chest pain"
            }
        }

        /// The sounds somniq hears that go with it, to set beside it on the timeline.
        public var heard: [SoundClass] {
            switch self {
            case .snoring: [.snoring]
            case .gasping: [.gasp, .breathingPause]
            case .restless: [.breathing, .speech, .door]
            case .nightmares: [.scream, .speech]
            case .sleepwalking: [.door]
            default: []
            }
        }

        public static func < (a: Symptom, b: Symptom) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    public var id: String
    /// The evening's date of the night (`2026-11-22`).
    public var night: String
    public var severity: Severity
    public var symptoms: [Symptom]
    public var tags: [String]
    public var note: String?
    /// Unix time it happened, when said.
    public var at: Double?
    public var durationMinutes: Double?
    /// Unix time it was written down.
    public var recorded: Double

    public init(id: String, night: String, severity: Severity, symptoms: [Symptom] = [], tags: [String] = [],
                note: String? = nil, at: Double? = nil, durationMinutes: Double? = nil, recorded: Double) {
        self.id = id
        self.night = night
        self.severity = severity
        self.symptoms = symptoms
        self.tags = tags
        self.note = note
        self.at = at
        self.durationMinutes = durationMinutes
        self.recorded = recorded
    }

    // MARK: what may be said

    public static let maxTag = 32, maxNote = 500
    /// The most UTF-8 bytes of a tag and of a note. The caps above count characters as a
    /// person reads them (grapheme clusters), and one of those may hold any number of
    /// combining marks: a letter and 60,000 accents is one character of 120 KB. Bytes are
    /// what a line of the log, a CSV header and a page hold, so they are capped too, at 8
    /// a character: room for any script's letters with an accent or two, and for an emoji
    /// with a skin tone or a flag, written as many times as the characters allow.
    public static let maxTagBytes = 8 * maxTag, maxNoteBytes = 8 * maxNote
    /// A night lasts at most from noon to noon.
    public static let durationRange = 0.0...(24 * 60.0)

    /// A tag is a word: letters of any script with their marks (`été` written as `e` and a
    /// combining acute, `i̇stanbul` as İstanbul lowercases), digits and `-`, 1 to 32 of
    /// them (it names a column of the history, a CSV header and a JSON key; no spaces, no
    /// punctuation, no markup, no control characters or line breaks). A mark must follow a
    /// letter: alone in front it would sit on whatever is printed before the tag.
    public static func tagProblem(_ tag: String) -> String? {
        let scalars = tag.unicodeScalars
        let ok = !tag.isEmpty && tag.count <= maxTag && tag.utf8.count <= maxTagBytes
            && !(scalars.first.map(isMark) ?? false)
            && scalars.allSatisfy { $0 == "-" || isLetter($0) || isMark($0) || $0.properties.numericType == .decimal }
        return ok ? nil : "\"\(LogText.escape(tag))\" is not a tag: letters, digits and - only, at most \(maxTag)"
    }

    private static func isLetter(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    private static func isMark(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// A note is one line of at most 500 characters and 4,000 bytes: no control characters.
    public static func noteProblem(_ note: String) -> String? {
        if note.count > maxNote { return "a note is at most \(maxNote) characters (this one has \(note.count))" }
        if note.utf8.count > maxNoteBytes {
            return "a note is at most \(maxNoteBytes) bytes of UTF-8 (this one has \(note.utf8.count): combining accents and marks count there, not as characters)"
        }
        if let problem = ConfigText.problem(note) { return "the note \(problem)" }
        return nil
    }

    public static func symptom(_ name: String) -> Result<Symptom, EpisodeError> {
        if let s = Symptom(rawValue: name.lowercased()) { return .success(s) }
        return .failure(EpisodeError(description: "\"\(LogText.escape(name))\" is not a symptom; one of: \(Symptom.allCases.map(\.rawValue).joined(separator: ", "))"))
    }

    /// `03:12` (the night's clock: before noon is the morning after its evening) or a full
    /// `2026-11-23T03:12`, as unix time, which must fall within the night.
    public static func time(_ text: String, night: String) -> Result<Double, EpisodeError> {
        let full: Double?
        if text.contains("T") || text.contains(" ") {
            full = WallClock.parse(text)
        } else {
            let parts = text.split(separator: ":")
            guard let evening = History.day(night), parts.count == 2 || parts.count == 3,
                  let hour = Int(parts[0]), (0...23).contains(hour) else {
                return .failure(EpisodeError(description: "at \(LogText.escape(text)): give a time such as 03:12 or 2026-11-23T03:12"))
            }
            let date = History.date(hour < 12 ? evening + 1 : evening)
            full = WallClock.parse("\(date)T\(text)")
        }
        guard let full else {
            return .failure(EpisodeError(description: "at \(LogText.escape(text)): give a time such as 03:12 or 2026-11-23T03:12"))
        }
        guard WallClock.night(full) == night else {
            return .failure(EpisodeError(description: "at \(LogText.escape(text)) is in the night of \(WallClock.night(full)), not of \(night) (a night runs from noon to noon)"))
        }
        return .success(full)
    }

    /// An episode from what a person typed (the command's options, the page's form),
    /// checked: every message names what is wrong and what would do.
    public static func make(night: String, severity: String, symptoms: [String], tags: [String], note: String?,
                            at: String?, duration: Double?, now: Double) -> Result<Episode, EpisodeError> {
        func failure(_ text: String) -> Result<Episode, EpisodeError> { .failure(EpisodeError(description: text)) }
        if let problem = History.dateProblem(night) { return failure("night \(LogText.escape(night)): \(problem)") }
        guard let level = Severity(rawValue: severity) else {
            return failure("severity \"\(LogText.escape(severity))\": mild, moderate or severe")
        }
        var symptomList: [Symptom] = []
        for name in symptoms {
            switch symptom(name) {
            case let .success(s): if !symptomList.contains(s) { symptomList.append(s) }
            case let .failure(e): return .failure(e)
            }
        }
        var tagList: [String] = []
        for tag in tags {
            // Checked as it is kept: lowercasing can add a character (İ is i and a dot).
            let kept = tag.lowercased()
            if let problem = tagProblem(kept) { return failure(problem.replacing(LogText.escape(kept), with: LogText.escape(tag))) }
            if !tagList.contains(kept) { tagList.append(kept) }
        }
        if let note, let problem = noteProblem(note) { return failure(problem) }
        var when: Double?
        if let at {
            switch time(at, night: night) {
            case let .success(t): when = t
            case let .failure(e): return .failure(e)
            }
        }
        if let duration, !durationRange.contains(duration) {
            return failure("duration \(JSONValue.format(duration)) min: from 0 to 1440 minutes")
        }
        return .success(Episode(id: newID(now: now), night: night, severity: level, symptoms: symptomList, tags: tagList,
                                note: note, at: when, durationMinutes: duration, recorded: now))
    }

    // MARK: the log's record

    public var record: LogRecord {
        .episode(.init(id: id, night: night, severity: severity.rawValue, symptoms: symptoms.map(\.rawValue), tags: tags, note: note,
                       at: at.map { WallClock.iso8601(Date(timeIntervalSince1970: $0)) }, durationMinutes: durationMinutes,
                       time: WallClock.iso8601(Date(timeIntervalSince1970: recorded))))
    }

    public static func removal(_ id: String, time: Double) -> LogRecord {
        .episodeRemoved(.init(id: id, time: WallClock.iso8601(Date(timeIntervalSince1970: time))))
    }

    /// An `episode` record as written, or nil when anything in it is not what `somniq
    /// episode add` would write (a hand edit, a damaged line): it is then skipped and counted.
    public init?(record r: LogRecord.Episode) {
        guard let id = r.id, !id.isEmpty, id.count <= 64, ConfigText.problem(id) == nil,
              let night = r.night, History.isDate(night), let severity = r.severity.flatMap(Severity.init(rawValue:)),
              let symptoms = r.symptoms, let t = r.tags, let recorded = r.time.flatMap(WallClock.parse) else { return nil }
        let s = symptoms.compactMap(Symptom.init(rawValue:))
        guard s.count == symptoms.count, t.allSatisfy({ Self.tagProblem($0) == nil }) else { return nil }
        let note = r.note
        if let note, Self.noteProblem(note) != nil { return nil }
        var at: Double?
        if let text = r.at {
            guard let t = WallClock.parse(text), WallClock.night(t) == night else { return nil }
            at = t
        }
        let duration = r.durationMinutes
        if let duration, !Self.durationRange.contains(duration) { return nil }
        self.init(id: id, night: night, severity: severity, symptoms: s, tags: t, note: note, at: at,
                  durationMinutes: duration, recorded: recorded)
    }

    /// A new id: the time it was written and 4 random bytes, `ep-1795412345-a1b2c3d4`.
    public static func newID(now: Double) -> String {
        String(cFormat: "ep-%d-%08x", Int(now), Int(UInt32.random(in: .min ... .max)))
    }
}

public struct EpisodeError: Error, CustomStringConvertible {
    public var description: String
}

/// The episodes of a log: every `episode` record, less those an `episode_removed` took
/// back, in the order written. Episode records that do not read as written are counted.
public struct EpisodeBook: Sendable {
    private var added: [Episode] = []
    private var removed: Set<String> = []
    public private(set) var unreadable = 0

    public init() {}

    /// The episodes not taken back, in the order written: a removal counts wherever it is
    /// (several logs may be read in any order).
    public var episodes: [Episode] { added.filter { !removed.contains($0.id) } }

    public mutating func add(_ r: LogRecord) {
        switch r {
        case let .episode(record):
            guard let e = Episode(record: record) else { unreadable += 1; return }
            added.removeAll { $0.id == e.id }
            added.append(e)
        case let .episodeRemoved(record):
            guard let id = record.id else { unreadable += 1; return }
            removed.insert(id)
        default:
            break
        }
    }

    /// A line of the log (every record that is not an episode's is passed over).
    public mutating func add(_ line: LogLine) {
        if case let .success(r) = line { add(r) }
    }

    public func of(_ night: String) -> [Episode] { episodes.filter { $0.night == night } }
}

/// An episode set beside the night: in words, and what somniq heard when it happened.
public struct ReportedEpisode: Sendable {
    public var episode: Episode
    /// Seconds into the night it happened, when it says when.
    public var time: Double?
    /// The sound heard nearest to then (within `window`), preferring those that go with
    /// its symptoms.
    public var heard: Night.Event?

    /// Five minutes either side: a person woken at night says "about 3", not "03:11:58".
    public static let window = 300.0

    public init(_ e: Episode, in night: Night) {
        episode = e
        guard let at = e.at, let start = night.start else { return }
        let t = at - start
        time = t
        let near = night.events.filter { abs($0.onset - t) <= Self.window }
        let wanted = Set(e.symptoms.flatMap(\.heard))
        let preferred = near.filter { wanted.contains($0.soundClass) }
        heard = (preferred.isEmpty ? near : preferred).min { abs($0.onset - t) < abs($1.onset - t) }
    }

    /// `moderate: gasping for air at 03:12 for 5 min — somniq heard a gasp at 03:11:58`
    public func sentence(_ night: Night) -> String {
        let e = episode
        var what = e.symptoms.map(\.words).joined(separator: ", ")
        if what.isEmpty { what = "a \(e.severity.rawValue) night" }
        var s = "\(e.severity.rawValue): \(what)"
        if let time { s += " at \(night.clock(time))" }
        if let d = e.durationMinutes { s += " for \(JSONValue.format(d)) min" }
        if time != nil {
            if let h = heard {
                s += " — somniq heard \(EventWords.one(h.soundClass)) at \(night.clock(h.onset, seconds: true))"
            } else {
                s += " — somniq heard nothing within 5 minutes of it"
            }
        }
        return s
    }
}
