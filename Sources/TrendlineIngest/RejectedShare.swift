/// Fails a user whose export is mostly unreadable (SPEC 11.2).
///
/// A file whose dates are in a language not read, or whose columns belong to another app,
/// rejects most of its rows; its user's charts would then show the rest of the history as
/// months without training, under exit 0. Past `source.limits.maxRejectedShare` of one file's
/// rows, the user fails with what a person needs to act: the file, the share, and the commonest
/// reasons, each with a line to look at.
///
/// The share is of a file's rows that could be sets — accepted, rejected or duplicate — not of
/// its ignored rows (blank lines, Strong's rest-timer rows, JEFIT's sections not read,
/// Liftosaur's planned sets): a file of which every set row is rejected would otherwise pass
/// when enough of its other rows are ignored, and padding could dilute any file. Files are
/// judged one by one: one good export beside an unreadable one does not hide it.
///
/// It deliberately judges rows, not sets: a rejected row is what the file says and Trendline
/// could not read, whatever it would have held.
public enum RejectedShare {
  /// SPEC 11.2's default: one row in twenty.
  public static let defaultLimit = 0.05

  /// The commonest reasons listed in a failure; the rest are in `row-outcomes.csv`.
  static let reasonsListed = 3

  /// Why the user of `files` fails because one file's rejected share is over `limit`, or nil
  /// when every file is within it. The first such file (in the given order) is named.
  ///
  /// - Complexity: O(*n*), where *n* is the number of notes.
  public static func problem(files: [FileAccounting], notes: [RowNote], limit: Double) -> String? {
    for file in files {
      let rows = file.rows.read - file.rows.ignored
      let rejected = file.rows.rejected
      guard rows > 0, rejected > 0, Double(rejected) > limit * Double(rows) else { continue }
      let reasons = commonestReasons(notes.lazy.filter { $0.file == file.file && $0.outcome == .rejected })
      return
        "\(file.file): \(percent(rejected, of: rows)) of its rows are rejected (\(rejected) of \(rows)), over "
        + "source.limits.maxRejectedShare \(limit); the commonest reasons: \(reasons); "
        + "see row-outcomes.csv for every row, fix or re-export the file, or raise the limit in the pipeline"
    }
    return nil
  }

  /// The reasons rejecting the most rows, most first, each with its count and the first line
  /// it rejects. Reasons are grouped by their shape, the quoted values left out: every
  /// `'30 abr 2024, 19:25' is not a date and time` is one reason, not one per date.
  ///
  /// - Complexity: O(*r* log *r*), where *r* is the number of rejected rows.
  static func commonestReasons<Notes: Sequence<RowNote>>(_ rejects: Notes) -> String {
    var groups: [String: (count: Int, first: RowNote)] = [:]
    var order: [String] = []
    for note in rejects {
      let key = note.field + "\u{0}" + shape(of: note.reason)
      if let group = groups[key] {
        groups[key] = (group.count + 1, group.first)
      } else {
        groups[key] = (1, note)
        order.append(key)
      }
    }
    // Ties keep the order of first appearance, so the message is the same on every run.
    let ranked = order.enumerated().sorted { a, b in
      let (countA, countB) = (groups[a.element]!.count, groups[b.element]!.count)
      return countA != countB ? countA > countB : a.offset < b.offset
    }
    return ranked.prefix(reasonsListed).map { _, key in
      let (count, first) = groups[key]!
      let field = first.field.isEmpty ? "" : "\(first.field): "
      return "\(field)\(first.reason) (\(count) row\(count == 1 ? "" : "s"), first at line \(first.line))"
    }.joined(separator: "; ")
  }

  /// `reason` with each quoted value replaced by `…`.
  ///
  /// - Complexity: O(*m*), where *m* is the length of the reason.
  static func shape(of reason: String) -> String {
    var result = ""
    var quoted = false
    for character in reason {
      if character == "'" {
        if !quoted { result.append("'…") } else { result.append("'") }
        quoted.toggle()
      } else if !quoted {
        result.append(character)
      }
    }
    return result
  }

  /// `rejected` of `rows` as a whole percentage, never rounded to 0 % or to 100 % when it is not.
  package static func percent(_ rejected: Int, of rows: Int) -> String {
    let value = (Double(rejected) * 100 / Double(rows)).rounded()
    let shown = rejected < rows ? min(max(value, 1), 99) : 100
    return "\(Int(shown)) %"
  }
}
