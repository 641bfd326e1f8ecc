import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema

/// Strong in a language no reader names, recognised by its structure (SPEC 11.1), and
/// durations written in the app's language. Instants are UTC, worked out by hand.
@Suite struct StrongByStructureTests {
  static let chineseHeader = "日期,锻炼名称,时长,运动名称,设置顺序,重量,次,距离,秒,备注,锻炼备注,RPE"

  static func read(_ text: String) throws(ExportError) -> FileIngest {
    try ExportReader.read(file: "strong.csv", bytes: Array(text.utf8), settings: ReadSettings())
  }

  /// Chinese: the header is translated, the durations too (`1小时13分钟` is 1 h 13 min), the
  /// exercise names are Strong's English ones. Columns are read by position.
  @Test func chinese() throws {
    let file = try Self.read(
      """
      \(Self.chineseHeader)
      2020-09-29 07:10:22,"4.Pull",1小时13分钟,"Bent Over Row (Barbell)",1,44.09245243697551,5,0,0,"4x8","星期二",
      2020-09-29 07:10:22,"4.Pull",1小时13分钟,"Bent Over Row (Barbell)",2,60,5,0,0,"","星期二",
      2020-10-01 18:00:00,"1.Push",49分钟,"Bench Press (Barbell)",1,80,8,0,0,"","",

      """)
    #expect(file.format == .strongCSV)
    #expect(file.rows.rejected == 0)
    #expect(file.sets.map(\.start) == [1_601_363_422, 1_601_363_422, 1_601_575_200])
    #expect(file.sets.map(\.durationSeconds) == [4380, 4380, 2940])
    #expect(
      file.sets.map(\.exercise) == ["Bent Over Row (Barbell)", "Bent Over Row (Barbell)", "Bench Press (Barbell)"])
    #expect(file.sets.map(\.weightKg) == [44.09245243697551, 60, 80])
    #expect(file.sets.map(\.reps) == [5, 5, 8])
    #expect(file.sets.map(\.setIndex) == [1, 2, 1])
    #expect(file.sets[0].sessionName == "4.Pull")
  }

  /// A timer left running in Chinese (`72小时16分钟`) drops the duration and keeps the set, as
  /// in English.
  @Test func aTimerLeftRunningInChinese() throws {
    let file = try Self.read(
      """
      \(Self.chineseHeader)
      2023-11-09 17:08:33,"4.Legs&Back",72小时16分钟,"Chin Up",1,0.0,15,0,0,"","",

      """)
    #expect(file.sets.count == 1)
    #expect(file.sets[0].durationSeconds == nil)
    #expect(file.rows.valueDropped == 1)
  }

  /// A note or rest-timer row in a language whose word for it is not known (a word in the set
  /// order, no set values) is ignored, saying so; a word with set values is still rejected.
  @Test func pseudoRowsInAnUnknownLanguage() throws {
    let file = try Self.read(
      """
      \(Self.chineseHeader)
      2020-09-29 07:10:22,"4.Pull",1小时13分钟,"Bent Over Row (Barbell)",1,60,5,0,0,"","",
      2020-09-29 07:10:22,"4.Pull",1小时13分钟,"Bent Over Row (Barbell)",休息计时器,0,0.0,0,45.0,,,
      2020-09-29 07:10:22,"4.Pull",1小时13分钟,"Bent Over Row (Barbell)",备注,,,,,"慢",,
      2020-09-29 07:10:22,"4.Pull",1小时13分钟,"Bent Over Row (Barbell)",X,50,6,0,0,"","",

      """)
    #expect(file.sets.count == 1)
    #expect(file.ignored == ["Strong note or rest timer row (a word in the set-order column, no set values)": 2])
    #expect(file.rejects.map(\.line) == [5])
  }

  /// Twelve columns of another app, whose values have another shape, are no Strong export.
  @Test func twelveColumnsOfAnotherShapeAreNotStrong() {
    let text = """
      a,b,c,d,e,f,g,h,i,j,k,l
      x,y,z,1,2,3,4,5,6,7,8,9

      """
    #expect(ExportFormat.sniff(Array(text.utf8), fileName: "other.csv") == nil)
    let noSetNumber = """
      \(Self.chineseHeader)
      2020-09-29 07:10:22,"4.Pull",1小时13分钟,"Row",X,44,5,0,0,"","",

      """
    #expect(ExportFormat.sniff(Array(noSetNumber.utf8), fileName: "other.csv") == nil)
  }

  /// Durations in the units' names of other languages, from Foundation's locale data; the
  /// ASCII forms read as before.
  @Test(arguments: [
    ("1小时13分钟", 4380.0), ("49分钟", 2940), ("1時間13分", 4380), ("1시간 13분", 4380), ("1 ч 13 мин", 4380),
    ("1 Std. 5 Min.", 3900), ("1 uur 5 min", 3900), ("1h 5m", 3900), ("1h 1min", 3660), ("45m", 2700),
    ("30s", 30), ("1 Std., 13 Min.", 4380), ("1 Stunde und 13 Minuten", 4380), ("1 h et 13 min", 4380),
    ("1 uur, 13 min", 4380), ("1 godz. i 13 min", 4380), ("1 h y 13 min", 4380), ("1 saat 13 dakika", 4380),
    ("1 h 13 min 5 s", 4385),
  ])
  func translatedDurations(text: String, seconds: Double) {
    #expect(NumberParser.duration(text) == .number(seconds))
  }

  /// Units out of order, a word that names no unit in any language, a joining word not between
  /// two parts, or a name whose unit the order cannot settle (`saat`: hours in Turkish, seconds
  /// in Malay) are no duration.
  @Test(arguments: ["13分钟1小时", "1 banana", "5m 1h", "1小时 2小时", "2 saat", "1 h et", "et 1 h", "1 h et et 2 min"])
  func notDurations(text: String) {
    #expect(NumberParser.duration(text) == .invalid)
  }
}
