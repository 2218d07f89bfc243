import FoundationEssentials
import Glibc
import SomniqCore
import SomniqSupport

/// The clips directory: FLAC files named by time and class, written private (0640), kept
/// within a size and an age, listed and purged by `somniq clips`.
public struct ClipStore: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// `2026-11-23_03-12-05_smoke_alarm_s1763859000-e7.flac` when the onset's wall-clock time
    /// is known (`unix`), else by stream time, `000117.5s_smoke_alarm_e7.flac`. The id keeps
    /// two events of one second apart.
    public static func fileName(unix: Double?, onset: Double, soundClass: SoundClass, id: String) -> String {
        let safeID = String(String.UnicodeScalarView(id.unicodeScalars.filter {
            $0.isASCII && (("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-")
        }))
        if let unix {
            let t = WallClock.localDate(unix) + "_" + WallClock.localTime(unix, seconds: true).replacing(":", with: "-")
            return "\(t)_\(soundClass.rawValue)_\(safeID).flac"
        }
        return String(cFormat: "%08.1fs_%@_%@.flac", onset, soundClass.rawValue, safeID)
    }

    public func path(_ name: String) -> String { directory + "/" + name }

    /// Makes the directory ready before a session's first clip: refuses a path that is not
    /// a directory (or lies under a file), creates it (0750) when it is not there, and
    /// removes the temporaries a killed process left (`removeStaleTemporaries`). A
    /// directory that cannot be created or written is left to the clips, each of which then
    /// says so (`clip_skipped`): the daemon must start listening all the same.
    public func prepare() throws(StoreFailure) {
        if let reason = Self.notADirectory(directory) {
            throw StoreFailure(path: directory, problem: "\(reason), so no clip can be kept there; "
                          + "name a directory (--clips, or clips.dir in the configuration), or move the file away")
        }
        try? makeDirectory()
        removeStaleTemporaries()
    }

    /// Why `path` can never hold clips, if it cannot: it, or a component of it, is a file.
    public static func notADirectory(_ path: String) -> String? {
        var st = stat()
        if stat(path, &st) == 0 { return st.st_mode & S_IFMT == S_IFDIR ? nil : "is not a directory" }
        return errno == ENOTDIR ? "lies under a file, not a directory" : nil
    }

    package func makeDirectory() throws(StoreFailure) {
        if let reason = Self.notADirectory(directory) { throw StoreFailure(path: directory, problem: reason) }
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o750]) } catch {
            throw StoreFailure(path: directory, problem: "cannot create the clips directory: \(errorText(error))")
        }
    }

    /// A kept clip's file name (a FLAC file, not one being written).
    public static func isClipName(_ name: String) -> Bool { name.hasSuffix(".flac") && !isTemporary(name) }

    /// The hidden temporary a clip is written to: `.NAME.part`.
    static func isTemporary(_ name: String) -> Bool { name.hasPrefix(".") && name.hasSuffix(".flac.part") }

    /// Removes the temporaries no process is writing: one being written is locked
    /// (`flock`) by its writer until renamed, and a killed writer's lock went with it.
    /// Returns the names removed.
    @discardableResult
    public func removeStaleTemporaries() -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for name in names where Self.isTemporary(name) {
            let fd = open(path(name), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard fd >= 0 else { continue }
            // Locked: its writer is alive, in this process or another. Once locked, the name
            // must still be the file locked: another cleaner may have removed that one, and a
            // writer made a new one under its name since.
            if flock(fd, LOCK_EX | LOCK_NB) == 0, Self.isStill(fd, at: path(name)), unlink(path(name)) == 0 { removed.append(name) }
            close(fd)
        }
        return removed
    }

    /// Whether `path` still names the open file `fd` (same device and inode, still linked).
    package static func isStill(_ fd: Int32, at path: String) -> Bool {
        var open = stat(), named = stat()
        guard fstat(fd, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_nlink > 0 && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// A clip on disk.
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var bytes: Int64
        /// Modification time (Unix): when it was written.
        public var modified: Double
    }

    /// The clips in the directory, oldest first (by time written, then name).
    public func entries() -> [Entry] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var out: [Entry] = []
        for name in names where name.hasSuffix(".flac") && !name.hasPrefix(".") {
            var st = stat()
            guard lstat(path(name), &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
            out.append(Entry(name: name, bytes: Int64(st.st_size),
                             modified: Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9))
        }
        return out.sorted { ($0.modified, $0.name) < ($1.modified, $1.name) }
    }

    /// Deletes the oldest clips until none is older than `maxAgeDays` and all of them
    /// together take at most `maxBytes`. Returns the names of the clips deleted.
    /// Temporaries no process is writing go first (they are not clips: not in the list).
    ///
    /// Past `maxBytes`, the clips named by `first` go before the others, oldest first, and
    /// only then the others, oldest first: the caller names the clips whose sound is no
    /// longer needed (`RememberedClips`: labelled, and already in this home's memory), so
    /// that a clip still waiting for its label outlives them. `first` is asked only when
    /// the clips are over `maxBytes`. Age spares none.
    @discardableResult
    public func enforce(maxBytes: Int64?, maxAgeDays: Double?, now: Double, first: () -> Set<String> = { [] }) -> [String] {
        removeStaleTemporaries()
        var clips = entries()
        var deleted: [String] = []
        if let maxAgeDays {
            let oldest = now - maxAgeDays * 86_400
            while let first = clips.first, first.modified < oldest {
                if unlink(path(first.name)) == 0 { deleted.append(first.name) }
                clips.removeFirst()
            }
        }
        if let maxBytes {
            var total = clips.reduce(Int64(0)) { $0 + $1.bytes }
            guard total > maxBytes else { return deleted }
            let early = first()
            for clip in clips.filter({ early.contains($0.name) }) + clips.filter({ !early.contains($0.name) }) {
                guard total > maxBytes else { break }
                if unlink(path(clip.name)) == 0 { deleted.append(clip.name) }
                total -= clip.bytes
            }
        }
        return deleted
    }

    /// Deletes every clip (and any half-written one); returns how many.
    public func purge() -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var count = 0
        for name in names where name.hasSuffix(".flac") || name.hasSuffix(".flac.part") {
            if unlink(path(name)) == 0, !name.hasPrefix(".") { count += 1 }
        }
        return count
    }

    /// The night (`2026-11-22`, noon to noon) a clip's name places it in; nil for a clip
    /// named by stream time (a replay with no start time).
    public static func night(ofName name: String) -> String? {
        let parts = name.split(separator: "_", maxSplits: 2)
        guard parts.count == 3 else { return nil }
        let d = parts[0].split(separator: "-").compactMap { Int32($0) }, t = parts[1].split(separator: "-").compactMap { Int32($0) }
        guard d.count == 3, t.count == 3 else { return nil }
        var when = tm()
        when.tm_year = d[0] - 1900; when.tm_mon = d[1] - 1; when.tm_mday = d[2]
        when.tm_hour = t[0]; when.tm_min = t[1]; when.tm_sec = t[2]; when.tm_isdst = -1
        let unix = mktime(&when)
        return unix == -1 ? nil : WallClock.night(Double(unix))
    }
}
