// Built only where Swift Testing is: with the tests (`swift build` builds every target,
// and a release build has no Testing module).
#if canImport(Testing)
import Foundation
import Glibc

/// A directory's files as they are created, written and moved into it, as the kernel says
/// it (inotify(7)): a test waiting for another process's file waits for its event, not for
/// time. What happens from `init` on is kept until `next` reads it, so a look at the files
/// after `init`, then `next`, misses nothing.
package final class DirectoryWatch {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    private let fd: Int32

    package init(_ directory: String) throws {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { throw Failure(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        guard inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_MODIFY | IN_MOVED_TO)) >= 0 else {
            let problem = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "watching \(directory): \(problem)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// The names of the files something happened to since the last call, waiting for the
    /// first until `deadline` (only against a hang); none when it passed first.
    package func next(until deadline: Date) -> [String] {
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let millis = Int32(min(max(0, deadline.timeIntervalSinceNow * 1000), Double(Int32.max)).rounded(.up))
        guard poll(&ready, 1, millis) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        let header = MemoryLayout<inotify_event>.size, lengthAt = MemoryLayout<inotify_event>.offset(of: \.len)!
        var names: [String] = [], at = 0
        while at + header <= n {
            let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: at + lengthAt, as: UInt32.self)) }
            names.append(String(decoding: buffer[(at + header)..<(at + header + length)].prefix { $0 != 0 }, as: UTF8.self))
            at += header + length
        }
        return names
    }
}
#endif
