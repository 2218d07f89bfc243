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
        home-memory.txt beside its log). See docs/home.md.
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
        let known: LoggedEvents
        do { known = try LoggedEvents(logs: rotated + [log]) } catch { throw fail("\(error)", Exit.dataError) }
        let labels = known.labels.labels
        guard !labels.isEmpty else { throw fail("\(log): no event is labelled (somniq label EVENT-ID --as not|right|CLASS)", Exit.dataError) }
        let gathered: (marked: [HomeMemory.Marked], missing: [HomeSounds.Missing])
        do { gathered = try await HomeSounds.gather(known, profile: p, learned: try learned.load()) } catch let error as AudioFileError {
            throw fail("\(error)", Exit.dataError)
        }
        for m in gathered.missing { skippedWarning("\(m.event.id) (\(m.event.soundClass.rawValue)): left out: \(m.why)") }
        var (memory, choice) = HomeMemory.learn(gathered.marked)
        memory.header = [("learned", WallClock.iso8601(Date())), ("log", PathText.lastComponent(log).replacing(" ", with: "_")),
                         ("labels", "\(gathered.marked.count)"), ("nights", "\(Set(gathered.marked.map(\.night)).count)"),
                         ("distance", "rms-standardised"), ("chosen_by", choice.by),
                         ("held_out_false_alerts", "\(choice.falseAlerts)"), ("removed", "\(choice.removed)"),
                         ("held_out_confirmed", "\(choice.confirmed)")]
        let path = output ?? HomeMemoryFile.besideLog(log)
        do { try HomeMemoryFile.write(memory, to: path) } catch { throw fail("\(error)", Exit.ioError) }
        print(LogText.escape("\(path): \(HomeMemoryFile.summary(memory))"))
        print("radius and ratio by \(choice.by): hold back \(choice.removed) of \(choice.falseAlerts) held-out false alerts; "
              + "none of \(choice.confirmed) held-out confirmed events ("
              + (choice.firstConfirmed.map { "the nearest at \(JSONValue.format((Double($0) * 1000).rounded() / 1000))" }
                  ?? "none was nearer a \"not\" memory at this ratio") + ")")
        if choice.forgotten > 0 {
            print("the \(choice.forgotten) oldest marked events are forgotten: the memory keeps the newest \(HomeMemory.maxWindows) windows")
        }
        if choice.radius == 0 { print("the memory holds back nothing yet: no false alert was like another one marked, or every one was as near a confirmed event") }
    }
}
