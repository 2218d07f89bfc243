import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqConfig
import SomniqCore
import SomniqSupport

/// `--decide-by` and `--learned-rules`: which rule decides each class, hand or learned.
struct RulesOptions: ParsableArguments {
    @Option(name: .customLong("decide-by"), help: ArgumentHelp("Which rules decide the classes a learned rule may decide: `shipped` (each class by the rule shipped for it), `hand` or `learned` (every class by one kind).", valueName: "rules"))
    var use: LearnedRules.Use = .shipped

    @Option(name: .customLong("learned-rules"), help: ArgumentHelp("A file of learned rules to use instead of the built-in ones (tools/learn/train.py writes one), or `none`: the hand rules alone.", valueName: "file"),
            completion: .file())
    var file: String?

    /// The learned rules, put to `use` (the option's unless given).
    func load(_ use: LearnedRules.Use? = nil) throws -> LearnedRules? {
        let use = use ?? self.use
        if file == "none" { return nil }
        if let file {
            do { return try LearnedRulesFile.read(path: file, use: use) } catch { throw fail("\(error)", Exit.dataError) }
        }
        guard var builtin = LearnedRules.builtin else { return nil }
        builtin.use = use
        return builtin
    }
}

extension LearnedRules.Use: ExpressibleByArgument {}

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Show the learned rules: which classes they decide and what they look at.",
        subcommands: [List.self, Show.self, Inputs.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the classes, which rule decides each and what the trainer measured.")
        @OptionGroup var options: RulesOptions

        @OptionGroup var home: HomeOptions

        func run() throws {
            if let memory = try home.load(), let file = home.file {
                print(LogText.escape("home memory in use: \(file): \(HomeMemoryFile.summary(memory))"))
                print("(events like those marked \"not this\" are logged with their alert held back; never a smoke alarm; glass, scream, gasp not far over the profile's on)")
                if let fit = try home.loadFit() {
                    print(LogText.escape("home fit in use: \(HomeFitFile.beside(file)): \(HomeFitFile.said(fit))"))
                }
                print()
            }
            guard let learned = try options.load() else {
                print("no learned rules are built in: every class is decided by its hand rule")
                return
            }
            // What the trainer measured, per class: segment F1 by the hand rule and by the learned
            // one in the cross-validation and on check/, and the seconds of quiet/ and stress/
            // each marked as the class.
            let columns = [("net", "net splits"), ("cv_hand", "cv hand"), ("cv_learned", "learned"), ("check_hand", "check hand"),
                           ("check_learned", "learned"), ("background_fp_hand", "bg s hand"), ("background_fp_learned", "learned")]
            let pad = EvalReport.pad, trimmed = EvalReport.trimmed
            print(trimmed(pad("class", 14) + pad("decided by", 12) + pad("trees", 7) + columns.map { pad($0.1, 12) }.joined()))
            for c in LearnedRules.candidates {
                guard let rule = learned.rule(for: c) else { print(pad(c.rawValue, 14) + "hand (no learned rule)"); continue }
                var figure = Dictionary(rule.figures.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
                if learned.network != nil { figure["net"] = "\(rule.splits(onInputsStartingWith: "n_"))/\(rule.splits())" }
                print(trimmed(pad(c.rawValue, 14) + pad(learned.decides(c) ? "learned" : "hand", 12) + pad("\(rule.trees)", 7)
                      + columns.map { pad(LogText.escape(figure[$0.0] ?? "-"), 12) }.joined()))
            }
            if let net = learned.network {
                print()
                print("net splits: of each class's splits, how many are on the spectrogram network's outputs (n_CLASS@K); the network has "
                      + "\(net.parameters) parameters, \(net.multiplyAdds) multiply-adds per heard window")
            }
            if !learned.header.isEmpty { print() }
            for (key, value) in learned.header { print("\(LogText.escape(key)): \(LogText.escape(value))") }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print a class's learned trees, with the names of the inputs they split on.")
        @Argument(help: "The class.")
        var soundClass: String
        @OptionGroup var options: RulesOptions
        @OptionGroup var home: HomeOptions

        func run() throws {
            guard let c = SoundClass(rawValue: soundClass) else {
                throw fail("\(soundClass): no such class; the classes: \(SoundClass.allCases.map(\.rawValue).joined(separator: ", "))", Exit.usage)
            }
            // This home's fit shifts the class's score, whichever rule made it.
            if let fit = try home.loadFit(), let file = home.file {
                let path = LogText.escape(HomeFitFile.beside(file))
                if let f = fit.use(c) {
                    let layer = f.layer.flatMap { l in
                        l.used ? ", raised where the scores of \(l.inputs.map(\.rawValue).joined(separator: ", ")) say it (weights "
                            + l.weights.dropFirst().map { JSONValue.format($0) }.joined(separator: ", ") + ", intercept \(JSONValue.format(l.weights[0])))" : nil
                    } ?? ""
                    print("\(c.rawValue): decided with this home's fit (\(path)): its score's log-odds shifted by \(f.used && f.shift > 0 ? "+" : "")\(JSONValue.format(f.used ? f.shift : 0))\(layer), "
                        + "learned\(fit.learned.flatMap(WallClock.parse).map { " " + WallClock.localDate($0) } ?? "") from \(f.marks) marks; "
                        + "held-out errors \(JSONValue.format(f.fitErrors)) where the shipped rules made \(JSONValue.format(f.shippedErrors))")
                } else {
                    print("\(c.rawValue): this home's fit (\(path)) leaves it to the shipped rules")
                }
            }
            guard let learned = try options.load(), let rule = learned.rule(for: c) else {
                throw fail("\(c.rawValue) has no learned rule: its hand rule decides it (Sources/SomniqCore/Classify/Rules/)", Exit.dataError)
            }
            print("\(c.rawValue): \(rule.ships ? "the learned rule decides it" : "the hand rule decides it (the learned one was no better)")")
            print("a window whose trees sum to \(rule.cutoff) scores \(LearnedRules.cutoffScore) (the balanced profile's `on`), more above it;")
            print("it must still stand out of the floor, a short sound out of the room, and be no familiar sound")
            print(rule.figures.map { LogText.escape("\($0.key)=\($0.value)") }.joined(separator: " "))
            print("inputs: NAME@K is window K half-seconds from the decided one; h_CLASS the hand arbitration's score (`somniq rules inputs`)")
            if learned.network != nil {
                print("n_CLASS@K is the spectrogram network's output for CLASS; \(rule.splits(onInputsStartingWith: "n_")) of the \(rule.splits()) splits are on one")
            }
            print()
            print(rule.describe(), terminator: "")
        }
    }

    struct Inputs: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "inputs", abstract: "List the learned rules' inputs, one per line.")
        func run() { for name in LearnedInputs.names { print(name) } }
    }
}
