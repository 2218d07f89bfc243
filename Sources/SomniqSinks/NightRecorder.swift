import SomniqCore
import SomniqLog
import SomniqReports

/// A sink that keeps a replayed session as a night, for `somniq replay --report`.
public final class NightRecorder: RecordSink {
    private var builder = NightBuilder()
    public private(set) var nights: [Night] = []

    public init() {}

    public func write(_ record: SessionRecord, logged: LogRecord?) {
        guard let logged else { return }
        if let n = builder.add(.success(logged)) { nights.append(n) }
        if case .end = record, let n = builder.finish() { nights.append(n) }
    }
}
