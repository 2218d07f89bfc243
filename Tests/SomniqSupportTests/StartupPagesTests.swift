import Glibc
import SomniqSupport
import Testing

/// In the test binary's written data (statically initialised to 7): a page of it let go would
/// come back from the file, holding 7 again.
nonisolated(unsafe) private var writtenAtRun = 7

/// The pages this process holds resident (`/proc/self/statm`'s second field).
private func residentPages() throws -> Int {
    let file = try #require(fopen("/proc/self/statm", "r"))
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 128)
    _ = fgets(&line, Int32(line.count), file)
    let fields = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: " ")
    return try #require(Int(fields[1]))
}

/// What the reads added up to, kept so that they are made.
nonisolated(unsafe) private var touched = 0

/// Reads a byte of each page of the program's segments no one writes, up to `limit` bytes.
private func touchTheProgramsReadOnlyPages(upTo limit: Int) {
    let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
    var left = UInt(limit)
    for r in StartupPages.readOnlyPages(programOnly: true) {
        for at in stride(from: r.lowerBound, to: r.upperBound, by: Int(page)) where left > 0 {
            if let byte = UnsafePointer<UInt8>(bitPattern: at) { touched &+= Int(byte.pointee) }
            left -= page
        }
    }
}

@Test func startupPagesLetTheCodeGoAndKeepWhatWasWritten() throws {
    writtenAtRun = 41
    // Two megabytes of the program's code and read-only data read now are resident, whatever
    // another test that opened a device let go a moment ago.
    touchTheProgramsReadOnlyPages(upTo: 2 << 20)
    let before = try residentPages()
    StartupPages.release()
    let after = try residentPages()
    // The test binary's code alone is megabytes, much of it run by now: a megabyte goes at least.
    #expect(before - after >= (1 << 20) / sysconf(Int32(_SC_PAGESIZE)))
    // Written data is the process's own: kept. Code and read-only data come back where run.
    #expect(writtenAtRun == 41)
}
