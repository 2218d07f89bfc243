import SomniqCore

extension InputWatch.Condition.Kind {
    /// The status record it is logged as.
    public var status: LogStatus {
        switch self {
        case .silent: .inputSilent
        case .clipping: .clipping
        }
    }
}
