import Foundation
import Testing
import _TrendlineTestSupport

/// Nothing from the input gets out of its place: no output path is built from an unchecked
/// name, links do not lead the reader out of the input folder, and names shown in SVG and HTML
/// are text, never markup.
@Suite struct ContainmentTests {
  final class Scratch {
    let url: URL
    init() throws {
      url = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-contain-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ text: String, to name: String) throws -> URL {
      let file = url.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: file)
      return file
    }
  }

  static let catalog = TestPaths.catalogFile.path

  static func pipeline(input: URL, formats: String = #"["json"]"#) -> String {
    """
    {
      "version": 1,
      "name": "containment",
      "source": {"input": "\(input.path)", "catalog": "\(catalog)"},
      "charts": {
        "volume": [{"bucket": {"range": "all", "measures": ["sessions", "volumeKg"]}}],
        "lifts": [{"sparkline": {"value": "topSetKg", "windowDays": 3660}}]
      },
      "output": {"formats": \(formats)}
    }
    """
  }

  static func strong(workout: String = "A", exercise: String = "Squat (Barbell)") -> String {
    """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
    2026-11-20 10:00:00,"\(workout)",1h,"\(exercise)",1,100,5,0,0,,,
    2026-11-20 10:00:00,"\(workout)",1h,"\(exercise)",2,100,5,0,0,,,

    """
  }

  /// Every regular file under `folder`, with its path relative to `folder`.
  static func files(_ folder: URL) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    return (enumerator?.allObjects as? [String] ?? []).filter {
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path, isDirectory: &isDirectory)
        && !isDirectory.boolValue
    }.sorted()
  }

  /// Links that lead out of the input folder — a user file, a user folder, and a file inside
  /// a user's folder — are not followed: their data is read nowhere, and the run says so.
  /// Nor is a link to another user's export.
  @Test func symlinksOutOfTheInputAreNotFollowed() throws {
    let scratch = try Scratch()
    let secret = try scratch.write(Self.strong(exercise: "SECRET-OUTSIDE"), to: "outside/secret.csv")
    let input = scratch.url.appendingPathComponent("in")
    try scratch.write(Self.strong(), to: "in/ann.csv")
    try scratch.write(Self.strong(), to: "in/bob/good.csv")
    let fm = FileManager.default
    try fm.createSymbolicLink(at: input.appendingPathComponent("leak.csv"), withDestinationURL: secret)
    try fm.createSymbolicLink(
      at: input.appendingPathComponent("leakdir"), withDestinationURL: secret.deletingLastPathComponent())
    try fm.createSymbolicLink(at: input.appendingPathComponent("bob/leak.csv"), withDestinationURL: secret)
    // A relative link that climbs out with `..`.
    try fm.createSymbolicLink(
      atPath: input.appendingPathComponent("climb.csv").path, withDestinationPath: "../outside/secret.csv")
    try fm.createSymbolicLink(atPath: input.appendingPathComponent("cat.csv").path, withDestinationPath: "ann.csv")

    let pipeline = try scratch.write(Self.pipeline(input: input, formats: #"["json", "svg", "html"]"#), to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(result.status == 1, "\(result.stderr)")
    for name in ["leak.csv", "leakdir", "climb.csv"] {
      #expect(
        result.stderr.contains("input entry '\(name)' links outside the input folder; it is not read"),
        "\(result.stderr)")
    }
    // `cat.csv` links to `ann.csv`: another user's export, not read as cat's (SPEC 11.7).
    #expect(
      result.stderr.contains(
        "input entry 'cat.csv' links into 'ann.csv', another user's entry of the input folder; it is not read"),
      "\(result.stderr)")
    #expect(try fm.contentsOfDirectory(atPath: out.appendingPathComponent("users").path).sorted() == ["ann", "bob"])
    for file in Self.files(out) {
      let text = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)
      #expect(!text.contains("SECRET-OUTSIDE"), "\(file) holds data from outside the input folder")
      #expect(!text.contains("secret.csv"), "\(file) names a file outside the input folder")
    }
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
    let users = (manifest as? [String: Any])?["users"] as? [[String: Any]] ?? []
    let bob = users.first { $0["user"] as? String == "bob" }
    #expect((bob?["files"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["good.csv"])
  }

  /// One user's data is never another's (SPEC 11.7): a file in mallory's folder linking to
  /// alice's export, and a folder `eve` linking to alice's, are refused, so alice is counted
  /// once in the cohort and shows on no other page. A link within one user's folder is read.
  @Test func linksIntoAnotherUsersEntryAreRefused() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    try scratch.write(Self.strong(exercise: "ALICE-ONLY"), to: "in/alice/export.csv")
    try scratch.write(Self.strong(), to: "in/mallory/own.csv")
    try scratch.write(Self.strong(), to: "in/zed/all.csv")
    let fm = FileManager.default
    try fm.createSymbolicLink(
      atPath: input.appendingPathComponent("mallory/stolen.csv").path, withDestinationPath: "../alice/export.csv")
    try fm.createSymbolicLink(atPath: input.appendingPathComponent("eve").path, withDestinationPath: "alice")
    try fm.createSymbolicLink(
      atPath: input.appendingPathComponent("zed/latest.csv").path, withDestinationPath: "./all.csv")
    let pipeline = try scratch.write(Self.pipeline(input: input), to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "input entry 'mallory/stolen.csv' links into 'alice', another user's entry of the input folder; "
          + "it is not read"),
      "\(result.stderr)")
    #expect(result.stderr.contains("input entry 'eve' links into 'alice'"), "\(result.stderr)")
    #expect(
      try fm.contentsOfDirectory(atPath: out.appendingPathComponent("users").path).sorted() == [
        "alice", "mallory", "zed",
      ])
    for file in Self.files(out) where !file.hasPrefix("users/alice") && file != "manifest.json" {
      let text = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)
      #expect(!text.contains("ALICE-ONLY"), "\(file) shows alice's data")
    }
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
    let users = (manifest as? [String: Any])?["users"] as? [[String: Any]] ?? []
    let zed = users.first { $0["user"] as? String == "zed" }
    #expect(
      (zed?["files"] as? [[String: Any]])?.compactMap { $0["name"] as? String }.sorted() == [
        "all.csv", "latest.csv",
      ])
  }

  /// Entry names that are not user ids — control characters, a line break, spaces, non-ASCII,
  /// 129 characters — never become paths; `..` inside a valid id is just a name. Every output
  /// path stays under the output folder.
  @Test func hostileUserNamesNeverBecomePaths() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    let bad = [
      "new\nline", "tab\tuser", "bell\u{07}.csv", "esc\u{1B}[31m", "ümlaut", String(repeating: "x", count: 129),
      "semi;colon.csv",
    ]
    for name in bad { try scratch.write(Self.strong(), to: "in/" + name + (name.hasSuffix(".csv") ? "" : "/e.csv")) }
    try scratch.write(Self.strong(), to: "in/..hidden/e.csv")  // hidden: not a user at all
    try scratch.write(Self.strong(), to: "in/dots..in..middle/e.csv")
    try scratch.write(Self.strong(), to: "in/" + String(repeating: "y", count: 128) + ".csv")
    let pipeline = try scratch.write(Self.pipeline(input: input), to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains("input entry 'new\\u{a}line' has control characters in its name"), "\(result.stderr)")
    #expect(
      result.stderr.contains("input entry 'esc\\u{1b}[31m' has control characters in its name"), "\(result.stderr)")
    #expect(!result.stderr.contains("\u{1B}"), "a control character reached the terminal")
    let written = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("users").path).sorted()
    #expect(written == ["dots..in..middle", String(repeating: "y", count: 128)])
    let root = out.resolvingSymlinksInPath().path + "/"
    for file in Self.files(out) {
      #expect(out.appendingPathComponent(file).resolvingSymlinksInPath().path.hasPrefix(root))
    }
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
    let skipped = try #require((manifest as? [String: Any])?["skippedEntries"] as? [[String: Any]])
    #expect(skipped.filter { $0["hidden"] == nil }.count == bad.count)
    #expect(skipped.filter { $0["hidden"] as? Bool == true }.map { $0["entry"] as? String } == ["..hidden"])
  }

  /// A FIFO among the exports, directly or through a link inside the folder, would block a
  /// reader forever: it fails its user at once, and a big file behind a link is still held to
  /// the size limit.
  @Test func pipesAndLinkedGiantsAreNotRead() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    try scratch.write(Self.strong(), to: "in/ann.csv")
    try #require(mkfifo(input.appendingPathComponent("pipe.csv").path, 0o644) == 0)
    try FileManager.default.createDirectory(at: input.appendingPathComponent("bob"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: input.appendingPathComponent("bob/link.csv").path, withDestinationPath: "../pipe.csv")
    let big =
      Self.strong()
      + String(repeating: "2026-11-20 10:00:00,\"A\",1h,\"Squat (Barbell)\",3,100,5,0,0,,,\n", count: 20_000)
    try scratch.write(big, to: "in/.store/big.csv")  // hidden: not a user of its own
    try FileManager.default.createDirectory(at: input.appendingPathComponent("cy"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: input.appendingPathComponent("cy/link.csv").path, withDestinationPath: "../.store/big.csv")
    let text = Self.pipeline(input: input).replacingOccurrences(
      of: #""catalog": "\#(Self.catalog)""#, with: #""catalog": "\#(Self.catalog)", "limits": {"maxFileMB": 1}"#)
    let pipeline = try scratch.write(text, to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "user 'pipe' failed: pipe.csv:1:1: error: is not a regular file (a folder, pipe, socket or device); "
          + "it is not read"),
      "\(result.stderr)")
    // bob's link leads to pipe's own entry: another user's, not read as bob's (SPEC 11.7).
    #expect(
      result.stderr.contains("input entry 'bob/link.csv' links into 'pipe.csv', another user's entry"),
      "\(result.stderr)")
    #expect(
      result.stderr.contains("user 'cy' failed: link.csv:1:1: error: the file is 1.1 MB, over the limit of 1 MB"),
      "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("users/ann/volume.json").path))
  }

  /// `users.csv` is input too: a link out of the folder (whose text would be echoed in
  /// messages) or a FIFO (which would block) stops the run before anything is written.
  @Test func usersFileThatLinksOutOrIsAPipeStopsTheRun() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    try scratch.write(Self.strong(), to: "in/ann.csv")
    let outside = try scratch.write("user,timeZone\nann,SECRET\n", to: "outside.csv")
    let settings = input.appendingPathComponent("users.csv")
    try FileManager.default.createSymbolicLink(at: settings, withDestinationURL: outside)
    let pipeline = try scratch.write(Self.pipeline(input: input), to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    var result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "users.csv:1:1: error: links outside the input folder; it is not read. Put the file itself there\n")
    try FileManager.default.removeItem(at: settings)
    try #require(mkfifo(settings.path, 0o644) == 0)
    result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "users.csv:1:1: error: is not a regular file (a folder, pipe, socket or device); it is not read\n"
    )
    #expect(!FileManager.default.fileExists(atPath: out.path))
  }

  /// An unknown time zone in `users.csv` fails that user with the value and the line; the
  /// others are written.
  @Test func unknownTimeZoneInUsersFileFailsThatUser() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    try scratch.write(Self.strong(), to: "in/ann.csv")
    try scratch.write(Self.strong(), to: "in/bob.csv")
    try scratch.write("user,timeZone\nann,Europe/Oslo\nbob,Mars/Olympus_Mons\n", to: "in/users.csv")
    let pipeline = try scratch.write(Self.pipeline(input: input), to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "users.csv:3:1: error: unknown time zone 'Mars/Olympus_Mons' for user 'bob'; "
          + "use an IANA name such as Europe/Oslo"
      ),
      "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("users/ann/volume.json").path))
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("users/bob").path))
  }

  /// Workout and exercise names written as markup are shown as text in every SVG and HTML
  /// file: the raw markup appears nowhere, its escaped form does.
  @Test func markupInNamesIsEscapedInSVGAndHTML() throws {
    let scratch = try Scratch()
    let input = scratch.url.appendingPathComponent("in")
    try scratch.write(
      Self.strong(workout: "<script>alert(1)</script>", exercise: "\"\"><img src=x onerror=alert(2)>&amp;"),
      to: "in/ann.csv")
    let pipeline = try scratch.write(Self.pipeline(input: input, formats: #"["json", "svg", "html"]"#), to: "p.json")
    let out = scratch.url.appendingPathComponent("out")
    let result = try runTrendline(["run", pipeline.path, "--output", out.path, "--as-of", "2026-11-29"])
    #expect(result.status == 0, "\(result.stderr)")
    let marked = Self.files(out).filter { $0.hasSuffix(".svg") || $0.hasSuffix(".html") }
    #expect(!marked.isEmpty)
    var escapedSomewhere = false
    for file in marked {
      let text = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)
      #expect(!text.contains("<script>alert"), "\(file)")
      #expect(!text.contains("<img src=x"), "\(file)")
      #expect(!text.contains("\"><img"), "\(file)")
      if text.contains("&lt;img src=x onerror=alert(2)&gt;&amp;amp;") { escapedSomewhere = true }
    }
    #expect(escapedSomewhere, "the exercise name is shown nowhere; the test proves nothing")
  }
}
