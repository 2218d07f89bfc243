import SomniqCore
import SomniqLog
import SomniqSinks

/// `somniq features`' printer: hands each decided window of a session (its features
/// and scores, and with `--inputs` its learned inputs) to a closure.
public final class WindowPrinter: RecordSink {
    private let body: (WindowFeatures, ClassScores) -> Void
    private let inputs: ((Int, [Float]) -> Void)?
    public init(inputs: ((Int, [Float]) -> Void)? = nil, _ body: @escaping (WindowFeatures, ClassScores) -> Void) {
        self.body = body
        self.inputs = inputs
    }
    public func write(_ record: SessionRecord, logged: LogRecord?) {
        switch record {
        case let .output(.window(f, s)): body(f, s)
        case let .output(.inputs(window, x)): inputs?(window, x)
        default: break
        }
    }
}
