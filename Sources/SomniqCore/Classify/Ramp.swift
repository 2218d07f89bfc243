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
