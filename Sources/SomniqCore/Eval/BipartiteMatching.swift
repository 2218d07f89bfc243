/// Maximum-cardinality matching in a bipartite graph, by augmenting paths (Kuhn 1955).
/// sed_eval uses Hopcroft–Karp; every maximum matching has the same size, which is all
/// the metrics need.
enum BipartiteMatching {
    /// Size of a maximum matching; `adjacency[u]` lists the right vertices (`0..<rightCount`)
    /// joined to left vertex `u`. The search is iterative, so long event lists cannot
    /// exhaust the stack.
    static func maximumSize(adjacency: [[Int]], rightCount: Int) -> Int {
        var leftOfRight = [Int](repeating: -1, count: rightCount)
        var visitedBy = [Int](repeating: -1, count: rightCount)    // root of the last search to visit
        var size = 0
        for root in adjacency.indices where !adjacency[root].isEmpty {
            var stack: [(left: Int, nextEdge: Int)] = [(root, 0)]
            var path: [Int] = []          // path[k]: right vertex taken from stack[k]
            search: while let top = stack.last {
                let (u, edge) = (top.left, top.nextEdge)
                guard edge < adjacency[u].count else {
                    stack.removeLast()
                    if !stack.isEmpty { path.removeLast() }
                    continue
                }
                stack[stack.count - 1].nextEdge += 1
                let v = adjacency[u][edge]
                guard visitedBy[v] != root else { continue }
                visitedBy[v] = root
                path.append(v)
                if leftOfRight[v] < 0 {
                    for (k, right) in path.enumerated() { leftOfRight[right] = stack[k].left }
                    size += 1
                    break search
                }
                stack.append((leftOfRight[v], 0))
            }
        }
        return size
    }
}
