import FoundationEssentials
import SomniqConfig
import SomniqCore
import SomniqReports
import SomniqSupport

/// Learns this home's memory from the labelled events of its logs and writes it: what
/// `somniq learn --home` does, written once so that the daemon's daily learning does the
/// same. Each labelled event's windows are gathered from its audio (`HomeSounds`), the
/// memory is fitted (`HomeMemory.learn`), said how it was made (`meta` lines) and written
/// whole (`HomeMemoryFile.write`).
///
/// What the memory it replaces learned is kept: a labelled event whose audio is gone (its
/// clip deleted by the quota, which deletes such clips first, or its recording moved) is
/// learned from the windows the previous memory at `output` holds of it
/// (`RememberedEvents`), when that memory was made for the same inputs (its `inputs`
/// line; `HomeMemoryFile.read` refuses any other), with its label as it is now. Its opening
/// windows are not told apart in the file, so the radius choice judges it by all of its
/// windows (`HomeMemory.Marked.opening` empty).
///
/// This home's fit (`HomeFit`) is learned from the same marks and written beside the memory
/// (`HomeFitFile.beside`): per class, whether a shift of the shipped score does better on the
/// held-out marks than the shipped decision, judged at the profile's line.
///
/// A labelled event whose records cannot be its own (confirmed before its onset, a time
/// that is negative or beyond a year: a damaged, edited or crafted log) is skipped, named
/// with why (`Outcome.skipped`); the others are learned.
public struct HomeLearner: Sendable {
    /// The logs read, oldest first: rotated ones, then the current one (whose name the
    /// memory's `log` line gives). A label counts wherever it is.
    public var logs: [String]
    /// Where the memory is written.
    public var output: String
    /// The profile the events were heard with: its `min_confidence` picks the windows that
    /// carried them.
    public var profile: Profile
    /// The learned rules whose inputs are remembered (the built-in ones unless told).
    public var learned: LearnedRules?

    public init(logs: [String], output: String, profile: Profile, learned: LearnedRules?) {
        self.logs = logs
        self.output = output
        self.profile = profile
        self.learned = learned
    }

    /// Why no memory was learned: a log that cannot be read, no label, or a memory that
    /// cannot be written (an event whose audio cannot be read is left out, `Outcome.missing`).
    public enum Failure: Error, CustomStringConvertible {
        case log(ReportError)
        case noLabels(log: String)
        case write(HomeMemoryFile.Error)

        public var description: String {
            switch self {
            case let .log(e): "\(e)"
            case let .noLabels(log): "\(log): no event is labelled (somniq label EVENT-ID --as not|right|CLASS)"
            case let .write(e): "\(e)"
            }
        }
    }

    /// What was learned and written.
    public struct Outcome: Sendable {
        public var memory: HomeMemory
        public var choice: HomeMemory.RadiusChoice
        /// This home's fit, written beside the memory (`HomeFitFile.beside`).
        public var fit: HomeFit
        /// Labelled events left out, and why (their audio gone or unreadable, no window heard).
        public var missing: [HomeSounds.Missing]
        /// Labelled events skipped because their records cannot be their own (a damaged,
        /// edited or crafted log: confirmed before their onset, times out of range), and why.
        public var skipped: [LoggedEvents.Refused] = []
        /// Labels that name no event the logs hold (its `event_start` a line that does not
        /// read, or in a rotated log not given).
        public var notFound: [EventLabel] = []
        /// Labelled events whose audio is gone, learned from the previous memory's windows.
        public var reused = 0
        /// Why the previous memory at the output path could not be read, so that nothing
        /// of it was kept; nil when it was read, or there was none.
        public var previousRefused: String?

        /// `12 windows of 9 events (7 not this, 2 right), radius cough 0.41 (ratio 0.62)` (`HomeMemoryFile.summary`).
        public var summary: String { HomeMemoryFile.summary(memory) }

        /// `1 labelled event skipped: its log records are damaged`, or nil when none was.
        public var skippedText: String? {
            skipped.isEmpty ? nil
                : "\(skipped.count) labelled event\(skipped.count == 1 ? "" : "s") skipped: \(skipped.count == 1 ? "its" : "their") log records are damaged"
        }

        /// `3 events from the previous memory, their audio gone`, or nil when none was.
        public var reusedText: String? {
            reused == 0 ? nil : "\(reused) event\(reused == 1 ? "" : "s") from the previous memory, their audio gone"
        }

        /// How the radius and the ratio were chosen, in a sentence or a few (one line a
        /// class), and what the memory will and will not do.
        public var radiusText: String {
            var text = "radius and ratio by \(choice.by), each marked sound's radius short of the first held-out confirmed event of its class near it: hold back "
                + "\(choice.removed) of \(choice.falseAlerts) held-out false alerts; none of \(choice.confirmed) held-out confirmed events"
            for c in choice.classes {
                let name = c.soundClass.rawValue
                let nearest = c.firstConfirmed.map { "the nearest confirmed \(EventWords.name(c.soundClass)) at \(Self.figure($0))"
                    + (c.capped > 0 ? ", \(c.capped) of its \(c.marks) marked sounds kept short of one" : "") }
                    ?? "no confirmed \(EventWords.name(c.soundClass)) nearer a \"not\" memory"
                if c.prior {
                    text += "\n  \(name): the corpus's prior, radius \(Self.figure(c.radius)): " + (c.falseAlerts < HomeMemory.fewestMarks
                        ? "\(c.falseAlerts) marked not this" : "no held-out false alert was like another one marked yet") + " (\(nearest))"
                } else if c.radius > 0 {
                    text += "\n  \(name): radius \(Self.figure(c.radius)), ratio \(Self.figure(c.ratio)): hold back \(c.removed) of its \(c.falseAlerts) "
                        + "held-out false alerts; none of its \(c.confirmed) held-out confirmed (\(nearest))"
                } else {
                    text += "\n  \(name): radius 0, holds back nothing: a held-out confirmed \(EventWords.name(c.soundClass)) lies as near "
                        + "a sound marked not this as can be (\(nearest))"
                }
            }
            if choice.prior {
                text += "\nwhere a class was marked not this once, or no held-out false alert was like another one marked yet, its marks act within the corpus's prior, radius "
                    + "\(Self.figure(HomePrior.radius)) (in the corpus, 37 to 54 % of a sound's next occurrences lie that near it, 4 to 5 % of "
                    + "other sounds of its class); the radius chosen by leaving \(choice.by.contains("night") ? "nights" : "events") out takes over "
                    + "once its sound is marked not this twice and one is like another"
            }
            if choice.forgotten > 0 {
                text += "\nthe \(choice.forgotten) oldest marked events are forgotten: the memory keeps the newest \(HomeMemory.maxWindows) windows"
            }
            return text + "\n" + Self.willDo(memory)
        }

        static func figure(_ x: Float) -> String { JSONValue.format((Double(x) * 1000).rounded() / 1000) }

        /// What `memory` will and will not do, in words.
        static func willDo(_ memory: HomeMemory) -> String {
            let touchable = memory.entries.filter {
                $0.kind == .not && !HomeMemory.neverTaughtAway.contains($0.soundClass) && memory.radius(for: $0.soundClass).radius > 0
            }
            let held = Set(touchable.filter { $0.was == nil }.map(\.soundClass)).sorted()
            func reclassifying(_ heard: Bool) -> [String] {
                Set(touchable.filter { $0.heard == heard }.compactMap { e in e.was.map { "\(EventWords.name(e.soundClass)) as \(EventWords.name($0))" } }).sorted()
            }
            let reclassified = reclassifying(false), heard = reclassifying(true)
            var will: [String] = []
            if !held.isEmpty { will.append("hold back a sound heard as " + held.map(EventWords.name).joined(separator: ", ") + " like one marked not this") }
            let near = " (where it lies within " + figure(HomeMemory.reclassifyRadius) + " of it; farther, it is held back only)"
            if !reclassified.isEmpty { will.append("log a sound like one marked \"it was …\" as what it was: " + reclassified.joined(separator: ", ") + near) }
            if !heard.isEmpty {
                will.append("log a sound like one marked not this as the sound marked right at its very moment: " + heard.joined(separator: ", ") + near)
            }
            let said = will.isEmpty ? "it will hold back nothing yet: no false alert was like another one marked, or every one was as near a confirmed event"
                : "it will " + will.joined(separator: "; and ")
            let within = memory.classes.isEmpty
                ? ", within distance \(figure(memory.radius)), unless nearer a sound marked right" + (memory.ratio < 1 ? " (by a ratio of \(figure(memory.ratio)))" : "")
                : ", within its class's radius, unless nearer a sound marked right"
            let confirmed = Set(memory.entries.filter { $0.kind == .right }.map(\.soundClass))
            let byOthers = confirmed.count < 2 ? [] : confirmed.subtracting(HomeMemory.neverTaughtAway).subtracting(HomeMemory.untouchable).sorted()
            let elsewhere = byOthers.isEmpty ? "" : "\nit will also hold back a sound heard as " + byOthers.map(EventWords.name).joined(separator: ", ")
                + " that lies less than " + figure(HomeMemory.confirmedElsewhereRatio) + " times as far from a sound marked right as another class as from any marked right as its own"
            return said + within + elsewhere
                + "\nit will never hold back nor re-classify a smoke alarm, glass breaking, a scream, a gasp or a breathing pause, "
                + "and drops nothing: what it holds back stays in the log and the report, to be heard and marked"
        }
    }

    /// Learns the memory and writes it to `output`; `now` is when it says it was learned.
    public func learn(now: Date) async throws(Failure) -> Outcome {
        let log = logs.last ?? ""
        let known: LoggedEvents
        do { known = try LoggedEvents(logs: logs) } catch { throw .log(error) }
        guard !known.labels.labels.isEmpty else { throw .noLabels(log: log) }
        let gathered = await HomeSounds.gather(known, profile: profile, learned: learned)
        var marked = gathered.marked, missing: [HomeSounds.Missing] = []
        var reused = 0, refused: String?
        if gathered.missing.contains(where: \.gone) {
            let previous: RememberedEvents?
            (previous, refused) = previousMemory(labelled: known.events.filter { known.label(of: $0) != nil })
            for m in gathered.missing {
                guard m.gone, let previous, let label = known.label(of: m.event), case let windows = previous.windows(of: m.event),
                      !windows.isEmpty else { missing.append(m); continue }
                marked.append(HomeSounds.marked(m.event, label, windows: windows))
                reused += 1
            }
        } else {
            missing = gathered.missing
        }
        var (memory, choice) = HomeMemory.learn(marked)
        memory.header = [("learned", WallClock.iso8601(now)), ("log", PathText.lastComponent(log).replacing(" ", with: "_")),
                         ("labels", "\(marked.count)"), ("from_previous", "\(reused)"), ("nights", "\(Set(marked.map(\.night)).count)"),
                         ("distance", memory.weights.isEmpty ? "rms-standardised" : "rms-standardised-weighted"), ("chosen_by", choice.by),
                         ("held_out_false_alerts", "\(choice.falseAlerts)"), ("removed", "\(choice.removed)"),
                         ("held_out_confirmed", "\(choice.confirmed)")]
        do { try HomeMemoryFile.write(memory, to: output) } catch { throw .write(error) }
        // This home's fit, from the same marks: those whose audio was heard again this time
        // (an event kept only in the previous memory has no scores, and teaches it nothing).
        var (fit, by) = HomeFit.learn(marked, line: { c in let r = profile.rule(for: c); return max(r.minConfidence, r.startLevel) })
        fit.header = [("learned", WallClock.iso8601(now)), ("profile", String(profile.name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })),
                      ("marks", "\(marked.count { !$0.scores.isEmpty })"), ("chosen_by", by)]
        do { try HomeFitFile.write(fit, to: HomeFitFile.beside(output)) } catch { throw .write(error) }
        let skipped = known.refused.filter { known.labels.label(night: $0.night, id: $0.id) != nil }
        let read = Set((known.events.map { [$0.night, $0.id] }) + known.refused.map { [$0.night, $0.id] })
        let notFound = known.labels.labels.filter { !read.contains([$0.night, $0.id]) }
        return Outcome(memory: memory, choice: choice, fit: fit, missing: missing, skipped: skipped, notFound: notFound, reused: reused,
                       previousRefused: refused)
    }

    /// What the memory at `output` holds of the labelled events, or why it cannot be read
    /// (nil and nil: there is none).
    private func previousMemory(labelled: [LoggedEvents.Event]) -> (RememberedEvents?, String?) {
        guard FileManager.default.fileExists(atPath: output) else { return (nil, nil) }
        do { return (RememberedEvents(try HomeMemoryFile.read(path: output), labelled: labelled), nil) } catch {
            return (nil, error.description)
        }
    }
}
