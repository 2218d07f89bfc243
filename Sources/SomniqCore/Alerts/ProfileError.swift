/// A profile that cannot be used: which file, which key, and what is wrong with it.
///
///     night.json: classes.snoring.off: 0.8 is above on (0.7)
public struct ProfileError: FieldError, Equatable, CustomStringConvertible {
    public var file: String
    public var keyPath: String
    public var problem: String

    public init(file: String, keyPath: String, problem: String) {
        self.file = file
        self.keyPath = keyPath
        self.problem = problem
    }

    public var description: String {
        keyPath.isEmpty ? "\(file): \(problem)" : "\(file): \(keyPath): \(problem)"
    }
}
