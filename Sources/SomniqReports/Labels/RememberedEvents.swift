import FoundationEssentials
import SomniqConfig
import SomniqCore
import SomniqSupport

/// What a home memory already holds of the labelled events of a log: each event's
/// remembered windows, found by the id and onset time its entries name. It lets the clip
/// quota delete first the clips whose sound is already remembered (`RememberedClips`), and
/// `somniq learn --home` keep what it learned of an event whose audio has since gone
/// (`HomeLearner`).
///
/// A memory names an event by its id and the ISO 8601 time of its onset; replays without
/// a start time reuse ids (`e3`) and have no time, so two labelled events of the logs can
/// share that name. Such an event is answered for by none of them: its entries might be
/// the other's.
public struct RememberedEvents: Sendable {
    private struct Key: Hashable { var id: String, at: String? }
    private var entries: [Key: [HomeMemory.Entry]] = [:]
    private var shared: Set<Key> = []

    /// What `memory` holds of `labelled`, the labelled events of the logs.
    public init(_ memory: HomeMemory, labelled: [LoggedEvents.Event]) {
        for e in memory.entries { entries[Key(id: e.eventID, at: e.at), default: []].append(e) }
        var seen: Set<Key> = []
        for e in labelled where !seen.insert(Self.key(e)).inserted { shared.insert(Self.key(e)) }
    }

    private static func key(_ e: LoggedEvents.Event) -> Key { Key(id: e.id, at: e.at) }

    /// The windows remembered of event `e` for its own class, in the memory's order (the
    /// "right" memories a label naming another class added are left out: they are the
    /// same windows); empty when it holds none, or when another labelled event shares its
    /// name.
    public func windows(of e: LoggedEvents.Event) -> [[Float]] {
        let key = Self.key(e)
        guard !shared.contains(key) else { return [] }
        return (entries[key] ?? []).filter { $0.soundClass == e.soundClass }.map(\.inputs)
    }

    /// Whether the memory holds windows of `e`.
    public func holds(_ e: LoggedEvents.Event) -> Bool { !windows(of: e).isEmpty }
}

/// The clips the clip quota deletes first (`ClipStore.enforce`): those of events that are
/// labelled and already remembered in this home's memory (`RememberedEvents`), whose sound
/// `somniq learn --home` no longer needs (it keeps their windows from the memory it
/// replaces). The daemon's log and memory file are read only when the clips are over
/// `max_mb`; a log or memory that cannot be read names none, and the quota deletes the
/// oldest first, as without it.
public struct RememberedClips: Sendable {
    public var log: String
    /// The memory file: `home-memory.txt` beside the log unless given.
    public var memory: String

    public init(log: String, memory: String? = nil) {
        self.log = log
        self.memory = memory ?? HomeMemoryFile.besideLog(log)
    }

    /// The clips' file names, as the clips directory lists them.
    public func names() -> Set<String> {
        guard FileManager.default.fileExists(atPath: memory),
              let home = try? HomeMemoryFile.read(path: memory),
              let known = try? LoggedEvents(logs: [log]) else { return [] }
        let labelled = known.events.filter { known.label(of: $0) != nil }
        let remembered = RememberedEvents(home, labelled: labelled)
        return Set(labelled.compactMap { e in e.clip.flatMap { remembered.holds(e) ? PathText.lastComponent($0) : nil } })
    }
}
