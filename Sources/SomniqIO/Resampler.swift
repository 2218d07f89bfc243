import CSampleRate
import SomniqCore

/// Converts a mono stream at any rate to 16 kHz with libsamplerate's band-limited
/// sinc interpolator (never by dropping or repeating samples). At 16 kHz it passes
/// samples through untouched, so a 16 kHz file gives exactly the samples live
/// capture would.
public final class Resampler {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let inputRate: Int
    private let state: OpaquePointer?
    private let ratio: Double
    private var output: [Float]

    public init(inputRate: Int, maxBlock: Int = 8192) throws(Failure) {
        guard inputRate > 0 else { throw Failure(description: "invalid sample rate \(inputRate) Hz") }
        self.inputRate = inputRate
        ratio = Double(StreamClock.sampleRate) / Double(inputRate)
        guard src_is_valid_ratio(ratio) != 0 else {
            throw Failure(description: "cannot resample from \(inputRate) Hz to \(StreamClock.sampleRate) Hz (ratio out of range)")
        }
        if inputRate == StreamClock.sampleRate {
            state = nil
        } else {
            var error: Int32 = 0
            guard let s = src_new(Int32(SRC_SINC_MEDIUM_QUALITY), 1, &error) else {
                throw Failure(description: "libsamplerate: \(String(cString: src_strerror(error)))")
            }
            state = s
        }
        output = [Float](repeating: 0, count: Int(Double(maxBlock) * ratio) + 64)
    }

    deinit { if let state { src_delete(state) } }

    /// Converts `input` and hands the 16 kHz samples to `emit` (possibly in several
    /// calls, possibly none while the filter fills). `last` flushes the filter.
    public func process(_ input: UnsafeBufferPointer<Float>, last: Bool = false,
                        emit: (UnsafeBufferPointer<Float>) -> Void) throws(Failure) {
        guard let state else { if !input.isEmpty { emit(input) }; return }
        var consumed = 0
        while true {
            var data = SRC_DATA()
            let rc: Int32 = output.withUnsafeMutableBufferPointer { out in
                data.data_in = input.baseAddress.map { UnsafePointer($0 + consumed) }
                data.input_frames = input.count - consumed
                data.data_out = out.baseAddress
                data.output_frames = out.count
                data.end_of_input = last ? 1 : 0
                data.src_ratio = ratio
                return src_process(state, &data)
            }
            guard rc == 0 else { throw Failure(description: "libsamplerate: \(String(cString: src_strerror(rc)))") }
            let produced = data.output_frames_gen, used = data.input_frames_used
            consumed += used
            if produced > 0 { output.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[0..<produced])) } }
            // Done when all input is taken and, at the end, the filter has drained.
            if consumed >= input.count && (!last || produced == 0) { break }
            if used == 0 && produced == 0 { break }
        }
    }
}
