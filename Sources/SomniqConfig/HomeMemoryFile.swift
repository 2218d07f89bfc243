import FoundationEssentials
import Glibc
import SomniqCore
import SomniqSupport

/// Reads and writes this home's memory (`HomeMemory`'s text form): `--home-rules FILE`, and
/// the daemon's default beside its log (`besideLog`).
public enum HomeMemoryFile {
    /// Why a home memory could not be read or written: the file, and what was wrong.
    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    /// The cap on a memory file: `HomeMemory.maxWindows` windows of about 2.8 kB each fit under it.
    public static let maxBytes = 64 << 20

    /// The daemon's memory: `home-memory.txt` in its log's directory.
    public static func besideLog(_ log: String) -> String {
        let dir = log.contains("/") ? String(log[..<log.lastIndex(of: "/")!]) : "."
        return (dir.isEmpty ? "/" : dir + "/") + "home-memory.txt"
    }

    /// Whether there is anything at `path` (a file, a directory, a dangling or looping
    /// symbolic link): something to read, or to refuse by name, rather than no memory.
    public static func present(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    public static func read(path: String) throws(Error) -> HomeMemory {
        let text = try text(path, of: "home memory", maxBytes: maxBytes, cap: "\(maxBytes >> 20) MiB")
        do { return try HomeMemory(text: text) } catch {
            throw Error(description: "\(LogText.escape(path)): \(LogText.escape(error.description))")
        }
    }

    /// The text of the `what` (a home memory, a home fit) at `path`, or why it cannot be
    /// had: it cannot be opened or read, it is over `maxBytes` (said as `cap`), or not UTF-8.
    static func text(_ path: String, of what: String, maxBytes: Int, cap: String) throws(Error) -> String {
        let name = LogText.escape(path)
        let file: ReadingFile
        switch ReadingFile.open(path) {
        case let .success(f): file = f
        case let .failure(refusal):
            throw Error(description: "\(name): \(refusal.problem("a \(what) (somniq learn --home writes one)", failing: "cannot open the \(what)"))")
        }
        let data: [UInt8]
        do { data = try file.read(upToCount: maxBytes + 1) } catch {
            throw Error(description: "\(name): cannot read the \(what): \(errnoText(error))")
        }
        guard data.count <= maxBytes else { throw Error(description: "\(name): larger than \(cap): not a \(what)") }
        guard let text = String(validating: data, as: UTF8.self) else { throw Error(description: "\(name): not UTF-8 text: not a \(what)") }
        return text
    }

    /// Writes `memory` whole: a temporary file beside `path`, flushed to the disk and
    /// renamed over it, so that a reader (the daemon, at start or after its daily learning)
    /// finds the old memory or the new one, never half of one, even after a power cut.
    public static func write(_ memory: HomeMemory, to path: String) throws(Error) {
        if let failure = replaceContents(of: path, with: Array(memory.text.utf8), durable: true) {
            throw Error(description: "\(LogText.escape(failure.path)): cannot write the home memory: \(String(cString: strerror(failure.errno)))")
        }
    }

    /// What a memory in force holds, in words, for the journal at start, /healthz and the
    /// page: "this home's learning is in force: 9 sounds marked (4 door, 3 cough, 2 scream),
    /// learned 2026-11-23 at 12:00". The time is the box's local one.
    public static func holdings(_ m: HomeMemory) -> String {
        var classOf: [String: SoundClass] = [:]
        for e in m.entries where e.kind == .not || classOf[e.eventID + " " + (e.at ?? "")] == nil {
            classOf[e.eventID + " " + (e.at ?? "")] = e.soundClass
        }
        var counts: [SoundClass: Int] = [:]
        for c in classOf.values { counts[c, default: 0] += 1 }
        let classes = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.value) \($0.key.rawValue.replacing("_", with: " "))" }
        var said = "this home's learning is in force: \(classOf.count) sound\(classOf.count == 1 ? "" : "s") marked"
        if !classes.isEmpty { said += " (" + classes.joined(separator: ", ") + ")" }
        if let learned = m.header.first(where: { $0.key == "learned" }).flatMap({ WallClock.parse($0.value) }) {
            said += ", learned \(WallClock.localDate(learned)) at \(WallClock.localTime(learned))"
        }
        return said
    }

    /// `12 windows of 9 events (7 not this, 2 right), radius 0.41, ratio 0.62`; with a radius
    /// per class, `…, radius door 1.21 (ratio 0.8), cough 0.5 (the corpus's prior)`.
    public static func summary(_ m: HomeMemory) -> String {
        let events = Set(m.entries.map(\.eventID))
        let not = Set(m.entries.filter { $0.kind == .not }.map(\.eventID)).count
        func figure(_ x: Float) -> String { JSONValue.format((Double(x) * 1000).rounded() / 1000) }
        let head = "\(m.entries.count) windows of \(events.count) events (\(not) not this, \(events.count - not) right), radius "
        guard !m.classes.isEmpty else { return head + "\(figure(m.radius)), ratio \(figure(m.ratio))" }
        return head + m.classes.sorted { $0.key.index < $1.key.index }.map { c, r in
            "\(c.rawValue) \(figure(r.radius))" + (r.prior ? " (the corpus's prior)" : r.ratio < 1 ? " (ratio \(figure(r.ratio)))" : "")
        }.joined(separator: ", ")
    }
}

/// Reads and writes this home's fit (`HomeFit`'s text form): `home-fit.txt` beside the home
/// memory (`beside`), a file of its own so that either can be refused alone: a damaged fit
/// leaves the memory in force, and the shipped scores decide every class.
public enum HomeFitFile {
    /// The cap on a fit file: one line per class and a few of meta take a few kB.
    public static let maxBytes = 64 << 10

    /// The fit of the home memory at `memory`: `home-fit.txt` in its directory, or, for a
    /// memory named otherwise (`--home-rules FILE`, `--output FILE`), FILE's name with
    /// `.fit` before its extension (`night.txt` → `night.fit.txt`).
    public static func beside(_ memory: String) -> String {
        let slash = memory.lastIndex(of: "/")
        let dir = slash.map { String(memory[...$0]) } ?? ""
        let name = slash.map { String(memory[memory.index(after: $0)...]) } ?? memory
        if name == "home-memory.txt" { return dir + "home-fit.txt" }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return dir + name[..<dot] + ".fit" + name[dot...]
        }
        return dir + name + ".fit"
    }

    public static func read(path: String) throws(HomeMemoryFile.Error) -> HomeFit {
        let text = try HomeMemoryFile.text(path, of: "home fit", maxBytes: maxBytes, cap: "\(maxBytes >> 10) kB")
        do { return try HomeFit(text: text) } catch {
            throw HomeMemoryFile.Error(description: "\(LogText.escape(path)): \(LogText.escape(error.description))")
        }
    }

    /// The fit beside the memory at `memory`, when there is anything at that path (read, and
    /// refused by name when it cannot be); nil when there is none.
    public static func readBeside(_ memory: String) throws(HomeMemoryFile.Error) -> HomeFit? {
        let path = beside(memory)
        guard HomeMemoryFile.present(path) else { return nil }
        return try read(path: path)
    }

    /// Writes `fit` whole, as `HomeMemoryFile.write` writes a memory.
    public static func write(_ fit: HomeFit, to path: String) throws(HomeMemoryFile.Error) {
        if let failure = replaceContents(of: path, with: Array(fit.text.utf8), durable: true) {
            throw HomeMemoryFile.Error(description: "\(LogText.escape(failure.path)): cannot write the home fit: \(String(cString: strerror(failure.errno)))")
        }
    }

    /// What the fit decides, in words: "this home's fit decides cough (+1.2, from 14 marks),
    /// door (+0.4 and from what is heard as cough, from 5 marks); the shipped rules the rest,
    /// learned 2026-11-22 at 12:00",
    /// or that it decides nothing yet.
    public static func said(_ fit: HomeFit) -> String {
        let used = fit.classes.filter { $0.used || $0.layer?.used == true }
        let when = fit.learned.flatMap(WallClock.parse).map { ", learned \(WallClock.localDate($0)) at \(WallClock.localTime($0))" } ?? ""
        guard !used.isEmpty else {
            return "this home's fit decides no class yet: on the held-out marks none did better than the shipped rules\(when)"
        }
        let classes = used.map { f in
            var how: [String] = []
            if f.used { how.append("+\(JSONValue.format((f.shift * 100).rounded() / 100))") }
            if let l = f.layer, l.used {
                how.append("from what is heard as " + l.inputs.dropFirst().map { $0.rawValue.replacing("_", with: " ") }.joined(separator: " or "))
            }
            return "\(f.soundClass.rawValue.replacing("_", with: " ")) (\(how.joined(separator: " and ")), from \(f.marks) marks)"
        }
        return "this home's fit decides " + classes.joined(separator: ", ") + "; the shipped rules the rest" + when
    }
}
