// Built only where Swift Testing is: with the tests (`swift build` builds every target,
// and a release build has no Testing module).
#if canImport(Testing)
import Foundation
import SomniqAudio
import SomniqCore
import Testing

/// A file's 16-bit samples as libsndfile decodes them (a FLAC part, a clip).
package func samples16(_ path: String) throws -> [Int16] {
    let reader = try AudioFileReader(path: path)
    #expect(reader.sampleRate == 16_000 && reader.channels == 1)
    var out: [Int16] = []
    var block = [Float](repeating: 0, count: 8192)
    while true {
        let n = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
        if n == 0 { return out }
        out += block[0..<n].map { Int16(($0 * 32768).rounded()) }
    }
}

/// Raw S16_LE samples (an ALSA fixture).
package func raw16(_ path: String) throws -> [Int16] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
}

/// The `night_audio` records of a log: each part's path, its stream time and its wall time.
package func nightParts(_ log: [JSONValue]) -> [(path: String, startS: Double, startTime: String, night: String)] {
    log.filter { $0["status"] == .string("night_audio") }.compactMap { r in
        guard let p = r["path"]?.stringValue, let s = r["start_s"]?.numberValue, let t = r["start_time"]?.stringValue,
              let n = r["night"]?.stringValue else { return nil }
        return (p, s, t, n)
    }
}
#endif
