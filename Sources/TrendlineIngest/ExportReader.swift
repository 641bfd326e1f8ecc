import Foundation
import TrendlineSchema
import TrendlineSupport

/// Reads one export file in a given or sniffed format: the one door into every format reader.
public enum ExportReader {
  /// What `source.format` asks for: one format for every file, or `auto` to sniff each.
  public enum FormatChoice: Sendable, Equatable {
    case auto
    case fixed(ExportFormat)
  }

  /// Reads `bytes` as the export `file` (the name used in rejects and messages).
  ///
  /// - Throws: ``ExportError`` when the file cannot be read at all: empty, not a known
  ///   format, a header missing a required column, or a mapped CSV with no layout.
  /// - Complexity: O(*n*), where *n* is the file's size in bytes.
  public static func read(
    file: String, bytes: [UInt8], format: FormatChoice = .auto, settings: ReadSettings,
    layout: MappedCSVLayout? = nil, limits: ReadLimits = ReadLimits()
  ) throws(ExportError) -> FileIngest {
    guard bytes.count <= limits.maxFileBytes else { throw limits.fileTooLarge(file, size: bytes.count) }
    // A UTF-16 export (Excel's "Unicode text") reads as junk with a NUL after every letter;
    // saying what it is tells the user the one thing to change.
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      throw ExportError(file: file, message: "the file is UTF-16; save or export it as UTF-8 and read it again")
    }
    let resolved: ExportFormat
    switch format {
    case .fixed(let given):
      resolved = given
    case .auto:
      guard !bytes.isEmpty else {
        throw ExportError(file: file, message: "the file is empty; export it again from the app")
      }
      guard let sniffed = ExportFormat.sniff(bytes, fileName: file) else {
        // A file recognised as no workout log at all is refused for what it is: a guessed
        // column mapping would read its activities as sets of nothing.
        if let what = ExportFormat.notAWorkoutLog(Array(bytes.prefix(1 << 16))) {
          throw ExportError(file: file, message: what)
        }
        var message =
          "not a known export (Strong, Hevy CSV or JSON, FitNotes, Fitbod, StrongLifts, GymBook, Liftosaur, JEFIT, "
          + "native JSON or NDJSON); "
          + "for another app's CSV set source.format to \"csv\" with a source.csv column mapping"
        if let guess = MappingGuess.suggestion(for: Array(bytes.prefix(1 << 16))) {
          message +=
            ". Its header is: \(guess.header). A mapping guessed from it, "
            + "to check and paste into the pipeline's source: \(guess.mapping)"
        }
        throw ExportError(file: file, message: message)
      }
      resolved = sniffed
    }
    switch resolved {
    case .strongCSV: return try StrongCSV.read(file: file, bytes: bytes, settings: settings, limits: limits)
    case .hevyCSV: return try HevyCSV.read(file: file, bytes: bytes, settings: settings, limits: limits)
    case .fitNotesCSV: return try FitNotesCSV.read(file: file, bytes: bytes, settings: settings, limits: limits)
    case .fitbodCSV: return try FitbodCSV.read(file: file, bytes: bytes, settings: settings, limits: limits)
    case .strongLiftsCSV: return try StrongLiftsCSV.read(file: file, bytes: bytes, settings: settings, limits: limits)
    case .gymBookCSV: return try GymBookCSV.read(file: file, bytes: bytes, settings: settings, limits: limits)
    case .liftosaurCSV: return try LiftosaurCSV.read(file: file, bytes: bytes, settings: settings, limits: limits)
    case .appleHealthCSV: return try AppleHealthCSV.read(file: file, bytes: bytes, limits: limits)
    case .nativeJSON: return try NativeJSON.read(file: file, bytes: bytes, settings: settings, limits: limits)
    case .ndjson: return try NDJSON.read(file: file, bytes: bytes, settings: settings, limits: limits)
    case .hevyJSON: return try HevyJSON.read(file: file, bytes: bytes, settings: settings, limits: limits)
    case .jefitCSV: return try JEFITCSV.read(file: file, bytes: bytes, settings: settings, limits: limits)
    case .mappedCSV:
      guard let layout else {
        throw ExportError(
          file: file, message: "format \"csv\" needs a source.csv column mapping in the pipeline")
      }
      return try MappedCSV.read(file: file, bytes: bytes, settings: settings, layout: layout, limits: limits)
    }
  }
}
