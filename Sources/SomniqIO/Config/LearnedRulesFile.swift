import FoundationEssentials
import Glibc
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
        guard let file = ReadingFile(path: path) else {
            throw Error(description: "\(name): cannot open the learned rules: \(String(cString: strerror(errno)))")
        }
        let data: [UInt8]
        do { data = try file.read(upToCount: maxBytes + 1) } catch {
            throw Error(description: "\(name): cannot read the learned rules: \(errnoText(error))")
        }
        guard data.count <= maxBytes else { throw Error(description: "\(name): larger than \(maxBytes >> 20) MiB: not a file of learned rules") }
        guard let text = String(data: Data(data), encoding: .utf8) else { throw Error(description: "\(name): not UTF-8 text: not a file of learned rules") }
        do { return try LearnedRules(text: text, use: use) } catch {
            throw Error(description: "\(name): \(LogText.escape(error.description))")
        }
    }
}
