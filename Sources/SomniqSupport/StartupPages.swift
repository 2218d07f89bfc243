import CSupport
import Glibc

/// The pages of code that starting a daemon touches once and listening never again: the
/// argument parser, the configuration's readers, FFTW's planner (which touches every solver
/// it registers, all of FFTW's code), opening the device (ALSA's configuration, a plugin's
/// client). The kernel keeps each page a process touched resident in it, and the 64 kB
/// around it (its fault-around), until the machine runs short of memory.
public enum StartupPages {
    /// What `madvise` refused to let go: the bytes of the ranges it refused, and the first
    /// refusal's `errno` (EINVAL for locked pages, EAGAIN when the kernel was short of
    /// resources). It stops at a range's first locked page, having let go of those before it:
    /// up to that many bytes stay resident, as they were; nothing else changes.
    public struct Refused: Equatable, Sendable, CustomStringConvertible {
        public var bytes: Int
        public var errno: Int32

        public var description: String {
            "up to \(bytes) bytes of code and read-only data stay resident: madvise refused them (\(String(cString: strerror(errno))))"
        }
    }

    /// Lets the pages of every loaded file's segments that are never written (code and
    /// read-only data, the program's and its libraries') go from the process: they stay in
    /// the page cache, and a page touched again is mapped again by a minor fault. Segments
    /// that are written (data, and the read-only data the dynamic linker relocated) are left
    /// as they are: their pages are the process's own copies (a debugger's breakpoints,
    /// written into code, are lost). Nil when every range went; what was refused otherwise
    /// (the ranges after a refused one are still let go).
    public static func release() -> Refused? {
        var refused: Refused?
        for r in readOnlyPages(programOnly: false) {
            guard let address = UnsafeMutableRawPointer(bitPattern: r.lowerBound) else { continue }
            let length = Int(r.upperBound - r.lowerBound)
            if madvise(address, length, MADV_DONTNEED) != 0 {
                refused = Refused(bytes: (refused?.bytes ?? 0) + length, errno: refused?.errno ?? Glibc.errno)
            }
        }
        return refused
    }

    /// The whole pages of each loaded file's segments that are never written, of the program
    /// only or of it and its libraries (absolute paths; not the vDSO), leaving out an object
    /// whose code was relocated in place (`relocatesItsText`).
    public static func readOnlyPages(programOnly: Bool) -> [Range<UInt>] {
        var found = (programOnly: programOnly, ranges: [Range<UInt>]())
        withUnsafeMutablePointer(to: &found) { found in
            _ = somniq_each_loaded_object({ object, _, context in
                guard let object = object?.pointee, let found = context?.assumingMemoryBound(to: (programOnly: Bool, ranges: [Range<UInt>]).self)
                else { return 1 }
                let isProgram = object.name == nil || object.name[0] == 0
                if !isProgram, found.pointee.programOnly { return 1 }  // the program is the first object
                if !isProgram, object.name[0] != CChar(UInt8(ascii: "/")) { return 0 }
                if StartupPages.relocatesItsText(object) { return 0 }
                let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
                for i in 0..<Int(object.count) {
                    let header = object.headers[i]
                    guard header.p_type == UInt32(PT_LOAD), header.p_flags & UInt32(PF_W) == 0 else { continue }
                    // Only the pages wholly inside the segment: one it shares with a written
                    // segment holds that segment's writes.
                    let first = UInt(object.address) + UInt(header.p_vaddr)
                    let start = (first + page - 1) / page * page
                    let end = (first + UInt(header.p_memsz)) / page * page
                    if end > start { found.pointee.ranges.append(start..<end) }
                }
                return 0
            }, found)
        }
        return found.ranges
    }

    /// Whether the object's code was relocated in place (DT_TEXTREL, or DF_TEXTREL in its
    /// DT_FLAGS): the dynamic linker wrote to those pages, and dropping them would bring back
    /// the file's unrelocated bytes. Such an object is left whole.
    static func relocatesItsText(_ object: somniq_loaded_object) -> Bool {
        for i in 0..<Int(object.count) where object.headers[i].p_type == UInt32(PT_DYNAMIC) {
            let at = UInt(object.address) + UInt(object.headers[i].p_vaddr)
            // The word size's own types (CSupport's `somniq_elf_dyn`): Elf64 or Elf32.
            guard var entry = UnsafePointer<somniq_elf_dyn>(bitPattern: at) else { return true }
            while Int(entry.pointee.d_tag) != Int(DT_NULL) {
                let tag = Int(entry.pointee.d_tag)
                if tag == Int(DT_TEXTREL) || tag == Int(DT_FLAGS) && UInt(entry.pointee.d_un.d_val) & UInt(DF_TEXTREL) != 0 {
                    return true
                }
                entry += 1
            }
        }
        return false
    }
}
