import CSoxr
import SomniqCore

/// Converts a mono stream at any rate to 16 kHz with libsoxr, the SoX resampler (never by
/// dropping or repeating samples). Its default quality, `SOXR_HQ`, keeps 20 bits (about
/// 120 dB of rejection) and a linear phase, with a passband to 91 % of the new Nyquist
/// frequency (7.3 kHz): above anything the features look at. It filters in the frequency
/// domain, so 44.1 or 48 kHz costs a fraction of the analysis (libsamplerate's sinc
/// filter, before it, took 95 % of a 48 kHz replay). At 16 kHz it passes samples through
/// untouched, so a 16 kHz file gives exactly the samples live capture would.
public final class Resampler {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let inputRate: Int
    private let state: soxr_t?
    private var output: [Float]

    public init(inputRate: Int, maxBlock: Int = 8192) throws(Failure) {
        guard inputRate > 0 else { throw Failure(description: "invalid sample rate \(inputRate) Hz") }
        self.inputRate = inputRate
        let ratio = Double(StreamClock.sampleRate) / Double(inputRate)
        // 256× down (4 MHz) or up (62.5 Hz) is beyond any audio file, as libsamplerate's
        // limit was.
        guard (1.0 / 256...256).contains(ratio) else {
            throw Failure(description: "cannot resample from \(inputRate) Hz to \(StreamClock.sampleRate) Hz (ratio out of range)")
        }
        if inputRate == StreamClock.sampleRate {
            state = nil
        } else {
            var error: soxr_error_t?
            // Mono float in and out; SOXR_HQ; one thread (the replay is one thread).
            let s = soxr_create(Double(inputRate), Double(StreamClock.sampleRate), 1, &error, nil, nil, nil)
            guard let s, error == nil else {
                throw Failure(description: "libsoxr: \(error.map { String(cString: $0) } ?? "cannot create a resampler")")
            }
            state = s
        }
        output = [Float](repeating: 0, count: Int(Double(maxBlock) * ratio) + 256)
    }

    deinit { if let state { soxr_delete(state) } }

    /// Converts `input` and hands the 16 kHz samples to `emit` (possibly in several
    /// calls, possibly none while the filter fills). `last` flushes the filter.
    public func process(_ input: UnsafeBufferPointer<Float>, last: Bool = false,
                        emit: (UnsafeBufferPointer<Float>) -> Void) throws(Failure) {
        guard let state else { if !input.isEmpty { emit(input) }; return }
        var consumed = 0
        // The input, until soxr has taken all of it; then, at the end, the filter's tail
        // (input nil), until it gives no more.
        while consumed < input.count || last {
            var used = 0, produced = 0
            let error: soxr_error_t? = output.withUnsafeMutableBufferPointer { out in
                let rest = input.count - consumed
                if rest > 0 {
                    return soxr_process(state, input.baseAddress! + consumed, rest, &used, out.baseAddress, out.count, &produced)
                }
                return soxr_process(state, nil, 0, nil, out.baseAddress, out.count, &produced)
            }
            if let error { throw Failure(description: "libsoxr: \(String(cString: error))") }
            consumed += used
            if produced > 0 { output.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[0..<produced])) } }
            if produced == 0 && (consumed >= input.count || used == 0) { break }
        }
    }
}
