import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema

/// JEFIT's multi-section export (SPEC 11.3). The inputs are written here after the real
/// export surveyed (its section names, banners and columns); no real file is copied.
@Suite struct JEFITCSVTests {
  /// Weights in pounds, as SETTING says (`mass`: ` lbs`): 100 lb = 45.359237 kg, and 200 lb,
  /// 50 lb and 25 lb are 2, 1/2 and 1/4 of it. 1,767,607,200 is 2026-01-05T10:00:00Z (day
  /// 20,458 after 1970-01-01: 20,454 to 2026, then 4); session 3 starts two days later,
  /// 1,767,780,000; 2026-01-09 at midnight UTC is 1,767,916,800.
  static let export = """

    ### SETTING ##########################################

    row_id,USERID,mass
    1,7," lbs"
    ######################################################
    ### WORKOUT SESSIONS #################################
    _id,total_time,starttime,endtime
    2,3600,1767607200,1767610800
    3,90000,1767780000,1767870000
    ######################################################
    ### EXERCISE LOGS ####################################
    belongSys,logs,_id,mydate,eid,ename,belongsession
    1,"100x5,200x3",1,2026-01-05,12,"Barbell Squat",2
    0,x12,2,2026-01-05,100000,,2
    1,50x10,3,2026-01-07,26,"Bench",3
    1,25x8,4,2026-01-09,26,"Bench",99
    1,"60x8,heavy",5,2026-01-05,26,"Bench",2
    1,"0x1200",6,2026-01-05,2,"Stationary Bike",2
    1,,7,2026-01-05,26,"Bench",2
    ######################################################
    ### CUSTOM EXERCISES #################################
    _id,name
    100000,"Cable Row w/ Rotation"
    ######################################################
    """

  static let utc = ReadSettings(timeZone: TimeZone(identifier: "UTC")!)

  @Test func logsAreJoinedToTheirSessionsAndUnpacked() throws {
    let file = try ExportReader.read(file: "jefit.csv", bytes: Array(Self.export.utf8), settings: Self.utc)
    #expect(file.format == .jefitCSV)
    #expect(file.sets.map(\.line) == [14, 14, 15, 16, 17])
    #expect(file.sets.map(\.exercise) == ["Barbell Squat", "Barbell Squat", "Cable Row w/ Rotation", "Bench", "Bench"])
    #expect(file.sets.map(\.weightKg) == [45.359237, 90.718474, 0, 22.6796185, 11.33980925])
    #expect(file.sets.map(\.reps) == [5, 3, 12, 10, 8])
    #expect(file.sets.map(\.start) == [1_767_607_200, 1_767_607_200, 1_767_607_200, 1_767_780_000, 1_767_916_800])
    // Session 3's 90,000 s is over 24 hours: dropped, unknown; the log without a session has
    // no length either.
    #expect(file.sets.map(\.durationSeconds) == [3600, 3600, 3600, nil, nil])
    #expect(file.sets.map(\.setIndex) == [0, 1, 0, 0, 0])
    #expect(file.sets.map(\.sharesRowWithPrevious) == [false, true, false, false, false])
    #expect(file.sets[0].stated == StatedUnits(weight: .pounds))
    #expect(file.sets[0].sessionKey == "1767607200|")
  }

  @Test func everyRecordIsAccounted() {
    #expect(
      HostileInputTests.outcome("t.csv", Array(Self.export.utf8)) == """
        read 23: accepted 4, rejected 2, duplicate 0, ignored 17
        t.csv:4:1: note: ignored: JEFIT SETTING section: its header
        t.csv:5:1: note: ignored: JEFIT SETTING section: settings (its weight unit is read)
        t.csv:6:1: note: ignored: JEFIT section divider
        t.csv:7:1: note: ignored: JEFIT section banner
        t.csv:8:1: note: ignored: JEFIT WORKOUT SESSIONS section: its header
        t.csv:9:1: note: ignored: JEFIT WORKOUT SESSIONS section: a workout, joined to its EXERCISE LOGS
        t.csv:10:1: note: ignored: JEFIT WORKOUT SESSIONS section: a workout; workout duration '90000' is longer \
        than 24 hours (a timer left running); the duration is dropped, the sets kept
        t.csv:11:1: note: ignored: JEFIT section divider
        t.csv:12:1: note: ignored: JEFIT section banner
        t.csv:13:1: note: ignored: JEFIT EXERCISE LOGS section: its header
        t.csv:18:3: error: logs: 'heavy' is not weight x reps (like 60x10)
        t.csv:19:3: error: logs: reps '1200' is more than 1000
        t.csv:20:1: note: ignored: a row with no set
        t.csv:21:1: note: ignored: JEFIT section divider
        t.csv:22:1: note: ignored: JEFIT section banner
        t.csv:23:1: note: ignored: JEFIT CUSTOM EXERCISES section: its header
        t.csv:24:1: note: ignored: JEFIT CUSTOM EXERCISES section: not a workout log
        t.csv:25:1: note: ignored: JEFIT section divider
        """)
  }

  /// A session's `total_time` of 0 or empty is a length not recorded, unknown (SPEC 10.3);
  /// EXERCISE LOGS pasted twice count their logs once, each repeat a duplicate naming the
  /// first line (a log rejected the first time is rejected again: it was never read); a
  /// negative weight on an assisted exercise is no load, the row repaired; and every reject or
  /// repair names the section's column at fault, never the file's first banner. Columns are
  /// 1-based bytes: `2,-20x8,…` has `logs` at 3, `4,60x5,2026-01-08,Bench,4` has
  /// `belongsession` after 2 + 5 + 11 + 6 = 24 bytes, at 25; `4,60,x` has `starttime` at 6.
  /// 1,767,607,200 is 2026-01-05T10:00:00Z; two and three days later are 1,767,780,000 and
  /// 1,767,866,400.
  static let repeated = """
    ### WORKOUT SESSIONS ###
    _id,total_time,starttime
    1,0,1767607200
    2,,1767780000
    3,1800,1767866400
    4,60,x
    ####
    ### EXERCISE LOGS ###
    _id,logs,mydate,ename,belongsession
    1,"100x5,100x5",2026-01-05,Squat,1
    2,-20x8,2026-01-07,Assisted Pull Up,2
    3,-20x8,2026-01-08,Pull Up,3
    4,60x5,2026-01-08,Bench,4
    5
    6,40x10,2026-01-08,Row,3
    ####
    ### EXERCISE LOGS ###
    _id,logs,mydate,ename,belongsession
    1,"100x5,100x5",2026-01-05,Squat,1
    2,-20x8,2026-01-07,Assisted Pull Up,2
    6,40x10,2026-01-08,Row,3
    3,-20x8,2026-01-08,Pull Up,3
    ####
    """

  @Test func unknownLengthsRepeatedLogsAssistanceAndTheColumnAtFault() throws {
    let file = try ExportReader.read(file: "t.csv", bytes: Array(Self.repeated.utf8), settings: Self.utc)
    #expect(file.sets.map(\.line) == [10, 10, 11, 15])
    #expect(file.sets.map(\.exercise) == ["Squat", "Squat", "Assisted Pull Up", "Row"])
    #expect(file.sets.map(\.weightKg) == [100, 100, 0, 40])
    #expect(file.sets.map(\.reps) == [5, 5, 8, 10])
    #expect(file.sets.map(\.start) == [1_767_607_200, 1_767_607_200, 1_767_780_000, 1_767_866_400])
    #expect(file.sets.map(\.durationSeconds) == [nil, nil, nil, 1800])
    #expect(
      file.notes.filter { $0.outcome == .rejected || $0.outcome == .repaired }.map(\.field) == [
        "starttime", "logs", "logs", "belongsession", "", "logs",
      ])
    #expect(
      HostileInputTests.outcome("t.csv", Array(Self.repeated.utf8)) == """
        read 22: accepted 3, rejected 5, duplicate 3, ignored 11
        t.csv:2:1: note: ignored: JEFIT WORKOUT SESSIONS section: its header
        t.csv:3:1: note: ignored: JEFIT WORKOUT SESSIONS section: a workout, joined to its EXERCISE LOGS
        t.csv:4:1: note: ignored: JEFIT WORKOUT SESSIONS section: a workout, joined to its EXERCISE LOGS
        t.csv:5:1: note: ignored: JEFIT WORKOUT SESSIONS section: a workout, joined to its EXERCISE LOGS
        t.csv:6:6: error: starttime: starttime 'x' is not a time (Unix seconds)
        t.csv:7:1: note: ignored: JEFIT section divider
        t.csv:8:1: note: ignored: JEFIT section banner
        t.csv:9:1: note: ignored: JEFIT EXERCISE LOGS section: its header
        t.csv:11:3: note: repaired: logs: weight '-20' is negative on an assisted exercise: the assistance is not \
        a load, so the set counts with no load
        t.csv:12:3: error: logs: weight '-20' is negative
        t.csv:13:25: error: belongsession: its workout session 4 cannot be read: starttime 'x' is not a time \
        (Unix seconds)
        t.csv:14:1: error: expected 5 fields as in the section's header, found 1
        t.csv:16:1: note: ignored: JEFIT section divider
        t.csv:17:1: note: ignored: JEFIT section banner
        t.csv:18:1: note: ignored: JEFIT EXERCISE LOGS section: its header
        t.csv:19:1: note: duplicate: repeats line 10: the same exercise log (its _id) is written twice in the file
        t.csv:20:1: note: duplicate: repeats line 11: the same exercise log (its _id) is written twice in the file
        t.csv:21:1: note: duplicate: repeats line 15: the same exercise log (its _id) is written twice in the file
        t.csv:22:3: error: logs: weight '-20' is negative
        t.csv:23:1: note: ignored: JEFIT section divider
        """)
  }

  /// A header of 995 columns, the ones read last and `logs` twice: each section's columns are
  /// found once, when its header is read, the first of two of one name kept. 1,767,607,200 is
  /// 2026-01-05T10:00:00Z.
  @Test func aWideHeaderIsResolvedOnce() throws {
    let filler = (0..<990).map { "c\($0)" }.joined(separator: ",")
    let empty = String(repeating: ",", count: 990)
    let text =
      "### WORKOUT SESSIONS ###\n\(filler),_id,total_time,starttime\n\(empty)7,3600,1767607200\n####\n"
      + "### EXERCISE LOGS ###\n\(filler),logs,mydate,ename,belongsession,logs\n"
      + "\(empty)60x5,2026-01-05,Squat,7,999x999\n\(empty)70x3,2026-01-05,Squat,7\n"
    let file = try ExportReader.read(file: "t.csv", bytes: Array(text.utf8), settings: Self.utc)
    #expect(file.sets.map(\.weightKg) == [60, 70])
    #expect(file.sets.map(\.reps) == [5, 3])
    #expect(file.sets.map(\.start) == [1_767_607_200, 1_767_607_200])
    #expect(file.sets.map(\.durationSeconds) == [3600, 3600])
    #expect(file.rows.rejected == 0)
  }

  /// Without SETTING the weights are in the user's unit (SPEC 9.4), and nothing is stated.
  @Test func theUsersUnitWhenTheFileStatesNone() throws {
    let text = "### EXERCISE LOGS ###\nlogs,mydate,ename,belongsession\n60x5,2026-01-05,Squat,1\n"
    let file = try ExportReader.read(
      file: "jefit.csv", bytes: Array(text.utf8), settings: ReadSettings(weightUnit: .pounds))
    #expect(file.sets.map(\.weightKg) == [27.2155422])
    #expect(file.sets[0].stated == StatedUnits())
  }

  @Test func sniffing() {
    func sniff(_ text: String) -> ExportFormat? { ExportFormat.sniff(Array(text.utf8), fileName: "a.csv") }
    #expect(sniff(Self.export) == .jefitCSV)
    #expect(sniff("### EXERCISE LOGS ####\r\nlogs\r\n") == .jefitCSV)
    #expect(sniff("### my notes ###\n") == nil)
  }

  @Test(arguments: [
    (
      "### SETTING ###\nmass\nlbs\n",
      "t.csv:1:1: error: JEFIT: the file has no EXERCISE LOGS section, which holds the sets; "
        + "export the full history from JEFIT"
    ),
    (
      "### EXERCISE LOGS ###\nweights,mydate,ename,belongsession\n",
      "t.csv:2:1: error: JEFIT: the EXERCISE LOGS header has no 'logs' column; the header is: "
        + "weights, mydate, ename, belongsession"
    ),
  ])
  func aFileWithoutLogsFails(_ text: String, expected: String) {
    #expect(HostileInputTests.outcome("t.csv", Array(text.utf8), format: .fixed(.jefitCSV)) == expected)
  }
}
