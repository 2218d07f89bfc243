import FoundationEssentials
import SomniqCore
import SomniqReports

/// The sound of each marked event, as the learned rules' inputs (`LearnedInputs`) of its
/// windows: what `somniq learn --home` remembers. A replayed event's windows are taken from
/// the recording itself, replayed as it was (the same samples give the same inputs); a live
/// event's from its kept clip, replayed alone (its floor is learned from the clip's pre-roll,
/// so its inputs are near, not equal, to those heard live). The windows kept are those of the
/// event's span whose score for its class reached the profile's `min_confidence`: the
/// windows that carried the event (all of its span when none did), at most `maxWindows`,
/// evenly spread, and its opening windows, from its onset to its confirmation (what the
/// memory judges a new event by; for a clip, whose onset in it is not logged, its first
/// windows that carried it, as many).
public enum HomeSounds {
    public static let maxWindows = 24

    /// An event whose sound could not be had, and why.
    public struct Missing: Sendable {
        public var event: LoggedEvents.Event
        public var why: String
        /// Its audio is gone (its recording moved, its clip deleted, or none kept), rather
        /// than heard with no window of it.
        public var gone = true
    }

    public static func gather(_ known: LoggedEvents, profile: Profile, learned: LearnedRules?)
        async -> (marked: [HomeMemory.Marked], missing: [Missing]) {
        var marked: [HomeMemory.Marked] = [], missing: [Missing] = []
        var byAudio: [String: [(LoggedEvents.Event, EventLabel, clip: Bool)]] = [:]
        for e in known.events {
            guard let label = known.label(of: e), label.verdict != .none else { continue }
            // Its windows are counted from its times: times that cannot be its own (an
            // event made by hand, not read by `LoggedEvents`) leave it out, by name.
            if let why = LoggedEvents.problem(onset: e.onset, confirmed: e.confirmed) ?? LoggedEvents.problem(offset: e.offset, onset: e.onset) {
                missing.append(Missing(event: e, why: "skipped: " + why, gone: false))
                continue
            }
            if let r = e.recording, FileManager.default.fileExists(atPath: r) {
                byAudio[r, default: []].append((e, label, false))
            } else if let c = e.clip, FileManager.default.fileExists(atPath: c) {
                byAudio[c, default: []].append((e, label, true))
            } else {
                let why = switch (e.recording, e.clip) {
                case let (r?, c?): "its recording \(r) and its clip \(c) are gone"
                case let (r?, nil): "its recording \(r) is gone"
                case let (nil, c?): "its clip \(c) is gone"
                case (nil, nil): "no clip was kept of it"
                }
                missing.append(Missing(event: e, why: why))
            }
        }
        for path in byAudio.keys.sorted() {
            let items = byAudio[path]!
            // The windows wanted: those of every event's span (the whole clip for a clip).
            func span(_ e: LoggedEvents.Event, clip: Bool) -> ClosedRange<Int> {
                clip ? 0...Int.max
                    : Int(((e.onset - 0.5) / StreamClock.frameSeconds).rounded(.up))...max(0, Int(((max(e.offset, e.confirmed ?? 0) - 0.5) / StreamClock.frameSeconds).rounded(.down)) + 1)
            }
            let spans = items.map { span($0.0, clip: $0.clip) }
            var inputs: [Int: [Float]] = [:], scores: [Int: ClassScores] = [:]
            let replayer = Replayer(profile: profile)
            replayer.factory.learned = learned
            replayer.factory.reportsWindows = true
            replayer.factory.reportsInputs = true
            let printer = WindowPrinter(inputs: { k, x in if spans.contains(where: { $0.contains(k) }) { inputs[k] = x } }) { f, s in
                if spans.contains(where: { $0.contains(f.index) }) { scores[f.index] = s }
            }
            // Audio that cannot be read (a path in a damaged log naming a directory, a
            // device, a FIFO, a file that is no audio) leaves its events out, by name; the
            // others are learned.
            do { try await replayer.replay(path: path, to: [printer]) } catch {
                for (e, _, _) in items { missing.append(Missing(event: e, why: "its audio cannot be read: \(error)", gone: false)) }
                continue
            }
            for (i, (e, label, _)) in items.enumerated() {
                let c = e.soundClass
                let all = inputs.keys.filter { spans[i].contains($0) }.sorted()
                let carried = all.filter { Double(scores[$0]?[c] ?? 0) >= profile.rule(for: c).minConfidence }
                let chosen = spread(carried.isEmpty ? all : carried, at: maxWindows)
                guard !chosen.isEmpty else { missing.append(Missing(event: e, why: "no window of it was heard in \(path)", gone: false)); continue }
                let opening = openingWindows(e, clip: items[i].clip, all: all, carried: carried)
                // What this home's fit learns from: the windows of its span, those that carried
                // it or not (for a clip, from the first that carried it to the last: its pre- and
                // post-roll are the room).
                let sounded = items[i].clip ? carried.first.map { f in all.filter { $0 >= f && $0 <= carried.last! } } ?? [] : all
                var m = Self.marked(e, label, windows: Set(chosen + opening).sorted().map { inputs[$0]! }, opening: opening.map { inputs[$0]! })
                m.scores = spread(sounded.filter { scores[$0] != nil }, at: maxWindows).map { scores[$0]!.values }
                marked.append(m)
            }
        }
        return (marked, missing)
    }

    /// Event `e`, labelled `label`, as the memory learns it from `windows`: "right" when its
    /// label confirms its class, else "not this", and a "right" memory of the class it was
    /// said to be, when one was named.
    public static func marked(_ e: LoggedEvents.Event, _ label: EventLabel, windows: [[Float]], opening: [[Float]] = []) -> HomeMemory.Marked {
        var was: SoundClass?
        if case let .was(d) = label.verdict { was = d }
        // Left out together within one night: a replayed recording's events, or a live hour's.
        let group = e.recording ?? e.at.map { String($0.prefix(13)) }
        return HomeMemory.Marked(eventID: e.id, night: e.night, group: group, soundClass: e.soundClass,
                                 right: label.verdict.confirms(e.soundClass), was: was, at: e.at, windows: windows, opening: opening)
    }

    /// The windows from `e`'s onset to its confirmation among `all` (window `k` is decided at
    /// `k` × 0.5 s, as the alert processor counts); for a clip, the first of `carried`, as many.
    static func openingWindows(_ e: LoggedEvents.Event, clip: Bool, all: [Int], carried: [Int]) -> [Int] {
        // Confirmed at its onset at the earliest (`LoggedEvents.problem`); never fewer than none.
        let frames = (max(e.confirmed ?? e.onset, e.onset) - e.onset) / StreamClock.frameSeconds
        guard !clip else {
            let pool = carried.isEmpty ? all : carried
            return Array(pool.prefix(frames.isFinite ? Int(min(frames.rounded(), Double(pool.count))) + 1 : 1))
        }
        let from = Int((e.onset / StreamClock.frameSeconds).rounded()), to = Int(((e.confirmed ?? e.onset) / StreamClock.frameSeconds).rounded())
        return all.filter { $0 >= from && $0 <= to }
    }

    /// At most `n` of `items`, evenly spread (the first and the last among them).
    static func spread(_ items: [Int], at n: Int) -> [Int] {
        guard items.count > n, n > 1 else { return items }
        return (0..<n).map { items[$0 * (items.count - 1) / (n - 1)] }
    }
}
