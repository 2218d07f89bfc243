// libFuzzer target: a home memory, as `--home-rules FILE` and the daemon read one
// (`home-memory.txt`'s format, written by `somniq learn --home`).
//
// The input bytes are written to a temporary file and read by `HomeMemoryFile.read`
// (opened without blocking, the size cap, UTF-8, `HomeMemory(text:)`), and parsed in
// memory by `HomeMemory(text:)`. A memory that is accepted is used as the pipeline uses
// it: an event of each class is judged by a window of the input's first numbers, and the
// memory is written out again, which must read back the same. Errors the code throws are
// fine; a trap, an ASan report, a hang or a leak is a finding.
//
// Built by scripts/fuzz.sh; not part of the package build.
import Glibc
import SomniqConfig
import SomniqCore
import SomniqSupport

/// Where each input is written (Fuzz/support/InputFile.swift).
private let input = InputFile("home", suffix: "txt")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHome(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    input.write(data, size)
    defer { unlink(input.path) }
    let fromFile: HomeMemory?
    do { fromFile = try HomeMemoryFile.read(path: input.path) } catch {
        _ = error.description
        fromFile = nil
    }
    let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var parsed: HomeMemory?
    if let text { parsed = try? HomeMemory(text: text) }
    if let memory = fromFile {
        precondition(parsed != nil, "HomeMemoryFile.read took a file that HomeMemory(text:) refuses")
        use(memory)
    }
    return 0
}

/// What the alert path and `somniq learn --home` do with a memory.
private func use(_ memory: HomeMemory) {
    let window = memory.entries.first?.inputs ?? [Float](repeating: 0, count: LearnedInputs.count)
    for c in SoundClass.allCases {
        _ = memory.remembers(c)
        if let m = memory.judge([window], c) {
            precondition(m.distance.isFinite && m.distance >= 0, "\(c.rawValue): distance \(m.distance)")
        }
    }
    _ = HomeMemoryFile.summary(memory)
    let again = try? HomeMemory(text: memory.text)
    precondition(again?.text == memory.text, "a memory written out does not read back the same")
}
