import Foundation
import SomniqCore

/// Runs a program for each notification, without a shell: the record as one line of
/// JSON on its stdin, and `SOMNIQ_*` variables in its environment. A program that
/// exits non-zero, or outlives its timeout (it is sent SIGTERM, then SIGKILL 2 s later),
/// has failed and is run again with backoff.
final class ExecSink: SinkEndpoint, @unchecked Sendable {
    private let config: SinkConfig.Exec

    init(_ config: SinkConfig.Exec) { self.config = config }

    func start(wake: @escaping @Sendable () -> Void) {}
    func stop() {}
    func takes(_ kind: SinkMessage.Kind) -> Bool { kind != .level }

    /// The variables a program is given besides the daemon's own environment.
    static func environment(_ m: SinkMessage) -> [String: String] {
        var env = [
            "SOMNIQ_KIND": m.kind.rawValue,
            "SOMNIQ_ROOM": m.room,
            "SOMNIQ_TIER": m.tier.rawValue,
            "SOMNIQ_MESSAGE": m.text,
        ]
        if let c = m.soundClass { env["SOMNIQ_CLASS"] = c.rawValue }
        if let s = m.status { env["SOMNIQ_STATUS"] = s }
        if let id = m.record["id"]?.stringValue { env["SOMNIQ_EVENT_ID"] = id }
        if let t = m.record["onset_time"]?.stringValue ?? m.record["time"]?.stringValue { env["SOMNIQ_TIME"] = t }
        return env
    }

    func deliver(_ message: SinkMessage) throws(SinkFailure) {
        let program = config.command[0]
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = Array(config.command.dropFirst())
        p.environment = ProcessInfo.processInfo.environment.merging(Self.environment(message)) { $1 }
        let stdin = Pipe()
        p.standardInput = stdin
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        do { try p.run() } catch {
            throw SinkFailure("cannot run \(program): \((error as NSError).localizedDescription)")
        }
        // The record is far smaller than a pipe's buffer: this write does not wait on the program.
        try? stdin.fileHandleForWriting.write(contentsOf: Data((message.record.compactText + "\n").utf8))
        try? stdin.fileHandleForWriting.close()
        if done.wait(timeout: .now() + config.timeoutSeconds) == .timedOut {
            p.terminate()
            if done.wait(timeout: .now() + 2) == .timedOut {
                kill(p.processIdentifier, SIGKILL)
                done.wait()
            }
            throw SinkFailure("\(program) did not finish within \(JSONValue.format(config.timeoutSeconds)) s and was stopped")
        }
        guard p.terminationReason == .exit, p.terminationStatus == 0 else {
            let how = p.terminationReason == .exit ? "exited with status \(p.terminationStatus)"
                : "was killed by signal \(p.terminationStatus)"
            throw SinkFailure("\(program) \(how)")
        }
    }
}
