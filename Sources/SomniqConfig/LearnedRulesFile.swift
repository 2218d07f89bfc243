import FoundationEssentials
import Glibc
import SomniqCore
import SomniqSupport

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
        // Opened without waiting on a writer, and only a regular file: a FIFO named by
        // --learned-rules would otherwise hold the command forever.
        let file: ReadingFile
        switch ReadingFile.open(path) {
        case let .success(f): file = f
        case let .failure(refusal):
            throw Error(description: "\(name): \(refusal.problem("a file of learned rules (tools/learn/train.py writes one)", failing: "cannot open the learned rules"))")
        }
        let data: [UInt8]
        do { data = try file.read(upToCount: maxBytes + 1) } catch {
            throw Error(description: "\(name): cannot read the learned rules: \(errnoText(error))")
        }
        guard data.count <= maxBytes else { throw Error(description: "\(name): larger than \(maxBytes >> 20) MiB: not a file of learned rules") }
        guard let text = String(validating: data, as: UTF8.self) else { throw Error(description: "\(name): not UTF-8 text: not a file of learned rules") }
        let rules: LearnedRules
        do { rules = try LearnedRules(text: text, use: use) } catch {
            throw Error(description: "\(name): \(LogText.escape(error.description))")
        }
        // The digest the trainer recorded of its classes and trees: a file whose trees were
        // changed after it was written (by hand, or a copy cut short) is refused, not used.
        // A file that records none (written by hand to try a rule) is taken as it is.
        let actual = LearnedRules.bodyDigest(of: text)
        for (key, expected) in rules.header where key == "body_sha256" && expected != actual {
            throw Error(description: "\(name): body_sha256 is \(LogText.escape(expected)), but its classes and trees hash to \(actual): "
                        + "they were changed after tools/learn/train.py wrote them; write the file again with the trainer, or put back the lines that were changed")
        }
        return rules
    }
}
