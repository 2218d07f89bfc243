import Foundation
@testable import SomniqSupport
import Testing

/// `String(cFormat:)`, which stands in for Foundation's `String(format:)` (the binary does
/// not link full Foundation), formats every kind of conversion somniq uses exactly as
/// Foundation does: integers with widths and zero padding, fixed and general floats with
/// signs and widths, text, and `%%`.
@Test(arguments: [
    ("%d:%02d:%02d.%d", [7, 5, 9, 3] as [Int]),
    ("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", [2026, 11, 24, 3, 12, 58, 7]),
    ("%lld samples", [-12_345_678_901]),
])
func integersAreFormattedAsFoundationFormatsThem(format: String, values: [Int]) {
    let ours = String(cFormat: format, arguments: values.map { $0 as any CFormatArgument })
    let foundation = String(format: format, arguments: values.map { $0 as CVarArg })
    #expect(ours == foundation)
}

@Test(arguments: [0.0, -0.0, 0.05, 0.125, 2.5, -3.75, 59.999, 1e-9, 123_456.789, -1e21, .infinity, .nan])
func floatsAreFormattedAsFoundationFormatsThem(x: Double) {
    for format in ["%.0f", "%.1f", "%.2f", "%.3f s", "%+.1f", "%+.2f s", "%7.2f s  %5.1f %%", "%6.0f× real time",
                   "%08.1fs", "\t%.9g", "%.0f %%"] {
        let values: [Double] = format.contains("%5.1f") ? [x, x / 3] : [x]
        let ours = String(cFormat: format, arguments: values.map { $0 as any CFormatArgument })
        let foundation = String(format: format, arguments: values.map { $0 as CVarArg })
        #expect(ours == foundation, "\(format) of \(x)")
    }
    let f = Float(x)
    #expect(String(cFormat: "\t%.9g", f) == String(format: "\t%.9g", f), "a Float goes as a Double, as to Foundation")
}

@Test func textGoesInForAnAt() {
    #expect(String(cFormat: "%08.1fs_%@_%@.flac", 83.25, "snoring", "e12") == "000083.2s_snoring_e12.flac")
    #expect(String(cFormat: "%d clip%@, %.1f MB", 2, "s", 1.25) == String(format: "%d clip%@, %.1f MB", 2, "s", 1.25))
    #expect(String(cFormat: "snoring %@ (%.0f %% of the night)", "1:02:03", 38.4) == "snoring 1:02:03 (38 % of the night)")
}
