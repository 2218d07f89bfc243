import Foundation
import SomniqCore

/// Reads a file of learned rules (`rules/learned.txt`'s format, `LearnedRules.init(text:)`),
/// for trying rules re-fitted on other recordings without rebuilding somniq.
public enum LearnedRulesFile {
    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    /// The cap on a rules file: the shipped one is well under 2 MiB.
    public static let maxBytes = 16 << 20

    public static func read(path: String, use: LearnedRules.Use) throws(Error) -> LearnedRules {
        let name = LogText.escape(path)
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Error(description: "\(name): cannot open the learned rules: \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: maxBytes + 1) ?? Data() } catch {
            throw Error(description: "\(name): cannot read the learned rules: \((error as NSError).localizedDescription)")
        }
        guard data.count <= maxBytes else { throw Error(description: "\(name): larger than \(maxBytes >> 20) MiB: not a file of learned rules") }
        guard let text = String(data: data, encoding: .utf8) else { throw Error(description: "\(name): not UTF-8 text: not a file of learned rules") }
        do { return try LearnedRules(text: text, use: use) } catch {
            throw Error(description: "\(name): \(LogText.escape(error.description))")
        }
    }
}
