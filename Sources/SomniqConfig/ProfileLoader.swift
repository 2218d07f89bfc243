import FoundationEssentials
import Glibc
import SomniqCore
import SomniqSupport

/// Finds profiles by name or path: a path (anything with a `/` or ending in `.json`)
/// is read as is; a name is looked up in the profile directory
/// (`/etc/somniq/profiles/NAME.json`), then among the built-ins.
///
/// A profile's `"extends"` is found the same way, with a relative path taken from the
/// directory of the file that names it. A file in the profile directory that extends its
/// own name (`/etc/somniq/profiles/balanced.json` extending `balanced`) starts from the
/// built-in of that name: that is how a built-in is adjusted in place.
public struct ProfileLoader: Sendable {
    public var directory: String

    /// Parents a profile may stack up, a bound on what a person would write by hand.
    public static let maxDepth = 8

    public init(directory: String = "/etc/somniq/profiles") {
        self.directory = directory
    }

    public func load(_ nameOrPath: String) throws(ProfileError) -> Profile {
        if let found = find(nameOrPath, from: nil) { return try found.get(self, chain: []) }
        throw ProfileError(file: nameOrPath, keyPath: "",
                           problem: "no such profile (built-in profiles: \(Profile.builtinNames.joined(separator: ", ")); or give a path to a .json file)")
    }

    /// Reads and validates a profile file, and the profiles it extends.
    public func read(path: String) throws(ProfileError) -> Profile {
        try read(path: path, chain: [])
    }

    /// Reads and validates a profile file with the default profile directory.
    public static func read(path: String) throws(ProfileError) -> Profile {
        try ProfileLoader().read(path: path)
    }

    private enum Found {
        case builtin(Profile), file(String)
        func get(_ loader: ProfileLoader, chain: [String]) throws(ProfileError) -> Profile {
            switch self {
            case let .builtin(p): p
            case let .file(path): try loader.read(path: path, chain: chain)
            }
        }
    }

    private static func isPath(_ s: String) -> Bool { s.contains("/") || s.hasSuffix(".json") }

    /// What `reference` names, seen from the profile file `child` (nil: the command line).
    private func find(_ reference: String, from child: String?) -> Found? {
        if Self.isPath(reference) {
            guard let child, !reference.hasPrefix("/") else { return .file(reference) }
            return .file(PathText.appending(PathText.deletingLastComponent(child), reference))
        }
        let candidate = PathText.appending(directory, "\(reference).json")
        let isChildItself = child.map { Self.identity($0) == Self.identity(candidate) } ?? false
        if !isChildItself, FileManager.default.fileExists(atPath: candidate) { return .file(candidate) }
        return Profile.builtin(reference).map { .builtin($0) }
    }

    /// A file's identity for cycle detection: its resolved path where it exists.
    private static func identity(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }

    private func read(path: String, chain: [String]) throws(ProfileError) -> Profile {
        let bytes: [UInt8]
        switch TextFile.read(path, what: "a profile (.json)") {
        case let .success(b): bytes = b
        case let .failure(e): throw ProfileError(file: path, keyPath: "", problem: e.problem)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ProfileError(file: path, keyPath: "", problem: "is not UTF-8 text")
        }
        let chain = chain + [Self.identity(path)]
        return try Profile(json: text, file: path) { reference throws(ProfileError) in
            guard let found = find(reference, from: path) else {
                throw ProfileError(file: path, keyPath: "extends",
                                   problem: "no profile \"\(reference)\" (built-in profiles: \(Profile.builtinNames.joined(separator: ", ")); profiles in \(directory); or a path to a .json file, relative to this one)")
            }
            if case let .file(parent) = found {
                if chain.contains(Self.identity(parent)) {
                    throw ProfileError(file: path, keyPath: "extends",
                                       problem: "\"\(reference)\" extends this profile again (a cycle: \((chain + [Self.identity(parent)]).joined(separator: " → ")))")
                }
                guard chain.count < Self.maxDepth else {
                    throw ProfileError(file: path, keyPath: "extends",
                                       problem: "more than \(Self.maxDepth) profiles deep; extend a profile nearer the built-ins")
                }
            }
            return try found.get(self, chain: chain)
        }
    }

    /// The profiles `specs` name, in order; `all` stands for every profile `available()`
    /// lists. A profile named twice is kept once; two different profiles may not share a
    /// name, since results are shown by name.
    public func load(each specs: [String]) throws(ProfileError) -> [Profile] {
        var out: [(profile: Profile, from: String)] = []
        for spec in specs {
            let found: [(Profile, String)]
            if spec == "all" {
                var listed: [(Profile, String)] = []
                for (name, origin) in available() { listed.append((try load(origin == "built-in" ? name : origin), origin)) }
                found = listed
            } else {
                found = [(try load(spec), spec)]
            }
            for (p, from) in found {
                if let same = out.first(where: { $0.profile.name == p.name }) {
                    guard same.profile.sha256 == p.sha256 else {
                        throw ProfileError(file: from, keyPath: "name",
                                           problem: "\"\(p.name)\" is also the name of \(same.from); give one of them another name to compare them")
                    }
                    continue
                }
                out.append((p, from))
            }
        }
        return out.map(\.profile)
    }

    /// Every profile a user can name: built-ins and files in the directory.
    public func available() -> [(name: String, origin: String)] {
        var out = Profile.builtinNames.map { (name: $0, origin: "built-in") }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for file in files.sorted() where file.hasSuffix(".json") {
            let name = String(file.dropLast(5))
            out.removeAll { $0.name == name }
            out.append((name: name, origin: PathText.appending(directory, file)))
        }
        return out
    }
}
