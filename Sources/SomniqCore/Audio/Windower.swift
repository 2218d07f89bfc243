/// One analysis window: `length` samples starting `startFrame` samples into the stream.
/// The samples are valid only inside the closure that receives the window.
public struct AudioWindow {
    /// 0, 1, 2, … in stream order; window `index` starts at `index * hop`.
    public let index: Int
    public let startFrame: Int64
    public let samples: UnsafeBufferPointer<Float>

    public init(index: Int, startFrame: Int64, samples: UnsafeBufferPointer<Float>) {
        self.index = index
        self.startFrame = startFrame
        self.samples = samples
    }

    /// Stream time of the window's first sample, in seconds.
    public var startSeconds: Double { StreamClock.seconds(startFrame) }
}

/// Cuts a stream of samples, pushed in blocks of any size, into overlapping windows.
///
/// Window `k` covers samples `[k·hop, k·hop + length)`. Blocks are copied into one
/// buffer allocated at init, each with one memory copy; nothing is allocated per block or
/// per window. The buffer holds `spare` hops past a window, so the window slides along it
/// and the part a window shares with the next is moved to the front only when the buffer's
/// end is reached: once every `spare + 1` windows, where every window moved it before.
public struct Windower: Sendable {
    public let length: Int
    public let hop: Int
    /// Hops the buffer holds past one window.
    static let spare = 2
    private var buffer: [Float]
    private var start = 0             // where the next window begins in `buffer`
    private var filled = 0            // samples in `buffer` up to here are valid
    private var nextIndex = 0

    public enum ParameterError: Error, Equatable, CustomStringConvertible {
        case nonPositive(length: Int, hop: Int)
        case hopLongerThanWindow(length: Int, hop: Int)
        public var description: String {
            switch self {
            case let .nonPositive(l, h): "window length (\(l)) and hop (\(h)) must be positive"
            case let .hopLongerThanWindow(l, h): "hop (\(h)) must not exceed the window length (\(l))"
            }
        }
    }

    public init(length: Int = StreamClock.windowLength, hop: Int = StreamClock.hop) throws(ParameterError) {
        guard length > 0, hop > 0 else { throw .nonPositive(length: length, hop: hop) }
        guard hop <= length else { throw .hopLongerThanWindow(length: length, hop: hop) }
        self.length = length
        self.hop = hop
        self.buffer = [Float](repeating: 0, count: length + Self.spare * hop)
    }

    /// Appends `samples` and emits every window that is now complete.
    public mutating func push(_ samples: UnsafeBufferPointer<Float>, into emit: (AudioWindow) -> Void) {
        var offset = 0
        while offset < samples.count {
            let take = min(start + length - filled, samples.count - offset)
            buffer.withUnsafeMutableBufferPointer { dst in
                (dst.baseAddress! + filled).update(from: samples.baseAddress! + offset, count: take)
            }
            filled += take
            offset += take
            if filled == start + length { emitAndSlide(emit) }
        }
    }

    /// Pads the stream with silence until the window holding the last real sample
    /// is complete, and emits it. Call once, at the end of a finite stream.
    public mutating func flush(into emit: (AudioWindow) -> Void) {
        // Samples in `buffer` past the shared overlap are new: they belong to no window yet.
        guard filled - start > length - hop || (nextIndex == 0 && filled > 0) else { return }
        buffer.withUnsafeMutableBufferPointer { dst in
            for j in filled..<start + length { dst[j] = 0 }
        }
        filled = start + length
        emitAndSlide(emit)
    }

    private mutating func emitAndSlide(_ emit: (AudioWindow) -> Void) {
        let index = nextIndex
        buffer.withUnsafeBufferPointer { src in
            emit(AudioWindow(index: index, startFrame: Int64(index) * Int64(hop),
                             samples: UnsafeBufferPointer(rebasing: src[start..<start + length])))
        }
        nextIndex += 1
        start += hop
        // At the buffer's end, one move of the overlap to the front (the regions may
        // overlap: a memmove).
        if start + length > buffer.count {
            buffer.withUnsafeMutableBufferPointer { b in
                b.baseAddress!.update(from: b.baseAddress! + start, count: filled - start)
            }
            filled -= start
            start = 0
        }
    }
}
