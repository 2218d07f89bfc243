import RealModule

// The elementary functions the generator uses, from swift-numerics (as SomniqCore takes
// them): pure Swift, no Foundation, no C library imported here.
@inline(__always) func sin(_ x: Double) -> Double { .sin(x) }
@inline(__always) func cos(_ x: Double) -> Double { .cos(x) }
@inline(__always) func sinh(_ x: Double) -> Double { .sinh(x) }
@inline(__always) func exp(_ x: Double) -> Double { .exp(x) }
@inline(__always) func log(_ x: Double) -> Double { .log(x) }
@inline(__always) func log10(_ x: Double) -> Double { .log10(x) }
@inline(__always) func pow(_ x: Double, _ y: Double) -> Double { .pow(x, y) }
@inline(__always) func sqrt(_ x: Double) -> Double { x.squareRoot() }

/// `x` with `decimals` digits after the point, rounded half away from zero (as `%.Nf`
/// prints it, but for ties); `sign` puts a `+` before a positive value.
func fixed(_ x: Double, _ decimals: Int, sign: Bool = false) -> String {
    guard x.isFinite else { return "\(x)" }
    var scale: Int64 = 1
    for _ in 0..<decimals { scale *= 10 }
    let m = Int64((abs(x) * Double(scale)).rounded())
    var text = "\(m / scale)"
    if decimals > 0 {
        let fraction = "\(m % scale)"
        text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
    if x < 0 && m != 0 { return "-" + text }
    return (sign ? "+" : "") + text
}
