import Testing
@testable import SomniqAudio

/// The transform plans with `FFTW_NO_BUFFERING` beside `FFTW_ESTIMATE`, and from its built-in
/// wisdom where FFTW takes it, because it is cheaper to plan; the plans, and so every output's
/// bits, must be those `FFTW_ESTIMATE` alone makes.
@Suite(.serialized) struct FFTWTransformTests {
    @Test func plansAreThoseOfEstimateAlone() {
        let estimate = FFTWTransform.plans(size: 1024, flags: FFTWTransform.estimate)
        let used = FFTWTransform.plans(size: 1024, flags: FFTWTransform.flags)
        #expect(!estimate.forward.isEmpty && !estimate.inverse.isEmpty)
        #expect(used.forward == estimate.forward && used.inverse == estimate.inverse)
        let transform = FFTWTransform(size: 1024)
        #expect(transform.plans.forward == estimate.forward && transform.plans.inverse == estimate.inverse)
        #expect(FFTWTransform.flags != FFTWTransform.estimate)
    }

    /// The built-in wisdom is taken exactly where it is what this FFTW's planner makes of the
    /// two plans with `FFTWTransform.flags`; where it is taken yet differs, the message is the
    /// wisdom to put in its place. Wisdom refused (another FFTW, another processor) passes:
    /// the plans are searched as before. The transform made after the planner forgot offers
    /// it, as a process's first transform does, and the planner keeps whether it took it.
    /// Serialized: the suite's other test makes the planner forget too.
    @Test func wisdomIsTakenWhereItIsThisPlannersOwn() {
        let fresh = FFTWTransform.plans(size: 1024, flags: FFTWTransform.flags).wisdom
        _ = FFTWTransform(size: 1024)
        let took = FFTWTransform.planner.withLock { $0 }
        #expect(took == (fresh == FFTWTransform.wisdom), "\(fresh)")
    }
}
