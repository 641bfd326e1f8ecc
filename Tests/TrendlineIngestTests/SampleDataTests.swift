import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema
import TrendlineSupport
import _TrendlineTestSupport

/// `SampleData/expected.json` holds, per file, the row counts and reject lines that
/// `SampleData/make_samples.py` wrote into its files on purpose (bad values, a broken quote,
/// overlapping exports, pseudo-rows), worked out by that script from what it wrote, not by
/// Trendline. Reading every SampleData file must give exactly those counts, and the
/// accounting identity must hold for each file.
private struct Expected: Decodable {
  struct File: Decodable {
    struct Rejected: Decodable {
      var line: Int
      var column: String?
    }
    var user: String
    /// Decoded from the file's own members (`rowsRead`, …), as a manifest's are.
    var rows: RowCounts
    var rejected: [Rejected]

    private enum CodingKeys: String, CodingKey { case user, rejected }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      user = try container.decode(String.self, forKey: .user)
      rows = try RowCounts(from: decoder)
      rejected = try container.decode([Rejected].self, forKey: .rejected)
    }
  }
  struct User: Decodable {
    struct Unmapped: Decodable {
      var name: String
      var sessions: Int
    }
    var sessions: Int
    var unmappedExercises: [Unmapped]
  }
  var files: [String: File]
  var users: [String: User]
  var localTimes: [LocalTime]
  struct LocalTime: Decodable {
    var user: String
    var written: String
    var expectedUTC: String
  }
}

private let expected: Expected = {
  let data = Data(try! TestPaths.bytes(TestPaths.sampleData.appendingPathComponent("expected.json")))
  return try! JSONDecoder().decode(Expected.self, from: data)
}()

/// SampleData is read with the built-in catalog, as `Pipelines/overview.json` reads it.
private let catalog = Catalog.builtIn

private let greta = MappedCSVLayout(
  columns: .init(start: "day", exercise: "lift", session: "session", weight: "kg", reps: "reps"),
  delimiter: ";", decimalSeparator: ",", dateFormat: "dd.MM.yyyy HH:mm")

/// Reads every user of a SampleData folder the way a run does.
private func readFolder(_ name: String, layout: MappedCSVLayout? = nil) throws -> [String: (UserIngest, [URL])] {
  let folder = TestPaths.sampleData.appendingPathComponent(name)
  let (users, problems) = try InputLayout.discover(folder)
  #expect(problems == [])
  let table = UsersFile(bytes: try TestPaths.bytes(folder.appendingPathComponent("users.csv")))
  var out: [String: (UserIngest, [URL])] = [:]
  for user in users {
    let settings = try table.settings(for: user.id, defaults: UserSettings())
    let options = UserReader.Options(
      format: layout == nil ? .auto : .fixed(.mappedCSV), layout: layout,
      lookup: ExerciseLookup(catalog: catalog))
    out[user.id] = (try UserReader.read(user, settings: settings, options: options).ingest, user.files)
  }
  return out
}

@Test func everySampleDataFileIsAccountedForAsExpected() throws {
  var seen = Set<String>()
  for (folder, layout) in [("exports", nil), ("mapped", greta)] {
    for (id, (ingest, urls)) in try readFolder(folder, layout: layout) {
      for (accounting, url) in zip(ingest.files, urls) {
        let key = folder + url.path.components(separatedBy: "SampleData/" + folder).last!
        seen.insert(key)
        guard let want = expected.files[key] else {
          Issue.record("no expectation for \(key)")
          continue
        }
        #expect(want.user == id)
        #expect(accounting.rows.balances, "\(key)")
        #expect(accounting.rows == want.rows, "\(key)")
        let rejects = ingest.notes.filter { $0.file == url.lastPathComponent && $0.outcome == .rejected }
        #expect(rejects.map(\.line) == want.rejected.map(\.line), "\(key): \(rejects)")
      }
      #expect(ingest.sessions.count == expected.users[id]?.sessions, "\(id)")
      let unmapped = expected.users[id]?.unmappedExercises ?? []
      #expect(
        ingest.unmappedExercises == Dictionary(uniqueKeysWithValues: unmapped.map { ($0.name, $0.sessions) }),
        "\(id)")
    }
  }
  #expect(seen == Set(expected.files.keys))
}

/// The local times the samples hold on purpose (DST gaps and overlaps, midnight, 12-hour
/// clocks) land on the instants the sample README works out by hand.
@Test func sampleDataLocalTimesLandOnTheirInstants() throws {
  let users = try readFolder("exports")
  for time in expected.localTimes {
    guard let (ingest, _) = users[time.user] else { continue }
    let instant = Int64(ISO8601DateFormatter().date(from: time.expectedUTC)!.timeIntervalSince1970)
    #expect(ingest.sessions.contains { $0.start == instant }, "\(time.user) \(time.written)")
  }
}
