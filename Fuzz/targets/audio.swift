// libFuzzer target: an audio file, as `somniq replay` and `somniq eval` read one.
//
// The input bytes are written to a temporary file and opened with `FileSource`, which is
// `AudioFileReader(path:)` (libsndfile: any format it knows, downmixed to mono) read block
// by block until it returns 0, then `Resampler` (libsoxr, to 16 kHz). The samples go
// through the pure `Pipeline` (features, classifier, alert processor) under the balanced
// profile, as a replay does. Errors the code throws are fine; a trap, an ASan report, a
// hang or a leak is a finding.
//
// libsndfile is the system's, not built with ASan: a SNDFILE closed twice (a use after
// free inside it) would go unseen. So this target interposes `sf_open`, `sf_open_fd`,
// `sf_open_virtual` and `sf_close` and traps on a second `sf_close` of a handle libsndfile
// has not handed out again since.
//
// Built by scripts/fuzz.sh; not part of the package build.
import Foundation
import SomniqAudio
import SomniqCore
import SomniqSupport

/// Where each input is written (Fuzz/support/InputFile.swift).
private let input = InputFile("audio", suffix: "bin")

/// Planned once, as the replayer does (FFTW_ESTIMATE plans are deterministic).
private let transform = FFTWTransform(size: 1024)
private let profile = Profile.balanced

/// At most this much 16 kHz audio goes through the pipeline per input (10 minutes): a
/// tiny compressed file can declare hours, and one input must stay well under -timeout.
private let maxSamples = 10 * 60 * StreamClock.sampleRate


// MARK: - libsndfile handle checks

private typealias OpenFunction = @convention(c) (UnsafePointer<CChar>?, Int32, UnsafeMutableRawPointer?) -> OpaquePointer?
private typealias OpenFDFunction = @convention(c) (Int32, Int32, UnsafeMutableRawPointer?, Int32) -> OpaquePointer?
private typealias OpenVirtualFunction = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> OpaquePointer?
private typealias CloseFunction = @convention(c) (OpaquePointer?) -> Int32

/// libsndfile's own function `name` (the next definition after this executable's).
private func libsndfile<F>(_ name: String, _: F.Type) -> F {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -1) /* RTLD_NEXT */, name) else {
        fatalError("libsndfile has no \(name)")
    }
    return unsafeBitCast(symbol, to: F.self)
}

private let realOpen = libsndfile("sf_open", OpenFunction.self)
private let realOpenFD = libsndfile("sf_open_fd", OpenFDFunction.self)
private let realOpenVirtual = libsndfile("sf_open_virtual", OpenVirtualFunction.self)
private let realClose = libsndfile("sf_close", CloseFunction.self)
/// Handles closed and not handed out again: closing one of them is a use after free.
private var closedHandles = Set<OpaquePointer>()

@_cdecl("sf_open")
public func checkedOpen(_ path: UnsafePointer<CChar>?, _ mode: Int32, _ info: UnsafeMutableRawPointer?) -> OpaquePointer? {
    let file = realOpen(path, mode, info)
    if let file { closedHandles.remove(file) }
    return file
}

@_cdecl("sf_open_fd")
public func checkedOpenFD(_ fd: Int32, _ mode: Int32, _ info: UnsafeMutableRawPointer?, _ closeDesc: Int32) -> OpaquePointer? {
    let file = realOpenFD(fd, mode, info, closeDesc)
    if let file { closedHandles.remove(file) }
    return file
}

/// How `AudioFileReader` reads the audio past a WAV's declared end (`WAVTail`).
@_cdecl("sf_open_virtual")
public func checkedOpenVirtual(_ io: UnsafeMutableRawPointer?, _ mode: Int32, _ info: UnsafeMutableRawPointer?,
                               _ user: UnsafeMutableRawPointer?) -> OpaquePointer? {
    let file = realOpenVirtual(io, mode, info, user)
    if let file { closedHandles.remove(file) }
    return file
}

@_cdecl("sf_close")
public func checkedClose(_ file: OpaquePointer?) -> Int32 {
    if let file, !closedHandles.insert(file).inserted {
        fatalError("sf_close called again on SNDFILE \(file), already closed: a use after free in libsndfile")
    }
    return realClose(file)
}

// MARK: - the target

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAudio(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    input.write(data, size)
    // libsndfile holds the file open from here on; the name is not needed any more.
    defer { unlink(input.path) }
    let source: FileSource
    do { source = try FileSource(path: input.path) } catch {
        _ = error.description  // the message is built from libsndfile's text: exercise it
        return 0
    }
    let pipeline: Pipeline
    do { pipeline = try Pipeline(transform: transform, profile: profile) } catch {
        fatalError("the pipeline cannot be built: \(error)")
    }
    var pushed = 0
    do {
        // Float files may hold NaN or infinite samples: they go through as a replay's would.
        while let block = try source.nextBlock() {
            pushed += block.samples.count
            _ = pipeline.push(block.samples)
            if pushed >= maxSamples { return 0 }
        }
    } catch {
        _ = "\(error)"
        return 0
    }
    _ = pipeline.finish()
    return 0
}
