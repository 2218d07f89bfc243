extension Profile {
    /// Names of the built-in profiles, mildest to most eager.
    public static var builtinNames: [String] { builtinTexts.map(\.name) }

    /// The built-in profile `name`, or nil.
    public static func builtin(_ name: String) -> Profile? {
        guard let text = builtinTexts.first(where: { $0.name == name })?.text else { return nil }
        // The built-ins are checked by the test suite; a failure here is a build defect.
        return try! Profile(json: text, file: "\(name) (built-in)")
    }

    /// The default profile.
    public static var balanced: Profile { builtin("balanced")! }
}
