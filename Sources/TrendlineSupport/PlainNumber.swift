/// `0.5`, `0.25`, `1`: a number as a person writes it in a pipeline file, with no trailing `.0`,
/// for the lines `validate` prints.
///
/// - Complexity: O(1).
public func plainNumber(_ value: Double) -> String {
  value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
