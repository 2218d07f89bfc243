import Glibc

/// A failure to keep a file in a directory somniq writes (a clip in `ClipStore`, a part of
/// the night audio in `NightStore`): which path, and why. One type for both, so that a
/// full disk is told from another failure in one way.
public struct StoreFailure: Error, CustomStringConvertible, Sendable {
    public var path: String, problem: String
    package init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }
    public var description: String { "\(LogText.escape(path)): \(problem)" }
    /// The disk, a quota or the file-size limit left no room for it.
    public var noSpace: Bool { [ENOSPC, EDQUOT, EFBIG].contains { problem.contains(String(cString: strerror($0))) } }
    /// What a status record says of it: `no_space` (`noSpace`), else `failed`.
    public var reason: String { noSpace ? "no_space" : "failed" }
}
