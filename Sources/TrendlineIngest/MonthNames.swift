import Foundation

/// Month names in every language Foundation's locale data has, for dates that spell their
/// month (Hevy's `30 abr 2024, 19:25`, SPEC 11.1).
///
/// Hevy writes the month in the phone's language. A name is compared without case, accents
/// or a trailing period (`Mai`, `mai.` and `MAI` are one name), and an abbreviation of at least
/// three letters that begins exactly one month's name also reads (Hevy's Spanish `sep` where
/// the locale data has `sept`, Portuguese `Set` for `set.`).
///
/// It deliberately holds no hand-written names: every spelling comes from the locale data,
/// the short and full forms, in format and stand-alone use, of every locale of a language.
/// A spelling that names two months in one language (none is known) is left out of it rather
/// than guessed. Languages are built once per process, and only when a file needs one other
/// than English: all of them take about 0.3 s.
public enum MonthNames {
  /// One language's month names: normalized spelling → month, 1…12.
  public struct Language: Sendable, Equatable {
    /// The ISO 639 code, `es`.
    public let code: String
    let spellings: [String: Int]

    /// The language's English name (`Spanish`), for messages.
    public var name: String { Locale(identifier: "en").localizedString(forLanguageCode: code) ?? code }

    /// The three-letter ASCII tokens that name a month, each once, in month order.
    var threeLetterASCII: [(spelling: String, month: Int)] {
      let starts = Set(
        spellings.keys.filter { $0.utf8.count >= 3 && $0.utf8.allSatisfy { $0 < 0x80 } }.map {
          String($0.prefix(3))
        })
      return starts.compactMap { start in month(start).map { (start, $0) } }.sorted {
        ($0.month, $0.spelling) < ($1.month, $1.spelling)
      }
    }

    /// The month `token` names (already ``normalized(_:)``): a spelling of one month, or the
    /// start of exactly one month's spellings when at least three letters long.
    ///
    /// - Complexity: O(1) for a whole spelling, else O(*s*) for the language's *s* spellings.
    public func month(_ token: String) -> Int? {
      if let month = spellings[token] { return month }
      guard token.count >= 3 else { return nil }
      var found: Int?
      for (spelling, month) in spellings where spelling.hasPrefix(token) {
        if let found, found != month { return nil }
        found = month
      }
      return found
    }
  }

  /// `text` as names are compared: case and accents folded, a trailing period dropped.
  ///
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  public static func normalized(_ text: some StringProtocol) -> String {
    var folded = String(text).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    while folded.hasSuffix(".") { folded.removeLast() }
    return folded
  }

  /// English as the app writes it (`en`, and `en_GB`'s `Sept`): the language every file is
  /// first read in. Two locales, not all 100 English ones: loading those cost a run 10 MB and
  /// 40 ms before its first date. A name only another English locale has reads through
  /// ``all``, whose English is every `en` locale's.
  public static let english: Language = language("en", locales: ["en", "en_GB"])

  /// Every language of the locale data, by code; English (all its locales) first, then by code.
  ///
  /// - Complexity: O(*l*) on first use, for the *l* locales of Foundation (about 1,000).
  public static let all: [Language] = {
    var byLanguage: [String: [String]] = [:]
    for identifier in Locale.availableIdentifiers {
      guard let code = Locale(identifier: identifier).language.languageCode?.identifier else { continue }
      byLanguage[code, default: []].append(identifier)
    }
    let others = byLanguage.keys.sorted().filter { $0 != "en" }.map { language($0, locales: byLanguage[$0]!) }
    return [language("en", locales: byLanguage["en"] ?? ["en"])] + others.filter { !$0.spellings.isEmpty }
  }()

  /// The month names of `locales`, all of one language. A spelling holding a digit or a space
  /// (`1月`, Chinese) cannot be a date's month token, so it is left out.
  private static func language(_ code: String, locales: [String]) -> Language {
    var spellings: [String: Int] = [:]
    var twoMonths: Set<String> = []
    var calendar = Calendar(identifier: .gregorian)
    for identifier in locales {
      calendar.locale = Locale(identifier: identifier)
      for symbols in [
        calendar.shortMonthSymbols, calendar.shortStandaloneMonthSymbols, calendar.monthSymbols,
        calendar.standaloneMonthSymbols,
      ] where symbols.count == 12 {
        for (index, symbol) in symbols.enumerated() {
          let spelling = normalized(symbol)
          guard !spelling.isEmpty, !spelling.contains(where: { $0.isNumber || $0.isWhitespace }) else { continue }
          if let month = spellings[spelling], month != index + 1 { twoMonths.insert(spelling) }
          spellings[spelling] = index + 1
        }
      }
    }
    for spelling in twoMonths { spellings[spelling] = nil }
    return Language(code: code, spellings: spellings)
  }

  /// What a file's month tokens say about its language.
  public enum Choice: Equatable {
    /// The language to read the file in.
    case language(Language)
    /// `token` reads in several languages as different months, and no language settles it.
    case ambiguous(token: String, languages: [Language])
    /// No language reads any of the file's tokens; `token` is the commonest.
    case unreadable(token: String)
  }

  /// The language a file is read in, from the month `tokens` of its dates (normalized, with
  /// how many dates held each): the language that reads the most of them — all of them, for an
  /// export as the app writes it.
  ///
  /// English reading them all is taken at once. Otherwise every language that reads as many
  /// dates as the best must agree on each name they read (`mar`, `may`, `jun` are the same
  /// months in Spanish and Turkish), or the file is ambiguous: Czech `lis` is November,
  /// Croatian `lis` October, and a guess would date every workout a month wrong. A date no
  /// language reads does not settle it either: it is rejected row by row once the language is
  /// chosen. Where no language reads any, the file is unreadable.
  ///
  /// - Complexity: O(*l* × *t* × *s*) for *l* languages, *t* tokens and *s* spellings a
  ///   language has (an abbreviation is looked for among them).
  public static func choose(for tokens: [String: Int]) -> Choice {
    // Most dates first, then by spelling, so that a message names the same token on every run.
    let ordered = tokens.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
    if ordered.allSatisfy({ english.month($0.key) != nil }) { return .language(english) }
    var best: [Language] = []
    var bestDates = 0
    for language in all {
      let dates = ordered.reduce(0) { $0 + (language.month($1.key) != nil ? $1.value : 0) }
      if dates > bestDates {
        (best, bestDates) = ([language], dates)
      } else if dates == bestDates && dates > 0 {
        best.append(language)
      }
    }
    guard let first = best.first else { return .unreadable(token: ordered.first?.key ?? "") }
    let disagreeing = ordered.first { token, _ in
      Set(best.compactMap { $0.month(token) }).count > 1
    }
    guard let (token, _) = disagreeing else { return .language(first) }
    return .ambiguous(token: token, languages: best.filter { $0.month(token) != nil })
  }
}

/// How one file's dates read their month names: in one language, with a tally of the tokens
/// they held, from which the file's language is chosen (``MonthNames/choose(for:)``).
///
/// It deliberately reads in one language at a time: a file's dates are written in one (the
/// app's language when it exported), and a token read in the language of each date separately
/// could mean two months in one file.
final class MonthReading {
  let language: MonthNames.Language
  /// Normalized token → dates that held it. Bounded: a hostile file of a million different
  /// tokens must not grow it, and a few dozen settle any language.
  private(set) var tokens: [String: Int] = [:]
  /// Whether a date held a token ``language`` does not read.
  private(set) var hasUnread = false
  /// Each tallied token as the file first wrote it (`Ağu` for `agu`), for messages, and the
  /// line it was on.
  private(set) var spellings: [String: (text: String, line: Int)] = [:]
  /// The line of the record being read, set by the reader, for ``spellings``.
  var line = 0
  /// Tokens already read: normalized, and their month (nil: not a month in ``language``).
  private var memo: [[UInt8]: (token: String, month: Int?)] = [:]
  static let maximumTokens = 64

  init(_ language: MonthNames.Language = MonthNames.english) {
    self.language = language
  }

  /// The month `token` (a date's month as written) names in ``language``, nil when none.
  ///
  /// - Complexity: O(1) for a token seen before in the file.
  func month(_ token: UnsafeBufferPointer<UInt8>) -> Int? {
    let key = Array(token)
    let reading: (token: String, month: Int?)
    if let known = memo[key] {
      reading = known
    } else {
      let normalized = MonthNames.normalized(String(decoding: token, as: UTF8.self))
      reading = (normalized, language.month(normalized))
      if memo.count < Self.maximumTokens { memo[key] = reading }
    }
    if reading.month == nil { hasUnread = true }
    if tokens.count < Self.maximumTokens || tokens[reading.token] != nil {
      tokens[reading.token, default: 0] += 1
      if spellings[reading.token] == nil {
        // Shown in a message: at most 40 characters, and no control character.
        let text = String(decoding: token, as: UTF8.self).unicodeScalars.prefix(40).map {
          $0.properties.generalCategory == .control ? "?" : String($0)
        }
        spellings[reading.token] = (text.joined(), line)
      }
    }
    return reading.month
  }
}
