import Foundation
import Testing
import TrendlineIngest
import TrendlineSupport
import _TrendlineTestSupport

/// A small, seeded fuzzer that runs in every `swift test`: the first 4 KB of each SampleData
/// export, mutated 400 times (bytes flipped, quotes, delimiters, line breaks, NUL and
/// non-UTF-8 bytes inserted, the file cut short), read in every format. The long runs are
/// libFuzzer's (`Fuzz/`); this keeps their invariants checked in CI: no crash, the accounting
/// identity, only finite values, positions of rejects inside the file.
@Suite struct MutationSmokeTests {
  static let exports: [URL] = {
    let folder = TestPaths.sampleData.appendingPathComponent("exports")
    let names = FileManager.default.subpaths(atPath: folder.path) ?? []
    return names.filter { $0.hasSuffix(".csv") || $0.hasSuffix(".json") || $0.hasSuffix(".ndjson") }
      .filter { !$0.hasSuffix("users.csv") }.sorted().map { folder.appendingPathComponent($0) }
  }()

  static let interesting: [[UInt8]] = [
    [0x22], [0x2C], [0x3B], [0x09], [0x0A], [0x0D], [0x0D, 0x0A], [0x00], [0xFF], [0xC3], [0xEF, 0xBB, 0xBF],
    Array("99999999999999999999".utf8), Array("1e400".utf8), Array("NaN".utf8), Array("-1".utf8),
    Array("0000-01-01 00:00:00".utf8), Array("[[[[[[[[".utf8), Array("{\"".utf8), Array("\"\"".utf8),
  ]

  static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
    var out = bytes
    for _ in 0...random.below(4) {
      switch random.below(4) {
      case 0 where !out.isEmpty: out[random.below(out.count)] ^= UInt8(1 << random.below(8))
      case 1: out.insert(contentsOf: interesting[random.below(interesting.count)], at: random.below(out.count + 1))
      case 2 where !out.isEmpty: out.removeSubrange(random.below(out.count)..<out.count)
      default:
        if out.count > 2 {
          let start = random.below(out.count - 1)
          out.removeSubrange(start..<min(out.count, start + random.below(16) + 1))
        }
      }
    }
    return out
  }

  @Test(arguments: exports)
  func mutatedExportsAreReadOrRefusedCleanly(file: URL) throws {
    var random = SplitMix64(
      seed: UInt64(truncatingIfNeeded: file.lastPathComponent.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }))
    let original = Array(try TestPaths.bytes(file).prefix(4096))
    let formats: [ExportReader.FormatChoice] = [.auto] + ExportFormat.allCases.map { .fixed($0) }
    let layout = MappedCSVLayout(columns: .init(start: "Date", exercise: "Exercise Name", setIndex: "Set Order"))
    let name = file.lastPathComponent
    for _ in 0..<400 {
      let bytes = Self.mutate(original, &random)
      let lines = bytes.reduce(1) { $0 + ($1 == 0x0A || $1 == 0x0D ? 1 : 0) }
      let format = formats[random.below(formats.count)]
      do {
        let ingest = try ExportReader.read(
          file: name, bytes: bytes, format: format, settings: ReadSettings(), layout: layout)
        let accepted = ingest.sets.filter { !$0.sharesRowWithPrevious }.count
        let accounted = accepted + ingest.rows.rejected + ingest.rows.duplicate + ingest.rows.ignored
        #expect(ingest.rows.read == accounted, "\(name) \(format): accounting")
        #expect(ingest.sets.allSatisfy { $0.weightKg.isFinite && $0.reps.isFinite && $0.seconds.isFinite })
        #expect(ingest.rejects.allSatisfy { $0.line >= 1 && $0.line <= lines && $0.column >= 1 }, "\(name) \(format)")
      } catch {
        #expect(error.file == name && error.line >= 1 && error.line <= lines && !error.message.isEmpty, "\(error)")
      }
    }
  }
}
