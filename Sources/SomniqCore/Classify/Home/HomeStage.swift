/// The pipeline's use of a `HomeMemory`: the learned inputs of the last windows are kept
/// (each window's, as the classifier fills them when it first decides it), so that an event,
/// when the alert processor confirms it, is judged by the windows from its onset to its
/// confirmation (`judge`). The trains (snoring, breathing) are confirmed
/// `Classifier.trainDelay` windows after their window: the windows kept reach that far back.
struct HomeStage {
    /// Replaced as a whole when a new memory is learned (`Pipeline.replaceHome`): the
    /// windows kept stay, since they are the stream's.
    var memory: HomeMemory
    /// The inputs of recent windows, by window index modulo the ring's length, with the index.
    private var ring: [(frame: Int, inputs: [Float])] = []

    init(_ memory: HomeMemory) { self.memory = memory }

    /// Keeps window `frame`'s `inputs`; `span`: how many windows back an event may open
    /// before its confirmation (the longest debounce, with the trains' delay).
    mutating func remember(frame: Int, inputs: [Float], span: Int) {
        if ring.count < span {
            ring = Array(repeating: (-1, [Float](repeating: 0, count: inputs.count)), count: span)
        }
        let slot = frame % ring.count
        ring[slot].frame = frame
        // Copied in place: the classifier's array is refilled every window.
        ring[slot].inputs.withUnsafeMutableBufferPointer { to in
            for i in 0..<min(to.count, inputs.count) { to[i] = inputs[i] }
        }
    }

    /// The memory's verdict on event `e`, by its windows from onset to confirmation (nil:
    /// like no "not" memory nor much nearer a sound marked right as another class, a class
    /// never touched, or none of its windows kept). A class never marked "not this" is judged
    /// too: it may lie by a sound the home confirmed as another class (`HomeMemory.confirmedAs`).
    func judge(_ e: EventStart) -> HomeMemory.Match? {
        guard memory.judges(e.soundClass) else { return nil }
        let from = Int((e.onset / StreamClock.frameSeconds).rounded())
        let to = Int(((e.trace.confirmed ?? e.onset) / StreamClock.frameSeconds).rounded())
        let windows = ring.filter { $0.frame >= from && $0.frame <= to }.map(\.inputs)
        guard !windows.isEmpty else { return nil }
        return memory.judge(windows, e.soundClass)
    }
}
