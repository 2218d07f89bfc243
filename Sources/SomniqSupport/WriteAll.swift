import Glibc

/// Writes all of `bytes` to `fd`, retrying short writes and EINTR. Returns 0, or the
/// errno of the write that failed.
public func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += n
    }
    return 0
}

/// Where and why a file could not be written.
package struct FileWriteFailure: Error {
    package var path: String
    package var errno: Int32
}

/// Replaces the contents of `path` with `bytes`, whole or not at all: through a temporary
/// file beside it, renamed over it, so that a reader never sees half of it. A symbolic
/// link is followed (the link stays); a path that is not a regular file (a terminal,
/// `/dev/stdout`, a FIFO) is written in place, since renaming over it would put a file
/// where the device was.
///
/// `private`: for a file beside another's (the log's index), made with `mode` (not the
/// umask's), and put in place of whatever is at `path`, a symbolic link too, never
/// through it: the temporary is made anew (`O_EXCL`, `O_NOFOLLOW`).
///
/// `durable`: the temporary is flushed to the disk (`fsync`) before it is renamed, so that
/// a power cut leaves the old file or the new one, never a new name over data not yet
/// written (for a file a daemon reads at start: the home memory).
package func replaceContents(of path: String, with bytes: [UInt8], private mode: mode_t? = nil, durable: Bool = false) -> FileWriteFailure? {
    var target = path
    var st = stat()
    if let mode {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { return FileWriteFailure(path: temporary, errno: errno) }
        fchmod(fd, mode)
        return finish(fd, temporary: temporary, bytes, renamedTo: path, named: path, durable: durable)
    }
    if lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) {
        target = String(cString: resolved)
        free(resolved)
    }
    if stat(target, &st) == 0, st.st_mode & S_IFMT != S_IFREG {
        let fd = open(target, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return FileWriteFailure(path: path, errno: errno) }
        let failure = writeAll(fd, bytes)
        close(fd)
        return failure == 0 ? nil : FileWriteFailure(path: path, errno: failure)
    }
    let temporary = target + ".tmp-\(getpid())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return FileWriteFailure(path: temporary, errno: errno) }
    return finish(fd, temporary: temporary, bytes, renamedTo: target, named: path, durable: durable)
}

/// Writes `bytes` to the temporary file `fd` and renames it to `target` (`path`, or the file
/// its link names).
private func finish(_ fd: Int32, temporary: String, _ bytes: [UInt8], renamedTo target: String, named path: String,
                    durable: Bool) -> FileWriteFailure? {
    var failure = writeAll(fd, bytes)
    if failure == 0, durable, fsync(fd) != 0 { failure = errno }
    let closed = close(fd) == 0 ? 0 : errno
    guard failure == 0, closed == 0 else {
        unlink(temporary)
        return FileWriteFailure(path: temporary, errno: failure != 0 ? failure : closed)
    }
    guard rename(temporary, target) == 0 else {
        let e = errno
        unlink(temporary)
        return FileWriteFailure(path: path, errno: e)
    }
    return nil
}
