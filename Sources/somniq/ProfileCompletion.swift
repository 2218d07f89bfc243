import ArgumentParser
import SomniqConfig

extension CompletionKind {
    /// The profiles `--profile` can name, listed when the user presses TAB (the shell asks
    /// `somniq ---completion`): the built-ins and the files in the profile directory, which
    /// is `--profile-dir` if the command line being completed gives one. `extra` are other
    /// words the option takes, such as eval's `all`.
    static func profiles(plus extra: [String] = []) -> CompletionKind {
        .custom { words, _, _ in
            extra + ProfileLoader(directory: profileDirectory(in: words)).available().map(\.name)
        }
    }
}

private func profileDirectory(in words: [String]) -> String {
    var directory = ProfileLoader().directory
    for (i, word) in words.enumerated() {
        if word == "--profile-dir", i + 1 < words.count {
            directory = words[i + 1]
        } else if word.hasPrefix("--profile-dir=") {
            directory = String(word.dropFirst("--profile-dir=".count))
        }
    }
    return directory
}
