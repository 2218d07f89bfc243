import CSupport
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
    var left = limit
    withUnsafeMutablePointer(to: &left) { left in
        _ = somniq_each_loaded_object({ object, _, context in
            guard let object = object?.pointee, let left = context?.assumingMemoryBound(to: Int.self) else { return 1 }
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            for i in 0..<Int(object.count) where left.pointee > 0 {
                let header = object.headers[i]
                guard header.p_type == UInt32(PT_LOAD), header.p_flags & UInt32(PF_W) == 0 else { continue }
                let first = Int(object.address) + Int(header.p_vaddr)
                var at = (first + page - 1) / page * page
                while at + page <= first + Int(header.p_memsz) && left.pointee > 0 {
                    if let byte = UnsafePointer<UInt8>(bitPattern: at) { touched &+= Int(byte.pointee) }
                    at += page
                    left.pointee -= page
                }
            }
            return 1  // the program is the first object
        }, left)
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
