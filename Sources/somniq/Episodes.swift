import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqConfig
import SomniqCore
import SomniqReports
import SomniqSinks
import SomniqSupport

struct EpisodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "episode",
        abstract: "Note what the sleeper reports of a night: severity, symptoms, tags, a note.",
        discussion: """
        An episode goes into the event log beside what was heard, as an `episode` record \
        (written and fsync'd as the daemon writes its records: the log may be appended to \
        while the daemon runs). The night's report shows it, `somniq history` gains a column \
        per symptom and tag, and `somniq history --factors` sets the nights with a tag or \
        symptom beside those without. Symptoms: snoring, gasping, restless, insomnia, \
        nightmares, sleepwalking, daytime-sleepiness, morning-headache, dry-mouth, \
        chest-pain. Tags are words of your own (alcohol, late-meal, side-sleeping): \
        letters of any script (with their accents), digits and -, at most 32.
        """,
        subcommands: [Add.self, List.self, Remove.self])

    /// The log named, or the configuration's (`/etc/somniq/config.json`, else the default),
    /// and the configuration's time zone: an episode's `--at 03:12` and the night it falls in
    /// are that zone's, as `history`, `report` and the daemon read them (`ZoneOption`).
    struct LogOptions: ParsableArguments {
        @Option(help: "The event log (default: the configuration's \"log\").", completion: .file())
        var log: String?

        @Option(help: "Configuration file whose \"log\" is meant.")
        var config: String?

        func path() throws -> String {
            if let log {
                try ZoneOption.use(config: config)
                return log
            }
            let inForce: DaemonConfig
            do { inForce = try DaemonConfig.inForce(path: config).config } catch { throw fail("\(error)", Exit.dataError) }
            if let zone = inForce.timeZone { TimeZoneName.use(zone) }
            return inForce.log
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an episode to a night.")

        @OptionGroup var logOptions: LogOptions

        @Option(help: "The night, by its evening's date (default: the night now, or the one just ended before noon).")
        var night: String?

        @Option(help: "mild, moderate or severe.")
        var severity: String

        @Option(name: .customLong("symptom"), help: "A symptom (repeat for more).")
        var symptoms: [String] = []

        @Option(name: .customLong("tag"), help: "A tag: a factor or a remedy (repeat for more).")
        var tags: [String] = []

        @Option(help: "A note, one line.")
        var note: String?

        @Option(help: "When it happened: 03:12, or 2026-11-23T03:12.")
        var at: String?

        @Option(help: "How long it lasted, in minutes.")
        var duration: Double?

        func run() throws {
            let log = try logOptions.path()
            let now = Date().timeIntervalSince1970   // a command's record is stamped when it runs
            let key = night ?? WallClock.night(now)
            let episode: Episode
            switch Episode.make(night: key, severity: severity, symptoms: symptoms, tags: tags, note: note, at: at,
                                duration: duration, now: now) {
            case let .success(e): episode = e
            case let .failure(e): throw fail("\(e)", Exit.usage)
            }
            do {
                try EventLogWriter(path: log).append(episode.record)
            } catch { throw fail("\(error)", Exit.ioError) }
            print(LogText.escape("episode \(episode.id) added to the night of \(key): \(Episodes.summary(episode))"))
            // Said after the record is safe: a night the microphone did not hear is kept too.
            let index = LogIndex(log: log, indexPath: LogIndex.besideLog(log))
            if (try? index.refresh()) != nil, !index.rows.contains(where: { $0.night == key && $0.heardSeconds > 0 }) {
                skippedWarning("no sound was recorded on the night of \(key) in \(log): the episode is kept, with nothing heard to set it beside")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the episodes, oldest night first.")

        @OptionGroup var logOptions: LogOptions

        @Option(help: "Only this night's.")
        var night: String?

        func run() throws {
            if let night, let problem = History.dateProblem(night) { throw fail("night \(night): \(problem)", Exit.usage) }
            let log = try logOptions.path()
            let book: EpisodeBook
            do { book = try Episodes.read(log) } catch { throw fail("\(error)", Exit.dataError) }
            let shown = book.episodes.filter { night == nil || $0.night == night }.sorted { ($0.night, $0.recorded) < ($1.night, $1.recorded) }
            guard !shown.isEmpty else {
                print(night.map { "no episode on the night of \(LogText.escape($0))" } ?? "no episode in \(LogText.escape(log))")
                return
            }
            for e in shown { print(LogText.escape("\(e.id)  \(e.night)  \(Episodes.summary(e))")) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Take an episode back (the log keeps both records).")

        @OptionGroup var logOptions: LogOptions

        @Argument(help: "The episode's id (see `somniq episode list`).")
        var id: String

        func run() throws {
            let log = try logOptions.path()
            let book: EpisodeBook
            do { book = try Episodes.read(log) } catch { throw fail("\(error)", Exit.dataError) }
            guard let e = book.episodes.first(where: { $0.id == id }) else {
                throw fail("no episode \(id) in \(log) (see somniq episode list)", Exit.dataError)
            }
            do {
                try EventLogWriter(path: log).append(Episode.removal(id, time: Date().timeIntervalSince1970))
            } catch { throw fail("\(error)", Exit.ioError) }
            print(LogText.escape("episode \(id) of the night of \(e.night) removed"))
        }
    }
}

enum Episodes {
    static func read(_ log: String) throws -> EpisodeBook {
        let reader = try LogReader(path: log)
        var book = EpisodeBook()
        while let r = reader.next() { book.add(r) }
        try reader.finish()
        return book
    }

    /// `moderate; gasping for air at 03:12 for 5 min; tags alcohol, late-meal; "woke up twice"`
    static func summary(_ e: Episode) -> String {
        var parts = [e.severity.rawValue]
        var what = e.symptoms.map(\.words).joined(separator: ", ")
        if let at = e.at { what += (what.isEmpty ? "" : " ") + "at " + WallClock.localTime(at) }
        if let d = e.durationMinutes { what += (what.isEmpty ? "" : " ") + "for \(JSONValue.format(d)) min" }
        if !what.isEmpty { parts.append(what) }
        if !e.tags.isEmpty { parts.append("tags " + e.tags.joined(separator: ", ")) }
        if let note = e.note { parts.append("\"\(note)\"") }
        return parts.joined(separator: "; ")
    }
}
