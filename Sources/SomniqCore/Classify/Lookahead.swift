/// The windows the classifier has seen but not yet decided: a fixed ring of the
/// newest `capacity` windows with their instantaneous rules, allocated once.
///
/// Some sounds can only be named once a little of what follows is heard: a shout
/// that stops at once is a scream, the same shout followed by more cries is a baby
/// crying. So the classifier decides each window `Classifier.lookahead` windows late,
/// with those later windows in view. Stream times are unaffected (every decision is
/// stamped with its own window's time); only the live alert comes that much later.
typealias Lookahead = Ring<LookaheadEntry>

/// A window waiting in the lookahead, with its instantaneous rules.
struct LookaheadEntry: Sendable {
    var features: WindowFeatures
    var rules: Rules

    static let empty = LookaheadEntry(features: WindowFeatures(), rules: Rules(WindowFeatures()))
}
