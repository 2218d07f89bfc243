import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqConfig
import SomniqCore
import SomniqSupport

struct Clips: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clips",
        abstract: "List or delete the clips kept of alerted events.",
        discussion: """
        With "clips": {"enabled": true} in config.json, the daemon keeps a FLAC clip of each \
        alerted event at or above min_tier (high), and of each this home's memory held back \
        (so that it can be heard and marked right), from pre_s (5) before it to post_s (3) \
        after it, at most max_s (60; a longer event keeps its first and its loudest \
        half), in clips/ beside the event log \
        (/var/lib/somniq/clips), mode 0640. Speech and laughter are never kept unless named \
        in "classes". Past max_mb (500), the clips of events labelled and already remembered \
        in this home's memory (somniq learn --home) are deleted first, then the oldest; past \
        max_age_days (14), any.
        """,
        subcommands: [List.self, Purge.self])

    /// The clips directory: --dir, else the configuration's.
    struct Place: ParsableArguments {
        @Option(help: "The clips directory (default: the configuration's, clips/ beside its log).", completion: .directory)
        var dir: String?

        @Option(help: "Configuration file (default /etc/somniq/config.json, when it exists).", completion: .file())
        var config: String?

        func store() throws -> ClipStore {
            if let dir { return ClipStore(directory: dir) }
            do { return ClipStore(directory: try DaemonConfig.inForce(path: config).config.clipsDirectory) } catch {
                throw fail("\(error)", Exit.dataError)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the clips, oldest first: night, size, file.")

        @OptionGroup var place: Place

        @Option(help: ArgumentHelp("Only the clips of this night (noon to noon, local time).", valueName: "2026-11-22"))
        var night: String?

        func run() throws {
            let store = try place.store()
            var clips = store.entries()
            if let night { clips = clips.filter { ClipStore.night(ofName: $0.name) == night } }
            guard !clips.isEmpty else {
                print(LogText.escape("no clips in \(store.directory)" + (night.map { " for the night of \($0)" } ?? "")))
                return
            }
            for c in clips {
                let n = ClipStore.night(ofName: c.name) ?? "-"
                print(LogText.escape(String(cFormat: "%@  %7.1f KB  %@", n, Double(c.bytes) / 1000, store.path(c.name))))
            }
            let total = clips.reduce(Int64(0)) { $0 + $1.bytes }
            print(String(cFormat: "%d clip%@, %.1f MB", clips.count, clips.count == 1 ? "" : "s", Double(total) / 1_000_000))
        }

        func validate() throws {
            if let night, WallClock.parse(night + "T12:00") == nil {
                throw ValidationError("--night: \"\(LogText.escape(night))\" is not a date like 2026-11-22")
            }
        }
    }

    struct Purge: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "purge", abstract: "Delete every clip.")

        @OptionGroup var place: Place

        func run() throws {
            let store = try place.store()
            let n = store.purge()
            print(LogText.escape("deleted \(n) clip\(n == 1 ? "" : "s") from \(store.directory)"))
        }
    }
}
