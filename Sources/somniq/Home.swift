import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqCore
import SomniqIO

/// `--home-rules`: this home's memory (`somniq learn --home`).
struct HomeOptions: ParsableArguments {
    @Option(name: .customLong("home-rules"), help: ArgumentHelp("This home's memory (somniq learn --home writes one): sounds like those marked \"not this\" are held back.", valueName: "file"),
            completion: .file())
    var file: String?

    func load() throws -> HomeMemory? {
        guard let file else { return nil }
        do { return try HomeMemoryFile.read(path: file) } catch { throw fail("\(error)", Exit.dataError) }
    }
}

struct Learn: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Learn this home's memory from the events marked right or wrong (somniq label).",
        discussion: """
        For every labelled event, the learned rules' inputs of the windows that carried it \
        (somniq rules inputs), taken from the replayed recording, or from the event's clip \
        for a live event, are remembered as "not this CLASS" or "right". A later event whose \
        windows from onset to confirmation are within the memory's radius of a "not" memory \
        of its class, and within its ratio of the distance to the nearest "right" one, is \
        logged with its alert held back ("suppressed": "home"). Radius and ratio are chosen \
        together by leave-one-night-out on the labels (with one night's labels, each \
        replayed recording or hour is left out in turn): the pair that holds back the most \
        held-out false alerts while holding back no held-out confirmed event. The \
        smoke alarm is never held back; glass, scream and gasp not when their score exceeded \
        the profile's on by more than 0.2. replay, eval, compare and run take the file with \
        --home-rules (the daemon reads \
        home-memory.txt beside its log). An event whose audio is gone (its clip deleted, \
        its recording moved) keeps the windows the memory at the output path holds of it, \
        when that memory was made for the same inputs. See docs/home.md.
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

    func validate() throws {
        if !home { throw ValidationError("say what to learn: --home (this home's sound memory)") }
    }

    func run() async throws {
        let log = try logOptions.path()
        let p: Profile
        do { p = try ProfileLoader().load(profile) } catch { throw fail("\(error)", Exit.dataError) }
        let path = output ?? HomeMemoryFile.besideLog(log)
        let learner = HomeLearner(logs: rotated + [log], output: path, profile: p, learned: try learned.load())
        let outcome: HomeLearner.Outcome
        do { outcome = try await learner.learn(now: Date()) } catch {
            if case .write = error { throw fail("\(error)", Exit.ioError) }
            throw fail("\(error)", Exit.dataError)
        }
        if let refused = outcome.previousRefused { skippedWarning("the memory it replaces is not kept: \(refused)") }
        for r in outcome.skipped { skippedWarning("\(r.id) (\(r.soundClass.rawValue)): skipped: \(r.why); its log records are damaged") }
        for m in outcome.missing { skippedWarning("\(m.event.id) (\(m.event.soundClass.rawValue)): left out: \(m.why)") }
        print(LogText.escape("\(path): \(outcome.summary)"))
        if let reused = outcome.reusedText { print(reused) }
        print(outcome.radiusText)
    }
}
