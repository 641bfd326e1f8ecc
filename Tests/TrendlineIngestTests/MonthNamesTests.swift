import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema

/// Month names from Foundation's locale data (SPEC 11.1): Hevy's dates from phones in other
/// languages, one language per file, found from the file. Instants are UTC, worked out by hand
/// from the wall times (`2024-04-30 19:25` is 1 714 505 100 s after 1970).
@Suite struct MonthNamesTests {
  static let header =
    #""title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","#
    + #""set_type","weight_kg","reps","distance_km","duration_seconds","rpe""#

  /// A Hevy export of one set per `(start, end)`, in UTC.
  static func hevy(_ dates: [(start: String, end: String)]) throws(ExportError) -> FileIngest {
    let rows = dates.map { #""W","\#($0.start)","\#($0.end)","","Squat (Barbell)",,"",0,"normal",100,5,,,"# }
    let text = ([header] + rows).joined(separator: "\n") + "\n"
    return try ExportReader.read(file: "hevy.csv", bytes: Array(text.utf8), settings: ReadSettings())
  }

  /// Spanish: `abr` and `dic` are no English month; `may` is one, and means May in both.
  @Test func spanish() throws {
    let file = try Self.hevy([
      ("30 abr 2024, 19:25", "30 abr 2024, 21:10"), ("17 may 2024, 15:05", "17 may 2024, 16:00"),
      ("25 dic 2024, 09:00", "25 dic 2024, 10:00"),
    ])
    #expect(file.rows.rejected == 0)
    #expect(file.sets.map(\.start) == [1_714_505_100, 1_715_958_300, 1_735_117_200])
    #expect(file.sets[0].durationSeconds == 6300)
  }

  /// Portuguese as Hevy writes it, capitalised and without the locale data's period (`Mai`
  /// for `mai.`, `Ago` for `ago.`), and `Fev`, which is no English month.
  @Test func portuguese() throws {
    let file = try Self.hevy([
      ("5 Mai 2026, 07:34", "5 Mai 2026, 08:44"), ("7 Ago 2023, 18:00", "7 Ago 2023, 19:00"),
      ("10 Fev 2026, 06:30", "10 Fev 2026, 07:30"),
    ])
    #expect(file.rows.rejected == 0)
    #expect(file.sets.map(\.start) == [1_777_966_440, 1_691_431_200, 1_770_705_000])
    #expect(file.sets[0].durationSeconds == 4200)
  }

  /// Turkish, whose names carry letters outside ASCII (`Şub`, `Ağu`); `Mar` and `May` read in
  /// English too, as the same months.
  @Test func turkish() throws {
    let file = try Self.hevy([
      ("11 Nis 2026, 13:05", "11 Nis 2026, 14:05"), ("1 Haz 2022, 12:00", "1 Haz 2022, 13:00"),
      ("28 Şub 2026, 17:47", "28 Şub 2026, 19:01"), ("4 Mar 2026, 08:00", "4 Mar 2026, 09:00"),
    ])
    #expect(file.rows.rejected == 0)
    #expect(file.sets.map(\.start) == [1_775_912_700, 1_654_084_800, 1_772_300_820, 1_772_611_200])
    #expect(file.sets[2].durationSeconds == 4440)
  }

  /// Hevy on a US phone puts the month first and writes a 12-hour clock.
  @Test func englishMonthFirst() throws {
    let file = try Self.hevy([("Apr 12, 2026, 12:29 PM", "Apr 12, 2026, 2:01 PM")])
    #expect(file.rows.rejected == 0)
    #expect(file.sets.map(\.start) == [1_775_996_940])
    #expect(file.sets[0].durationSeconds == 5520)
  }

  /// `lis` is November in Czech (`listopad`) and October in Croatian (`listopad` too, their
  /// tenth month): another date of the file settles which.
  @Test func czechAndCroatianAgreeOnNoneButTheOtherDates() throws {
    let czech = try Self.hevy([
      ("14 lis 2025, 10:00", "14 lis 2025, 11:00"), ("3 led 2025, 10:00", "3 led 2025, 11:00"),
    ])
    #expect(czech.rows.rejected == 0)
    #expect(czech.sets[0].start == 1_763_114_400)  // 2025-11-14 10:00
    let croatian = try Self.hevy([
      ("14 lis 2025, 10:00", "14 lis 2025, 11:00"), ("3 ruj 2025, 10:00", "3 ruj 2025, 11:00"),
    ])
    #expect(croatian.rows.rejected == 0)
    #expect(croatian.sets[0].start == 1_760_436_000)  // 2025-10-14 10:00
  }

  /// A file whose only month is `lis` cannot be read without a guess: it fails, naming the
  /// name and what it would mean in each language.
  @Test func aMonthThatMeansTwoMonthsFailsTheFile() {
    #expect {
      try Self.hevy([("14 lis 2025, 10:00", "14 lis 2025, 11:00")])
    } throws: { error in
      let message = (error as? ExportError)?.message ?? ""
      return (error as? ExportError)?.line == 2
        && message.hasPrefix("the month 'lis' in its dates reads as a different month in ")
        && message.contains("Croatian (month 10)") && message.contains("Czech (month 11)")
        && message.hasSuffix("export it again with the phone in English")
    }
  }

  /// One date no language reads does not make `lis` mean one month: the file still fails.
  @Test func anUnreadableDateDoesNotSettleAnAmbiguousMonth() {
    #expect(throws: ExportError.self) {
      try Self.hevy([
        ("14 lis 2025, 10:00", "14 lis 2025, 11:00"), ("15 lis 2025, 10:00", "15 lis 2025, 11:00"),
        ("6 xyz 2025, 10:00", "6 xyz 2025, 11:00"),
      ])
    }
  }

  /// No language has `xyz`: the file fails naming it, rather than losing every row.
  @Test func aMonthNoLanguageHasFailsTheFile() {
    #expect {
      try Self.hevy([("14 2025-01-01, 10:00", "x"), ("14 XYZ 2025, 10:00", "14 XYZ 2025, 11:00")])
    } throws: { error in
      (error as? ExportError)?.description
        == "hevy.csv:3:1: error: the dates name their month 'XYZ', which is not a month in any language Trendline "
        + "reads; export it again with the phone in English"
    }
  }

  /// One date mistyped in a Spanish file is one rejected row; the rest read in Spanish.
  @Test func oneUnreadableDateInALanguageIsOneRejectedRow() throws {
    let file = try Self.hevy([
      ("30 abr 2024, 19:25", "30 abr 2024, 21:10"), ("2 xyz 2024, 08:00", "2 xyz 2024, 09:00"),
      ("25 dic 2024, 09:00", "25 dic 2024, 10:00"),
    ])
    #expect(file.rows.rejected == 1)
    #expect(
      file.rejects.map(\.description) == ["hevy.csv:3:5: error: start_time: '2 xyz 2024, 08:00' is not a date and time"]
    )
    #expect(file.sets.map(\.start) == [1_714_505_100, 1_735_117_200])
  }

  /// A mapped CSV's `MMM` reads an English name between other characters (`05-Jan-2024`).
  @Test(arguments: [("dd-MMM-yyyy", "05-Jan-2024"), ("MMM/dd/yyyy", "jan/05/2024"), ("dd.MMM.yyyy", "05.JAN.2024")])
  func englishMonthsInAPattern(pattern: String, text: String) {
    var copy = text
    #expect(
      copy.withUTF8 { DatePattern(pattern).parse($0) }?.civil == CivilDateTime(year: 2024, month: 1, day: 5))
  }

  @Test func choosingALanguage() {
    func code(_ tokens: [String: Int]) -> String? {
      if case .language(let language) = MonthNames.choose(for: tokens) { return language.code }
      return nil
    }
    // Names every language that has them reads as the same months: English, the app's own.
    #expect(code(["mar": 3, "may": 1, "jun": 2]) == "en")
    #expect(code(["ene": 1, "abr": 2, "sep": 1, "dic": 1]) == "es")
    #expect(code(["oca": 1, "sub": 1, "agu": 1]) == "tr")
    #expect(code(["fev": 1, "set": 1, "out": 1, "dez": 1]) == "pt")
    #expect(code(["marz": 1, "okt": 1]) == "de")
    #expect(code(["janv": 1, "fevr": 1, "juil": 1]) == "fr")
    #expect(code(["gen": 1, "mag": 1, "giu": 1]) == "it")
    #expect(MonthNames.choose(for: ["xyz": 3]) == .unreadable(token: "xyz"))
  }

  @Test func namesAreFoldedAndAbbreviationsRead() {
    let spanish = MonthNames.all.first { $0.code == "es" }!
    #expect(spanish.month(MonthNames.normalized("Sep")) == 9)  // the locale data has `sept`
    #expect(spanish.month(MonthNames.normalized("SEPT.")) == 9)
    let french = MonthNames.all.first { $0.code == "fr" }!
    #expect(french.month(MonthNames.normalized("déc.")) == 12)
    #expect(french.month(MonthNames.normalized("jui.")) == 6)  // fr_MA's June
    #expect(french.month(MonthNames.normalized("ju")) == nil)  // too short to be an abbreviation
    let czech = MonthNames.all.first { $0.code == "cs" }!
    #expect(czech.month(MonthNames.normalized("červen")) == 6)  // a whole name wins
    #expect(czech.month(MonthNames.normalized("červ")) == nil)  // červen or červenec
    #expect(MonthNames.english.month("sept") == 9)
  }
}
