import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqConfig
import SomniqCore
import SomniqDaemon
import SomniqReports
import SomniqSession
import SomniqSupport

/// `--home-rules`: this home's memory (`somniq learn --home`).
struct HomeOptions: ParsableArguments {
    @Option(name: .customLong("home-rules"), help: ArgumentHelp("This home's memory (somniq learn --home writes one): sounds like those marked \"not this\" are held back, those marked as another class logged as it too.", valueName: "file"),
            completion: .file())
    var file: String?

    @Flag(name: .customLong("no-home-fit"), help: "Use this home's memory without its fit (home-fit.txt beside it): the shipped scores decide every class.")
    var noFit = false

    func load() throws -> HomeMemory? {
        guard let file else { return nil }
        do { return try HomeMemoryFile.read(path: file) } catch { throw fail("\(error)", Exit.dataError) }
    }

    /// This home's fit, beside the memory `--home-rules` names (`HomeFitFile.beside`), when
    /// there is one and --no-home-fit is not given.
    func loadFit() throws -> HomeFit? {
        guard let file, !noFit else { return nil }
        do { return try HomeFitFile.readBeside(file) } catch { throw fail("\(error)", Exit.dataError) }
    }
}

struct Learn: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "Learn this home's memory from the events marked right or wrong (somniq label).",
        discussion: """
        For every labelled event, the learned rules' inputs of the windows that carried it \
        (somniq rules inputs), taken from the replayed recording, or from the event's clip \
        for a live event, are remembered as "not this CLASS" or "right". A later event whose \
        windows from onset to confirmation are within the memory's radius of a "not" memory \
        of its class, and within its ratio of the distance to the nearest "right" one, is \
        logged with its alert held back ("suppressed": "home"); when the sound marked was \
        said to be another class (--as CLASS), an event within 1.25 of it is logged as that \
        class too, under its rule and tier (one farther is held back only; a critical \
        class's tier only where its own rule heard the sound, else the tier of the class \
        heard). Radius and ratio are chosen \
        together by leave-one-night-out on the labels (with one night's labels, each \
        replayed recording or hour is left out in turn): the pair that holds back the most \
        held-out false alerts while holding back no held-out confirmed event. The \
        smoke alarm, glass, a scream, a gasp and a breathing pause are never held back nor \
        re-classified. replay, eval, compare and run take the file with \
        --home-rules (the daemon reads \
        home-memory.txt beside its log). An event whose audio is gone (its clip deleted, \
        its recording moved) keeps the windows the memory at the output path holds of it, \
        when that memory was made for the same inputs. \

        From the same marks it fits this home's fit, written beside the memory \
        (home-fit.txt; for --output NAME.txt, NAME.fit.txt): per class, a shift of the \
        shipped score's log-odds, fitted with an L2 penalty toward the shipped decision, \
        so that the sounds the home marked right, or named in a correction, reach the \
        profile's line, while those marked against the class stay under it. The home's \
        held-out marks choose, class by class, whether the shift is used: only where it \
        makes fewer errors on them than the shipped rules. A shift only ever raises a \
        score (the smoke alarm, glass, a scream, a gasp and a breathing pause included): \
        what was marked not this, the memory holds back. Every command taking \
        --home-rules uses the fit beside the memory (--no-home-fit: not). See docs/home.md.
        """)

    @Flag(help: "Learn the sound memory of this home (the only kind of learning this command does).")
    var home = false

    @OptionGroup var logOptions: EpisodeCommand.LogOptions

    @Option(help: ArgumentHelp("An older, rotated log whose labelled events count too (repeat for more).", valueName: "log"), completion: .file())
    var rotated: [String] = []

    @Option(help: "Write the memory here (default: home-memory.txt beside the log).", completion: .file())
    var output: String?

    @Option(help: "The profile the events were heard with: its min_confidence picks the windows that carried them.", completion: .profiles())
    var profile = "balanced"

    @OptionGroup var learned: RulesOptions

    // The daemon's daily learning runs this command in a child process (`LearningProcess`):
    // with the daemon's profile directory, its wall-clock time, and one line of JSON on
    // standard output for it to read.
    @Option(name: .customLong("profile-dir"), help: ArgumentHelp("Directory searched for named profiles.", visibility: .hidden))
    var profileDirectory = "/etc/somniq/profiles"

    @Option(name: .customLong("learned-at"), help: ArgumentHelp("When the memory says it was learned (ISO 8601).", visibility: .hidden))
    var learnedAt: String?

    @Flag(name: .customLong("report-json"), help: ArgumentHelp("Report on standard output as one line of JSON.", visibility: .hidden))
    var reportJSON = false

    func validate() throws {
        if !home { throw ValidationError("say what to learn: --home (this home's sound memory)") }
        if let learnedAt, WallClock.parse(learnedAt) == nil { throw ValidationError("--learned-at \(learnedAt) is not a time") }
    }

    /// Fails with `message`, said on standard error and, with --report-json, as the report.
    private func refuse(_ message: String, _ code: ExitCode) -> ExitCode {
        if reportJSON { print(JSONValue.object([("error", .string(message))]).compactText) }
        return fail(message, code)
    }

    func run() async throws {
        let log = try logOptions.path()
        let p: Profile
        do { p = try ProfileLoader(directory: profileDirectory).load(profile) } catch { throw refuse("\(error)", Exit.dataError) }
        let path = output ?? HomeMemoryFile.besideLog(log)
        let learner = HomeLearner(logs: rotated + [log], output: path, profile: p, learned: try learned.load())
        let now = learnedAt.flatMap(WallClock.parse).map { Date(timeIntervalSince1970: $0) } ?? Date()
        let outcome: HomeLearner.Outcome
        do { outcome = try await learner.learn(now: now) } catch {
            if case .write = error { throw refuse("\(error)", Exit.ioError) }
            throw refuse("\(error)", Exit.dataError)
        }
        if let refused = outcome.previousRefused { skippedWarning("the memory it replaces is not kept: \(refused)") }
        for r in outcome.skipped { skippedWarning("\(r.id) (\(r.soundClass.rawValue)): skipped: \(r.why); its log records are damaged") }
        for l in outcome.notFound {
            skippedWarning("\(l.id) (\(l.soundClass.rawValue), night of \(l.night)): labelled, but no event of it reads in the log"
                           + " (a damaged line, or a rotated log not given with --rotated)")
        }
        for m in outcome.missing { skippedWarning("\(m.event.id) (\(m.event.soundClass.rawValue)): left out: \(m.why)") }
        if reportJSON {
            let report = LearningProcess.Report(missing: outcome.missing.count, skipped: outcome.skipped.count, notFound: outcome.notFound.count,
                                                reusedText: outcome.reusedText, previousRefused: outcome.previousRefused)
            print(report.json.compactText)
            return
        }
        print(LogText.escape("\(path): \(outcome.summary)"))
        if let reused = outcome.reusedText { print(reused) }
        print(outcome.radiusText)
        print(LogText.escape("\(HomeFitFile.beside(path)): " + HomeFitFile.said(outcome.fit)))
        for f in outcome.fit.classes {
            print(LogText.escape("  \(f.soundClass.rawValue): shift \(f.shift > 0 ? "+" : "")\(JSONValue.format(f.shift)) from \(f.right) marked of it and \(f.against) against it; "
                + "held-out errors \(JSONValue.format(f.fitErrors)) where the shipped rules made \(JSONValue.format(f.shippedErrors)): "
                + (f.used ? "used" : "not used")))
            if let l = f.layer {
                print(LogText.escape("  \(f.soundClass.rawValue): layer over the scores of \(l.inputs.map(\.rawValue).joined(separator: ", ")) (weights "
                    + l.weights.dropFirst().map { JSONValue.format($0) }.joined(separator: ", ") + ", intercept \(JSONValue.format(l.weights[0]))); "
                    + "held-out errors \(JSONValue.format(l.fitErrors)) beside the \(f.used ? "shift" : "shipped rules"): " + (l.used ? "used" : "not used")))
            }
        }
    }
}
