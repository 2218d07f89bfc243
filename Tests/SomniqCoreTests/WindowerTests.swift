import Testing
@testable import SomniqCore

private func windows(of count: Int, blocks: [Int], flush: Bool = false) -> [(Int, Int64, Float)] {
    var w = try! Windower(length: 4, hop: 2)
    let samples = (0..<count).map(Float.init)
    var out: [(Int, Int64, Float)] = []
    var offset = 0
    for b in blocks {
        samples[offset..<offset + b].withUnsafeBufferPointer { buf in
            w.push(buf) { out.append(($0.index, $0.startFrame, $0.samples[0])) }
        }
        offset += b
    }
    if flush { w.flush { out.append(($0.index, $0.startFrame, $0.samples[0])) } }
    return out
}

@Test func windowsStartEveryHopWhateverTheBlockSizes() {
    let a = windows(of: 10, blocks: [10])
    let b = windows(of: 10, blocks: [1, 3, 2, 4])
    #expect(a.map(\.1) == [0, 2, 4, 6])
    #expect(a.map(\.2) == [0, 2, 4, 6])              // first sample of each window is its start
    #expect(b.map(\.1) == a.map(\.1) && b.map(\.2) == a.map(\.2))
    #expect(a.map(\.0) == [0, 1, 2, 3])
}

@Test func flushEmitsThePaddedLastWindowOnce() {
    // 9 samples: windows at 0, 2, 4 are whole; sample 8 is only in the window at 6.
    #expect(windows(of: 9, blocks: [9], flush: true).map(\.1) == [0, 2, 4, 6])
    // 8 samples: every sample is already in a whole window.
    #expect(windows(of: 8, blocks: [8], flush: true).map(\.1) == [0, 2, 4])
}

@Test func defaultWindowIsOneSecondWithHalfSecondHop() throws {
    let w = try Windower()
    #expect(w.length == 16_000 && w.hop == 8_000)
}

@Test func windowerRejectsWrongParameters() {
    #expect(throws: Windower.ParameterError.nonPositive(length: 0, hop: 1)) { try Windower(length: 0, hop: 1) }
    #expect(throws: Windower.ParameterError.hopLongerThanWindow(length: 4, hop: 5)) { try Windower(length: 4, hop: 5) }
}

@Test func everyWindowHoldsItsOwnSamplesAsTheBufferSlidesAndMovesDown() {
    // 41 samples in blocks of odd sizes: the windows slide along the buffer and the overlap
    // is moved to its front several times; each window must hold exactly its samples.
    var w = try! Windower(length: 4, hop: 2)
    let samples = (0..<41).map(Float.init)
    var seen: [[Float]] = []
    var offset = 0
    for b in [3, 1, 5, 2, 7, 1, 1, 6, 4, 11] {
        samples[offset..<offset + b].withUnsafeBufferPointer { buf in w.push(buf) { seen.append(Array($0.samples)) } }
        offset += b
    }
    w.flush { seen.append(Array($0.samples)) }
    #expect(seen.count == 20)
    for (k, window) in seen.enumerated().dropLast() { #expect(window == (0..<4).map { Float(2 * k + $0) }) }
    #expect(seen.last == [38, 39, 40, 0])
}
