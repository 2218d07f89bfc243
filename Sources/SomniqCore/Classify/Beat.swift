/// Music that is carried by its rhythm (drums, a plucked bass) rather than by held
/// notes: continuous sound in which sharp attacks keep coming. A single window of it
/// could be anything; five of the last eight (4 s), at the 0.5–4 Hz of a musical beat,
/// is music. One quiet beat does not break it.
struct Beat: Sendable {
    private var recent: UInt8 = 0           // one bit per window, newest lowest

    /// `instant`: the window is continuous sound with a sharp attack in it.
    mutating func update(_ instant: Float) -> Float {
        recent = (recent << 1) | (instant >= 0.5 ? 1 : 0)
        switch recent.nonzeroBitCount {
        case 5...: return 0.9
        case 4: return 0.6
        default: return 0
        }
    }
}
