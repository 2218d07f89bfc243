import Foundation
import PackagePlugin

/// Brings the data somniq carries into its core at build time, from the one copy in the
/// repository: the built-in profiles (`profiles/*.json`), the learned rules
/// (`rules/learned.txt`, written by the trainer) and the sound classes
/// (`classes/classes.tsv`) become Swift sources in the build's own directory
/// (`.build/plugins/outputs/…`), never checked in. `/bin/sh` runs the scripts that write
/// them (`scripts/embed-profiles.sh`, `scripts/embed-learned-rules.sh`,
/// `scripts/embed-classes.sh`; for SomniqReports, which draws and words the classes, only
/// their colours, words and Home Assistant sensors, `scripts/embed-class-looks.sh`), so no
/// tool is built for the host first (a host tool would be built with the fuzz build's
/// sanitizer flags, and fail to link). The rules' binary form
/// (`BuiltinLearnedRulesForm.swift`: their numbers as Floats' bits, so that somniq reads no
/// text at start) is written by `python3` running `scripts/learned-rules-form.py`.
@main
struct EmbedData: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let out = context.pluginWorkDirectoryURL
        if target.name == "SomniqReports" { return [classLooks(root: root, out: out)] }
        let profiles = ["very_conservative", "conservative", "balanced", "sensitive", "very_sensitive"]
            .map { root.appending(path: "profiles/\($0).json") }
        let rules = root.appending(path: "rules/learned.txt")
        let embedProfiles = root.appending(path: "scripts/embed-profiles.sh")
        let embedRules = root.appending(path: "scripts/embed-learned-rules.sh")
        let classes = root.appending(path: "classes/classes.tsv")
        let embedClasses = root.appending(path: "scripts/embed-classes.sh")
        let classesAwk = root.appending(path: "scripts/classes.awk")
        return [
            .buildCommand(displayName: "Embedding profiles/*.json", executable: URL(filePath: "/bin/sh"),
                          arguments: [embedProfiles.path(), out.appending(path: "BuiltinProfiles.swift").path()],
                          inputFiles: profiles + [embedProfiles],
                          outputFiles: [out.appending(path: "BuiltinProfiles.swift")]),
            .buildCommand(displayName: "Embedding rules/learned.txt", executable: URL(filePath: "/bin/sh"),
                          arguments: [embedRules.path(), out.appending(path: "BuiltinLearnedRules.swift").path()],
                          inputFiles: [rules, embedRules],
                          outputFiles: [out.appending(path: "BuiltinLearnedRules.swift")]),
            learnedRulesForm(root: root, out: out),
            // The sound classes (classes/classes.tsv): the enum `SoundClass`, its cases, `index`
            // and descriptors, written by scripts/embed-classes.sh (scripts/classes.awk).
            .buildCommand(displayName: "Making SoundClass from classes/classes.tsv", executable: URL(filePath: "/bin/sh"),
                          arguments: [embedClasses.path(), out.appending(path: "SoundClasses.swift").path()],
                          inputFiles: [classes, embedClasses, classesAwk],
                          outputFiles: [out.appending(path: "SoundClasses.swift")]),
        ]
    }

    /// A class's colour and words (`Palette.swatch`, `EventWords.name`, `one` and `sensor`) from
    /// classes/classes.tsv, written by scripts/embed-class-looks.sh (scripts/classes.awk).
    func classLooks(root: URL, out: URL) -> Command {
        let classes = root.appending(path: "classes/classes.tsv")
        let script = root.appending(path: "scripts/embed-class-looks.sh")
        let awk = root.appending(path: "scripts/classes.awk")
        let looks = out.appending(path: "ClassLooks.swift")
        return .buildCommand(displayName: "Making the classes' colours and words from classes/classes.tsv", executable: URL(filePath: "/bin/sh"),
                             arguments: [script.path(), looks.path()], inputFiles: [classes, script, awk], outputFiles: [looks])
    }

    /// Reads rules/learned.txt into the Swift source of its binary form.
    func learnedRulesForm(root: URL, out: URL) -> Command {
        let rules = root.appending(path: "rules/learned.txt")
        let script = root.appending(path: "scripts/learned-rules-form.py")
        let form = out.appending(path: "BuiltinLearnedRulesForm.swift")
        return .buildCommand(displayName: "Reading rules/learned.txt into its binary form", executable: URL(filePath: "/usr/bin/env"),
                             arguments: ["python3", script.path(), rules.path(), form.path()],
                             inputFiles: [rules, script], outputFiles: [form])
    }
}
