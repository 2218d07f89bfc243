import Foundation
import SomniqCore

/// Finds profiles by name or path: a path (anything with a `/` or ending in `.json`)
/// is read as is; a name is looked up in the profile directory
/// (`/etc/somniq/profiles/NAME.json`), then among the built-ins.
public struct ProfileLoader: Sendable {
    public var directory: String

    public init(directory: String = "/etc/somniq/profiles") {
        self.directory = directory
    }

    public func load(_ nameOrPath: String) throws(ProfileError) -> Profile {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") {
            return try Self.read(path: nameOrPath)
        }
        let candidate = (directory as NSString).appendingPathComponent("\(nameOrPath).json")
        if FileManager.default.fileExists(atPath: candidate) { return try Self.read(path: candidate) }
        if let builtin = Profile.builtin(nameOrPath) { return builtin }
        throw ProfileError(file: nameOrPath, keyPath: "",
                           problem: "no such profile (built-in profiles: \(Profile.builtinNames.joined(separator: ", ")); or give a path to a .json file)")
    }

    /// Reads and validates a profile file.
    public static func read(path: String) throws(ProfileError) -> Profile {
        let bytes: [UInt8]
        switch TextFile.read(path, what: "a profile (.json)") {
        case let .success(b): bytes = b
        case let .failure(e): throw ProfileError(file: path, keyPath: "", problem: e.problem)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ProfileError(file: path, keyPath: "", problem: "is not UTF-8 text")
        }
        return try Profile(json: text, file: path)
    }

    /// Every profile a user can name: built-ins and files in the directory.
    public func available() -> [(name: String, origin: String)] {
        var out = Profile.builtinNames.map { (name: $0, origin: "built-in") }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for file in files.sorted() where file.hasSuffix(".json") {
            let name = String(file.dropLast(5))
            out.removeAll { $0.name == name }
            out.append((name: name, origin: (directory as NSString).appendingPathComponent(file)))
        }
        return out
    }
}
