import Testing
@testable import SomniqCore

/// The descriptors agree with one another: a class is never put in two roles that exclude
/// each other.
@Test func theDescriptorsAgree() {
    for c in SoundClass.allCases {
        let d = c.descriptor
        #expect(!d.short || d.habituated, "\(c.rawValue): a short class is habituated (a familiar burst opens nothing)")
        #expect(!(d.train && (d.short || d.learned)), "\(c.rawValue): a train is decided by its rhythm, late")
        #expect(!(d.derived && (d.learned || d.train)), "\(c.rawValue): a derived class comes from its pattern alone")
        #expect(d.usualSeconds > 0, "\(c.rawValue)")
    }
}

