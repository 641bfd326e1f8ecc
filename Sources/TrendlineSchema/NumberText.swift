/// How every number Trendline writes for a reader that parses it is spelled — the JSON outputs,
/// the CSV tables, `parse`'s rows and `validate`'s settings: a whole value below 2⁵³ as an
/// integer (`3`, `-12`, `0` for −0), any other in the shortest form that reads back as the same
/// `Double` (`82.5`, `0.1`, `1e+300`). One rule, so `3` in a chart is `3` in its table and in
/// `validate`, never `3.0` in one of them.
///
/// A number a person reads in a chart or a read-out is ``ShownNumber``'s, rounded for the eye.
public enum NumberText {
  /// 2⁵³: every whole value below it is exact in a `Double` and in an `Int64`.
  public static let exactIntegerLimit = 9_007_199_254_740_992.0

  /// Whether `value` is written as an integer.
  ///
  /// - Complexity: O(1).
  @inlinable public static func isWhole(_ value: Double) -> Bool {
    value == value.rounded() && abs(value) < exactIntegerLimit
  }

  /// `value`'s text; the caller keeps out NaN and ±infinity, which no reader parses as numbers.
  ///
  /// - Complexity: O(1).
  public static func text(_ value: Double) -> String {
    isWhole(value) ? String(Int64(value)) : value.description
  }
}
