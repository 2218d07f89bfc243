/// The median interval between consecutive onsets (in windows), 0 with fewer than two.
/// For the few onsets a pattern detector keeps (≤ 8): the gaps are sorted on the stack,
/// so nothing is allocated per window.
func medianInterval(_ starts: [Int]) -> Int {
    guard starts.count >= 2 else { return 0 }
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: starts.count - 1) { gaps in
        for k in 1..<starts.count { gaps[k - 1] = starts[k] - starts[k - 1] }
        for k in 1..<gaps.count {
            var j = k
            while j > 0, gaps[j - 1] > gaps[j] { gaps.swapAt(j - 1, j); j -= 1 }
        }
        return gaps[gaps.count / 2]
    }
}
