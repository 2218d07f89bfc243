import SomniqCore
import SomniqLog

/// 16 kHz mono samples from an `AudioSource`, valid until the source's next element: a
/// source hands out its own buffers in turn and allocates nothing per block.
// @unchecked: a pointer into the source's buffer, read by one consumer before the next element.
public struct AudioBlock: @unchecked Sendable {
    public let samples: UnsafeBufferPointer<Float>
    /// When a capture's read returned it, on the capture's clock: its arrival, however long
    /// it then waited in the capture's queue (nil from a file, which has no time of its own).
    public let read: ContinuousClock.Instant?
    public init(_ samples: UnsafeBufferPointer<Float>, read: ContinuousClock.Instant? = nil) {
        self.samples = samples
        self.read = read
    }
}

/// What a source of audio yields: samples, and the changes in its condition that a
/// session records (a device lost, back, overrun).
public enum AudioEvent: Sendable {
    case samples(AudioBlock)
    /// Samples arrive (again) from the device: the first block follows.
    case listening
    /// The device dropped `frames` because the reader fell behind; the next block follows.
    case overrun(frames: Int)
    /// The device could not be opened, or went away while it was heard
    /// (`wasListening`); it is tried again after `retrySeconds`, and said again only
    /// once it was heard in between.
    case lost(CaptureError, retrySeconds: Double, wasListening: Bool)
}

/// Where a session's audio comes from — a file (`FileSource`) or a capture device
/// (`CaptureSource`, in `SomniqCapture`) — as an asynchronous sequence of `AudioEvent`s that ends with the
/// audio (the file's end; for a device, the task cancelled). A source is iterated once.
public protocol AudioSource: AsyncSequence<AudioEvent, any Error> {
    /// The source as the session's start record names it.
    var source: LogRecord.SessionStart.Source { get }
}

/// A source that holds a device open until it is closed: the daemon's (`SessionService`),
/// which is given `SomniqCapture`'s `CaptureSource`.
public protocol DeviceSource: AudioSource {
    /// Lets the device go; the source is not iterated after.
    func close()
}
