import Foundation
import PackagePlugin

/// Brings the data somniq carries into its core at build time, from the one copy in the
/// repository: the built-in profiles (`profiles/*.json`) and the learned rules
/// (`rules/learned.txt`, written by the trainer) become Swift sources in the build's own
/// directory (`.build/plugins/outputs/…`), never checked in. `/bin/sh` runs the scripts
/// that write them (`scripts/embed-profiles.sh`, `scripts/embed-learned-rules.sh`), so no
/// tool is built for the host first.
@main
struct EmbedData: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let out = context.pluginWorkDirectoryURL
        let profiles = ["very_conservative", "conservative", "balanced", "sensitive", "very_sensitive"]
            .map { root.appending(path: "profiles/\($0).json") }
        let rules = root.appending(path: "rules/learned.txt")
        let embedProfiles = root.appending(path: "scripts/embed-profiles.sh")
        let embedRules = root.appending(path: "scripts/embed-learned-rules.sh")
        return [
            .buildCommand(displayName: "Embedding profiles/*.json", executable: URL(filePath: "/bin/sh"),
                          arguments: [embedProfiles.path(), out.appending(path: "BuiltinProfiles.swift").path()],
                          inputFiles: profiles + [embedProfiles],
                          outputFiles: [out.appending(path: "BuiltinProfiles.swift")]),
            .buildCommand(displayName: "Embedding rules/learned.txt", executable: URL(filePath: "/bin/sh"),
                          arguments: [embedRules.path(), out.appending(path: "BuiltinLearnedRules.swift").path()],
                          inputFiles: [rules, embedRules],
                          outputFiles: [out.appending(path: "BuiltinLearnedRules.swift")]),
        ]
    }
}
