// Compiled with every libFuzzer target by scripts/fuzz.sh (not part of the package build).
import Foundation
import SomniqSupport

/// The file a target writes each input to, for code that reads a path (libsndfile, the
/// log reader): one per process (libFuzzer -fork/-jobs run several), in
/// $SOMNIQ_FUZZ_TMPDIR (scripts/fuzz.sh empties it after each run), else /dev/shm.
struct InputFile {
    let path: String

    /// `name` and `suffix` make the file's name: `somniq-fuzz-NAME-PID.SUFFIX`.
    init(_ name: String, suffix: String) {
        let env = ProcessInfo.processInfo.environment
        let dir = env["SOMNIQ_FUZZ_TMPDIR"] ?? (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : env["TMPDIR"] ?? "/tmp")
        path = "\(dir)/somniq-fuzz-\(name)-\(getpid()).\(suffix)"
    }

    /// Writes the input whole, replacing the last one.
    func write(_ data: UnsafePointer<UInt8>, _ size: Int) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "cannot create \(path): errno \(errno)")
        var done = 0
        while done < size {
            let n = Glibc.write(fd, data + done, size - done)
            precondition(n > 0, "cannot write \(path): errno \(errno)")
            done += n
        }
        close(fd)
    }
}
