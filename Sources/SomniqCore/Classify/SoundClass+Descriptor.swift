extension SoundClass {
    /// Everything about a class besides its rule, in one entry: its line in classes/classes.tsv,
    /// which `descriptor` is made from at build time. The lists the classifier, the learned
    /// rules, the profiles' warnings and the evaluation use are derived from these
    /// (docs/ARCHITECTURE.md, "How to add… a class").
    public struct Descriptor: Sendable, Equatable {
        /// The tier it has unless a profile moves it (docs/behaviour.md#classes-and-tiers).
        public var tier: Tier
        /// How long an event of the class usually lasts, seconds: what a profile's rule must
        /// be able to confirm (`Profile.warnings`).
        public var usualSeconds: Double
        /// Decided `Classifier.trainDelay` windows after the others, once the rhythm of its
        /// train is known (`Classifier.trainClasses`).
        public var train = false
        /// A burst that stands out of the room at its first window: its learned score needs
        /// the window to be novel (`Classifier.short`), and a familiar one opens nothing.
        public var short = false
        /// A familiar sound opens no event of it (`Classifier.habituated`): the short
        /// classes and thunder (the trains are habituated by their rhythm).
        public var habituated = false
        /// A learned rule may decide it (`LearnedRules.candidates`, and `tools/learn/train.py`'s
        /// CANDIDATES, which scripts/classes.sh writes). Changing this changes the learned
        /// rules' inputs and the trainer: re-fit them.
        public var learned = false
        /// Derived from another class's pattern, never labelled (`Evaluator.labels`).
        public var derived = false
        /// The hook the alert processor asks where the class's events begin and end
        /// (`AlertHook`), if any: the smoke alarm's, `alarmSpan`.
        public var hook: AlertHookKind?
    }

    // The descriptors are classes/classes.tsv's lines (`descriptor` is made from them at build
    // time). Figures for its `usual_s` are the sound's physics, checked against the `tune/` labels
    // (median in brackets) and never longer than them:
    // - a door slam or breaking glass is an impulse that a bedroom's reverberation
    //   (RT60 0.3–0.5 s) ends within half a second [0.54, 0.70 s];
    // - one bark, one cough, one gasp: a single expulsion or inhalation, 0.2–0.6 s
    //   [0.54, 1.44, 1.12 s];
    // - a scream or a laugh: one exhalation of voice, about a second [1.86, 1.32 s];
    // - a phone rings in a cadence (2 s on, 4 s off in North America), a baby cries in
    //   bouts of 1–1.5 s cries, thunder rumbles 3–10 s, a remark is a few seconds of
    //   speech: about 5 s [5.62, 4.68, 6.44, 6.86 s];
    // - a smoke alarm sounds until it is silenced, and snoring, breathing and music go on
    //   for minutes: 10 s is a short spell [10.66, 33.5, 21.3, 10.76 s];
    // - a breathing pause is marked at one frame, where breathing resumes;
    // - a smoke alarm chirps for a low battery until the battery is changed (days), and its
    //   event lasts at least the 75 s a third chirp may take to come (`ChirpTrain`): 60 s.

    /// The classes whose descriptor has `property`, in `allCases` order.
    public static func all(_ property: KeyPath<Descriptor, Bool>) -> [SoundClass] {
        allCases.filter { $0.descriptor[keyPath: property] }
    }
}
