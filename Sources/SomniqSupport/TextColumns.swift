/// Left-aligned columns for terminal tables: `s` padded to `width`, and always at
/// least one space after it.
package func padded(_ s: String, _ width: Int) -> String {
    s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
}
