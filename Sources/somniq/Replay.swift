import ArgumentParser
import FoundationEssentials
import Glibc
import Logging
import SomniqAudio
import SomniqConfig
import SomniqCore
import SomniqDaemon
import SomniqLog
import SomniqReports
import SomniqSession
import SomniqSinks
import SomniqSupport

struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay audio files through the detection pipeline, faster than real time.",
        discussion: """
        Any file libsndfile reads (WAV, FLAC, MP3, Ogg Vorbis, Opus and others), at any rate and channel count, is \
        downmixed to mono and resampled to 16 kHz, then analysed exactly as live audio is.

        Formats: jsonl (the event log, one record per line), tsv (onset, offset, class: \
        the DCASE / sed_eval label format; with several files a leading file column), \
        table (for people).

        With --config, the configuration's sinks (MQTT, webhook, exec) are told of the \
        replayed alerts as they would be live: to try a notification setup on a recording. \
        At the end of each file, notifications not yet delivered get up to 16 s more (a \
        failed one is retried at once, then after 1, 2, 4 and 8 s); what is still \
        undelivered is logged as a sink_dropped record and summed up on standard error \
        ("sink NAME: N of M notifications not delivered: ERROR").

        With --threads 2 (the default where the machine has two cores), each file is decoded \
        and resampled on a thread of its own, which also analyses windows ahead of the alarm \
        detector and the classifier when it has time; the output is the same as with --threads 1.

        Exits 75 (EX_TEMPFAIL) when the replay is whole but some notifications were not \
        delivered.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl, tsv, table
    }

    /// How long the sinks get, at the end of each file, to deliver what they still hold:
    /// a dead endpoint is retried at once and then after 1, 2, 4 and 8 s, the last retry at
    /// 15 s with a second for it to end (a replay is over long before the live backoff, up
    /// to 60 s, would have run its course).
    static let drain = Duration.seconds(16)

    @Argument(help: "Audio files to replay.", completion: .file())
    var files: [String]

    @Option(help: "Profile name or path to a profile JSON file.", completion: .profiles())
    var profile = "balanced"

    @Option(help: "Output format: jsonl, tsv or table.")
    var format = Format.table

    @Option(help: "Write to this file instead of standard output.")
    var output: String?

    @Option(help: "Send alerts to the sinks of this configuration file (its room, sinks, silence_s and clipping_s; not its device or log).")
    var config: String?

    @Option(help: ArgumentHelp("Also write the night's report (HTML) to this file.", valueName: "night.html"))
    var report: String?

    @Option(help: ArgumentHelp("Keep a FLAC clip of each alerted event (high or critical, as the daemon would; with --config, its clips settings) in this directory.", valueName: "dir"), completion: .directory)
    var clips: String?

    @Option(help: ArgumentHelp("When the recording began (2026-11-22T23:10, local time): records get wall-clock times and the recording lands on its night in reports and history.", valueName: "time"))
    var start: String?

    @Option(help: "1: decode and analyse on one thread. 2: decode and resample on a thread of their own.")
    var threads = Replayer.defaultThreads

    @Option(name: .customLong("profile-dir"), help: ArgumentHelp("Directory searched for named profiles.", visibility: .hidden))
    var profileDirectory = "/etc/somniq/profiles"

    @OptionGroup var learned: RulesOptions

    @OptionGroup var home: HomeOptions

    func run() async throws {
        let profile: Profile
        do { profile = try ProfileLoader(directory: profileDirectory).load(self.profile) } catch {
            throw fail("\(error)", Exit.dataError)
        }
        var sinks: [RecordSink]
        let replaced: ReplacedFile?
        do {
            let w = try writer()
            sinks = [w.sink]
            replaced = w.replaced
        } catch { throw fail("\(error)", Exit.ioError) }
        var hub: SinkHub?
        var watch = InputWatch.Limits()
        var clipPolicy = ClipPolicy()
        if let config {
            let settings: DaemonConfig
            do { settings = try DaemonConfig.read(path: config) } catch { throw fail("\(error)", Exit.dataError) }
            LoggingSystem.bootstrap { _ in JournalLogHandler() }
            if let zone = settings.timeZone { TimeZoneName.use(zone) }
            let h = SinkHub(configs: settings.sinks, room: settings.room, profile: profile, version: Release.version,
                            logger: Logger(label: "somniq"), page: settings.http)
            // A recording's levels are not the room's now: only its alerts go out.
            h.forwardsLevels = false
            sinks.append(h)
            hub = h
            watch = settings.watchLimits
            clipPolicy = settings.clips.policy
        }
        // On an error, the sinks get their last notifications out (up to 10 s) before the
        // process ends; a whole replay has drained them already (shutdown is then at once).
        defer { hub?.shutdown(within: .seconds(10)) }
        let recorder = NightRecorder()
        if report != nil { sinks.append(recorder) }
        let replayer = Replayer(profile: profile, watch: watch)
        replayer.threads = threads
        replayer.factory.learned = try learned.load()
        replayer.factory.home = try home.load()
        replayer.factory.fit = try home.loadFit()
        replayer.start = startTime
        if let clips { replayer.factory.clips = (clipPolicy, clips) }
        // Appended to a log, as the daemon's: past max_mb, the clips of its labelled events
        // that the home memory already remembers go first.
        if clips != nil, let output, format == .jsonl {
            let remembered = RememberedClips(log: output, memory: home.file)
            replayer.factory.clipsGoFirst = { remembered.names() }
        }
        if let hub {
            replayer.beforeEnd = { session in
                hub.drain(within: Self.drain)
                for (name, dropped) in hub.newDrops() {
                    try session.status(.sinkDropped, details: SinkHub.droppedDetails(sink: name, dropped: dropped))
                }
            }
        }
        let showProgress = isatty(STDERR_FILENO) == 1
        for file in files {
            replayer.warning = { StandardError.write("somniq: warning: \(LogText.escape(file)): \($0)\n") }
            do {
                try await replayer.replay(path: file, to: sinks,
                                    progress: showProgress ? { Progress.show(file: file, fraction: $0) } : nil)
                if showProgress { Progress.clear() }
            } catch let error as AudioFileError {
                if showProgress { Progress.clear() }
                throw fail("\(error)", Exit.dataError)
            } catch let error as LogWriteError {
                throw fail("\(error)", Exit.ioError)
            } catch let error as StoreFailure {
                throw fail("\(error)", Exit.ioError)
            }
        }
        do { try replaced?.commit() } catch { throw fail("\(error)", Exit.ioError) }
        if let report, let night = recorder.nights.last {
            do { try NightReports.write(HTMLReport.render(night, version: Release.version), to: report) } catch {
                throw fail("\(error)", Exit.ioError)
            }
        }
        if let hub { try summarise(hub) }
    }

    /// Stops the sinks and says, for each that did not deliver everything it was given,
    /// how much was lost and why; exit 75 if any did.
    private func summarise(_ hub: SinkHub) throws {
        hub.shutdown(within: .seconds(10))
        var lost = false
        for (name, counts) in hub.counts where counts.dropped > 0 {
            lost = true
            let why = counts.lastError.map { ": \($0)" } ?? " (queue full)"
            _ = fail("sink \(name): \(counts.dropped) of \(counts.offered) notifications not delivered\(why)", Exit.undelivered)
        }
        if lost { throw Exit.undelivered }
    }

    func validate() throws {
        guard threads == 1 || threads == 2 else { throw ValidationError("--threads must be 1 or 2") }
        if let start, WallClock.parse(start) == nil {
            throw ValidationError("--start: \"\(LogText.escape(start))\" is not a time like 2026-11-22T23:10")
        }
        if start != nil, files.count > 1 { throw ValidationError("--start names when one recording began: give one file") }
        if report != nil, files.count > 1 { throw ValidationError("--report draws one night: give one file") }
    }

    private var startTime: Double? { start.flatMap(WallClock.parse) }

    /// The writer for `--format`, on `--output` or standard output. The event log is
    /// appended to; TSV and the table replace `--output` only once every file has been
    /// replayed (`ReplacedFile`), so a failed replay leaves an earlier output whole.
    private func writer() throws -> (sink: RecordSink, replaced: ReplacedFile?) {
        let log: EventLogWriter
        var replaced: ReplacedFile?
        if let output, format == .jsonl {
            try OutputPath.check(output)
            log = try EventLogWriter(path: output)
        } else if let output {
            replaced = try ReplacedFile(path: output)
            log = replaced!.writer
        } else {
            log = EventLogWriter(descriptor: STDOUT_FILENO, name: "standard output")
        }
        let sink: RecordSink = switch format {
        case .jsonl: JSONLWriter(log)
        case .tsv: TSVWriter(log, namesFile: files.count > 1)
        case .table: TableWriter(log)
        }
        return (sink, replaced)
    }
}

/// A one-line progress indicator on standard error, for long replays on a terminal.
enum Progress {
    static func show(file: String, fraction: Double) {
        let name = PathText.lastComponent(file)
        let text = "\rreplaying \(name): \(Int((fraction * 100).rounded(.down)))%"
        StandardError.write(text)
    }
    static func clear() {
        StandardError.write("\r\u{1B}[K")
    }
}
