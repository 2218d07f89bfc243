/// One labelled sound event, in seconds from the start of its recording: a line of a
/// DCASE / sed_eval label file (`onset<TAB>offset<TAB>class`), or a detection written as one.
public struct LabeledEvent: Equatable, Sendable {
    public var onset: Double
    public var offset: Double
    public var label: String

    public init(onset: Double, offset: Double, label: String) {
        self.onset = onset
        self.offset = offset
        self.label = label
    }
}
