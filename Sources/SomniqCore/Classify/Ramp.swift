/// Soft threshold: 0 at or below `low`, 1 at or above `high`, linear between.
/// (With `low > high` it falls instead of rising.)
@inline(__always) func ramp(_ x: Float, _ low: Float, _ high: Float) -> Float {
    let t = (x - low) / (high - low)
    return t < 0 ? 0 : (t > 1 ? 1 : t)
}

/// 1 inside [low, high], falling linearly to 0 over `soft` outside it.
@inline(__always) func band(_ x: Float, _ low: Float, _ high: Float, soft: Float) -> Float {
    if x < low { return ramp(x, low - soft, low) }
    if x > high { return ramp(x, high + soft, high) }
    return 1
}

/// Rising over a range: 0 at or below its lower bound, 1 at or above its upper bound.
@inline(__always) func ramp(_ x: Float, up r: ClosedRange<Float>) -> Float {
    ramp(x, r.lowerBound, r.upperBound)
}

/// Falling over a range: 1 at or below its lower bound, 0 at or above its upper bound.
@inline(__always) func ramp(_ x: Float, down r: ClosedRange<Float>) -> Float {
    ramp(x, r.upperBound, r.lowerBound)
}

/// 1 inside the range, falling linearly to 0 over `soft` outside it.
@inline(__always) func band(_ x: Float, _ r: ClosedRange<Float>, soft: Float) -> Float {
    band(x, r.lowerBound, r.upperBound, soft: soft)
}
