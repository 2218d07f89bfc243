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

/// One at a time: a page the second test locks would be refused by the first's release.
@Suite(.serialized) struct StartupPagesTests {
    @Test func startupPagesLetTheCodeGoAndKeepWhatWasWritten() throws {
        writtenAtRun = 41
        // Two megabytes of the program's code and read-only data read now are resident, whatever
        // another test that opened a device let go a moment ago.
        touchTheProgramsReadOnlyPages(upTo: 2 << 20)
        let before = try residentPages()
        // Every range went: madvise refused none.
        #expect(StartupPages.release() == nil)
        let after = try residentPages()
        // The test binary's code alone is megabytes, much of it run by now: a megabyte goes at least.
        #expect(before - after >= (1 << 20) / sysconf(Int32(_SC_PAGESIZE)))
        // Written data is the process's own: kept. Code and read-only data come back where run.
        #expect(writtenAtRun == 41)
    }

    @Test func aLockedPageIsRefusedAndSaid() throws {
        // A page of the program's code, locked, cannot be let go (madvise: EINVAL): the range
        // that holds it is said refused, and the page stays resident.
        let range = try #require(StartupPages.readOnlyPages(programOnly: true).first)
        let page = try #require(UnsafeMutableRawPointer(bitPattern: range.lowerBound))
        let size = Int(sysconf(Int32(_SC_PAGESIZE)))
        try #require(mlock(page, size) == 0)
        defer { munlock(page, size) }
        let refused = try #require(StartupPages.release())
        #expect(refused.errno == EINVAL)
        #expect(refused.bytes >= Int(range.upperBound - range.lowerBound))
        var resident: UInt8 = 0
        #expect(mincore(page, size, &resident) == 0 && resident & 1 == 1)
    }
}
