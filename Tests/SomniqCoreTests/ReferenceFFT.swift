import Foundation
@testable import SomniqCore

/// A stand-in for the product's FFTW transform, so that the core's features and pipeline
/// are tested without IO: a textbook radix-2 FFT (Cooley–Tukey, decimation in time) in
/// double precision. Slower than FFTW and allocation-free only per instance, which tests
/// do not mind.
final class ReferenceFFT: SpectrumTransform {
    let size: Int
    private var re: [Double], im: [Double]
    private var frame: [Float]
    private let cosines: [Double], sines: [Double]
    private let reversed: [Int]

    init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "FFT length must be a power of two")
        self.size = size
        re = [Double](repeating: 0, count: size)
        im = re
        frame = [Float](repeating: 0, count: size)
        cosines = (0..<size / 2).map { cos(2 * Double.pi * Double($0) / Double(size)) }
        sines = (0..<size / 2).map { sin(2 * Double.pi * Double($0) / Double(size)) }
        let bits = size.trailingZeroBitCount
        reversed = (0..<size).map { i in (0..<bits).reduce(0) { $0 | ((i >> $1) & 1) << (bits - 1 - $1) } }
    }

    /// In place on `re`, `im`; `inverse` conjugates the twiddles (unscaled).
    private func transform(inverse: Bool) {
        for i in 0..<size where i < reversed[i] {
            re.swapAt(i, reversed[i])
            im.swapAt(i, reversed[i])
        }
        var length = 2
        while length <= size {
            let step = size / length
            for start in stride(from: 0, to: size, by: length) {
                for k in 0..<length / 2 {
                    let c = cosines[k * step], s = inverse ? sines[k * step] : -sines[k * step]
                    let a = start + k, b = a + length / 2
                    let tr = re[b] * c - im[b] * s, ti = re[b] * s + im[b] * c
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
            }
            length *= 2
        }
    }

    func powerSpectrum(of frame: UnsafeBufferPointer<Float>, into power: UnsafeMutableBufferPointer<Float>) {
        for i in 0..<size {
            re[i] = i < frame.count ? Double(frame[i]) : 0
            im[i] = 0
        }
        transform(inverse: false)
        for k in 0...(size / 2) { power[k] = Float(re[k] * re[k] + im[k] * im[k]) }
    }

    func powerSpectrum(count: Int, fill: (UnsafeMutableBufferPointer<Float>) -> Void, into power: UnsafeMutableBufferPointer<Float>) {
        precondition(count <= size)
        var frame: [Float] = []
        swap(&frame, &self.frame)
        defer { swap(&frame, &self.frame) }
        frame.withUnsafeMutableBufferPointer { fill(UnsafeMutableBufferPointer(rebasing: $0[0..<count])) }
        frame.withUnsafeBufferPointer { powerSpectrum(of: UnsafeBufferPointer(rebasing: $0[0..<count]), into: power) }
    }

    func autocorrelation(fromPower power: UnsafeBufferPointer<Float>, into acf: UnsafeMutableBufferPointer<Float>) {
        // The power spectrum of a real frame is even: mirror it to the full length.
        for k in 0..<size {
            re[k] = Double(power[k <= size / 2 ? k : size - k])
            im[k] = 0
        }
        transform(inverse: true)
        for t in 0...(size / 2) { acf[t] = Float(re[t] / Double(size)) }
    }
}
