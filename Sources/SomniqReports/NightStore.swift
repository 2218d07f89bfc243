import FoundationEssentials
import Glibc
import SomniqConfig
import SomniqCore
import SomniqSupport

/// The night audio directory: a folder per night (`2026-11-22`, noon to noon, as reports
/// cut nights), holding its parts, FLAC files named by the local time of their first
/// sample (`2026-11-23_03-00-00.flac`, so that they sort by time across midnight). Files
/// are private (0640) in directories 0750. Whole nights are deleted, oldest first, to stay
/// within a number of nights and a size; never the night being written, nor a night any
/// of whose files is locked by its writer.
public struct NightStore: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// The night folder and file name of a part whose first sample was heard at `unix`
    /// (to the millisecond, as its `start_time` says: a part that starts on the hour, a
    /// hair before it in floating point, is named for the hour).
    public static func place(unix: Double) -> (night: String, name: String) {
        let t = (unix * 1000).rounded() / 1000
        return (WallClock.night(t), WallClock.localDate(t) + "_" + WallClock.localTime(t, seconds: true).replacing(":", with: "-") + ".flac")
    }

    public func path(night: String, name: String) -> String { directory + "/" + night + "/" + name }

    /// Makes the directory ready before the session's first part: refuses a path that is
    /// not a directory (or lies under a file) and creates it (0750) when it is not there.
    public func prepare() throws(StoreFailure) {
        if let reason = ClipStore.notADirectory(directory) {
            throw StoreFailure(path: directory, problem: "\(reason), so no night audio can be kept there; "
                          + "name a directory (night_audio.dir in the configuration), or move the file away")
        }
        try makeDirectory(directory)
    }

    private func makeDirectory(_ path: String) throws(StoreFailure) {
        if let reason = ClipStore.notADirectory(path) { throw StoreFailure(path: path, problem: reason) }
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o750]) } catch {
            throw StoreFailure(path: path, problem: "cannot create the night audio directory: \(errorText(error))")
        }
    }

    /// A new part's file, created (0640) and locked (`flock`) for its writer, never over
    /// another file: a name taken (two parts started in one second, or the hour a
    /// daylight-saving change repeats) gets `_2`, `_3`… before `.flac`, which sorts after
    /// it. Returns the descriptor, which holds the lock, and the path.
    public func create(night: String, name: String) throws(StoreFailure) -> (fd: Int32, path: String) {
        let folder = directory + "/" + night
        let stem = String(name.dropLast(".flac".count))
        var attempt = 1
        // A purge of the night's folder may remove it between its creation and the file's
        // (ENOENT), or remove the new file before it is locked: each is tried again.
        for _ in 0..<20 {
            try makeDirectory(folder)
            let path = folder + "/" + (attempt == 1 ? name : "\(stem)_\(attempt).flac")
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o640)
            guard fd >= 0 else {
                let e = errno
                if e == EEXIST { attempt += 1; continue }
                if e == ENOENT { continue }
                throw StoreFailure(path: path, problem: "cannot create: \(String(cString: strerror(e)))")
            }
            flock(fd, LOCK_EX)
            guard Self.isStill(fd, at: path) else { close(fd); continue }
            fchmod(fd, 0o640)        // whatever the umask
            return (fd, path)
        }
        throw StoreFailure(path: folder + "/" + name, problem: "its file kept being removed by another process")
    }

    /// Whether `path` still names the open file `fd` (same device and inode, still linked).
    static func isStill(_ fd: Int32, at path: String) -> Bool {
        var open = stat(), named = stat()
        guard fstat(fd, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_nlink > 0 && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// A night on disk: its folder's name, its parts (sorted by time) and what they take.
    public struct Night: Sendable, Equatable {
        public var name: String
        public var parts: [String]
        public var bytes: Int64
    }

    /// The nights in the directory, oldest first: folders named as a date, with the FLAC
    /// files in them.
    public func nights() -> [Night] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var out: [Night] = []
        for name in names where Self.isNightName(name) {
            var st = stat()
            guard lstat(directory + "/" + name, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { continue }
            var night = Night(name: name, parts: [], bytes: 0)
            for part in (try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + name)) ?? []
            where part.hasSuffix(".flac") && !part.hasPrefix(".") {
                guard lstat(path(night: name, name: part), &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
                night.parts.append(part)
                night.bytes += Int64(st.st_size)
            }
            night.parts.sort()
            out.append(night)
        }
        return out.sorted { $0.name < $1.name }
    }

    /// `2026-11-22`.
    static func isNightName(_ name: String) -> Bool {
        let u = Array(name.utf8)
        guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-") else { return false }
        return u.enumerated().allSatisfy { i, c in i == 4 || i == 7 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) }
    }

    /// A night deleted by `enforce`, and why: `keep_nights` or `max_mb`.
    public struct Deleted: Sendable, Equatable {
        public var night: String, reason: String, bytes: Int64
    }

    /// Deletes whole nights, oldest first, until at most `keepNights` are left and they take
    /// at most `maxBytes` together; `current`, the night being written, is never deleted,
    /// nor is a night with a file a writer holds locked (another process writing it). A
    /// night's folder is removed with its parts, unless it holds other files. Returns the
    /// nights deleted.
    @discardableResult
    public func enforce(maxBytes: Int64, keepNights: Int, current: String?) -> [Deleted] {
        var nights = nights()
        // A folder left with no part (its files deleted by hand) counts as no night.
        for night in nights where night.parts.isEmpty && night.name != current { rmdir(directory + "/" + night.name) }
        nights.removeAll { $0.parts.isEmpty && $0.name != current }
        var total = nights.reduce(Int64(0)) { $0 + $1.bytes }
        var deleted: [Deleted] = []
        var i = 0
        while i < nights.count {
            let reason = nights.count > keepNights ? "keep_nights" : total > maxBytes ? "max_mb" : nil
            guard let reason else { break }
            let night = nights[i]
            guard night.name != current, delete(night) else { i += 1; continue }
            deleted.append(Deleted(night: night.name, reason: reason, bytes: night.bytes))
            total -= night.bytes
            nights.remove(at: i)
        }
        return deleted
    }

    /// Deletes a night's parts and its folder; false, deleting nothing, when one of them is
    /// locked by a writer. Each part is locked while it is deleted, and must still be the
    /// file locked.
    private func delete(_ night: Night) -> Bool {
        var held: [(fd: Int32, path: String)] = []
        defer { for h in held { close(h.fd) } }
        for part in night.parts {
            let p = path(night: night.name, name: part)
            let fd = open(p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard fd >= 0 else { continue }
            held.append((fd, p))
            if flock(fd, LOCK_EX | LOCK_NB) != 0 { return false }
        }
        for h in held where Self.isStill(h.fd, at: h.path) { unlink(h.path) }
        rmdir(directory + "/" + night.name)
        return true
    }
}
