import Glibc

/// Writes all of `bytes` to `fd`, retrying short writes and EINTR. Returns 0, or the
/// errno of the write that failed.
func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
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
