import CSndFile
import Glibc
import SomniqConfig
import SomniqCore
import SomniqSupport

extension ClipStore {
    /// Writes `samples` (16 kHz mono) as a 16-bit FLAC named `name`, mode 0640: to a hidden
    /// temporary file first, locked while it is written and renamed into place once whole,
    /// so a clip is never seen half written. A full disk or a file-size limit leaves
    /// nothing behind; a process killed mid-write leaves a temporary that the next
    /// `prepare` or quota removes. Every failure names the clip's own path.
    public func write(_ samples: [Float], name: String) throws(StoreFailure) {
        let final = path(name), temporary = path("." + name + ".part")
        do throws(StoreFailure) { try makeDirectory() } catch {
            throw StoreFailure(path: final, problem: "\(LogText.escape(error.path)): \(error.problem)")
        }
        var fd: Int32 = -1
        // Locked before it is emptied, so that another writer of the same name (one recording
        // replayed twice at once) never truncates a clip under way; once locked, the name
        // must still be this file (a cleaner may have removed it, or its writer renamed it
        // into place): else opened afresh.
        for _ in 0..<3 {
            fd = open(temporary, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o640)
            guard fd >= 0 else { throw StoreFailure(path: final, problem: "cannot create \(LogText.escape(temporary)): \(String(cString: strerror(errno)))") }
            flock(fd, LOCK_EX)
            if Self.isStill(fd, at: temporary), ftruncate(fd, 0) == 0 { break }
            close(fd)
            fd = -1
        }
        guard fd >= 0 else { throw StoreFailure(path: final, problem: "its temporary file kept being removed by another process") }
        fchmod(fd, 0o640)        // whatever the umask
        // libsndfile closes `fd`; the lock is the open file's, held through this copy until
        // the clip is renamed into place.
        let lock = dup(fd)
        defer { if lock >= 0 { close(lock) } }
        var info = SF_INFO()
        info.samplerate = Int32(StreamClock.sampleRate)
        info.channels = 1
        info.format = Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        guard let file = sf_open_fd(fd, Int32(SFM_WRITE), &info, 1) else {
            let reason = String(cString: sf_strerror(nil))
            unlink(temporary)
            throw StoreFailure(path: final, problem: "cannot write FLAC: \(reason); the disk may be full")
        }
        // To 16 bits here, at the scale libsndfile reads them with (x · 32768): a 16-bit
        // recording's samples come back exactly. (libsndfile's own float writer scales by
        // 32767, a different number for every sample.)
        let pcm = samples.map { Int16(clamping: Int(($0 * 32768).rounded())) }
        let written = pcm.withUnsafeBufferPointer { sf_writef_short(file, $0.baseAddress, sf_count_t($0.count)) }
        let writeError = sf_error(file) != 0 ? String(cString: sf_strerror(file)) : nil
        sf_write_sync(file)
        let closed = sf_close(file)
        guard written == sf_count_t(samples.count), writeError == nil, closed == 0 else {
            unlink(temporary)
            throw StoreFailure(path: final, problem: "not written (\(writeError ?? "short write")); the disk may be full")
        }
        guard rename(temporary, final) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw StoreFailure(path: final, problem: reason)
        }
    }
}
