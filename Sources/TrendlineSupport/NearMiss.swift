/// The candidate closest to `word` by edit distance (ignoring case), if it is close enough to be
/// a typo: at most a third of the word's length, and at least 2, so `smoht` finds `smooth` and
/// the swapped letters of `prase` find `parse`.
///
/// The one rule behind every "Did you mean" Trendline prints, for commands, flags, stages, keys
/// and values alike, so a typo is caught the same way wherever it is made. Ties go to the
/// candidate listed first.
///
/// - Complexity: O(*c* × *w* × *l*) for *c* candidates of length *l* and a word of length *w*.
public func nearMiss(_ word: String, in candidates: [String]) -> String? {
  func distance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
  let limit = max(2, word.count / 3)
  let lowered = Array(word.lowercased())
  var best: (candidate: String, distance: Int)?
  for candidate in candidates {
    let d = distance(lowered, Array(candidate.lowercased()))
    if d <= limit && d < (best?.distance ?? Int.max) { best = (candidate, d) }
  }
  return best?.candidate
}

/// What to tell a user who wrote `word` where one of `candidates` belongs: the near miss when
/// there is one, because it is almost surely the fix; otherwise every valid choice.
///
/// - Complexity: that of ``nearMiss(_:in:)``.
public func suggestion(_ word: String, in candidates: [String], noun: String) -> String {
  if let near = nearMiss(word, in: candidates) { return "Did you mean '\(near)'?" }
  return "Valid \(noun): \(candidates.joined(separator: ", "))"
}
