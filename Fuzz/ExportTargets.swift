// libFuzzer entries for the export formats, one binary per format (chosen with -D at link
// time by Fuzz/run.sh). Whatever the input, the reader returns a `FileIngest` whose
// accounting identity holds, or an `ExportError` naming the file and a line inside it.
import Foundation
import TrendlineIngest
import TrendlineSupport

#if TARGET_STRONG_CSV
  let choice = ExportReader.FormatChoice.fixed(.strongCSV)
#elseif TARGET_HEVY_CSV
  let choice = ExportReader.FormatChoice.fixed(.hevyCSV)
#elseif TARGET_FITNOTES_CSV
  let choice = ExportReader.FormatChoice.fixed(.fitNotesCSV)
#elseif TARGET_FITBOD_CSV
  let choice = ExportReader.FormatChoice.fixed(.fitbodCSV)
#elseif TARGET_LIFTOSAUR_CSV
  let choice = ExportReader.FormatChoice.fixed(.liftosaurCSV)
#elseif TARGET_NATIVE_JSON
  let choice = ExportReader.FormatChoice.fixed(.nativeJSON)
#elseif TARGET_NDJSON
  let choice = ExportReader.FormatChoice.fixed(.ndjson)
#elseif TARGET_HEVY_JSON
  let choice = ExportReader.FormatChoice.fixed(.hevyJSON)
#elseif TARGET_JEFIT_CSV
  let choice = ExportReader.FormatChoice.fixed(.jefitCSV)
#elseif TARGET_MAPPED_CSV
  let choice = ExportReader.FormatChoice.fixed(.mappedCSV)
#else
  let choice = ExportReader.FormatChoice.auto
#endif

// The layout of SampleData/mapped (Pipelines/mapped-csv.json) plus every optional column, so
// the mapped reader's every branch can be reached.
let layout = MappedCSVLayout(
  columns: .init(
    start: "day", exercise: "lift", session: "session", end: "end", duration: "duration",
    weight: "kg", reps: "reps", setType: "type", setIndex: "set", distance: "km",
    seconds: "seconds"),
  delimiter: ";", decimalSeparator: ",", dateFormat: "dd.MM.yyyy HH:mm")
let minimalLayout = MappedCSVLayout(columns: .init(start: "day", exercise: "lift"))

let zones = ["UTC", "Europe/Vienna", "America/New_York", "Pacific/Chatham"].compactMap(TimeZone.init(identifier:))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let pick = Int(bytes.last ?? 0)
  let settings = ReadSettings(
    timeZone: zones[pick % zones.count], weightUnit: pick & 4 == 0 ? .kilograms : .pounds,
    distanceUnit: pick & 8 == 0 ? .kilometers : .miles)
  let file = pick & 16 == 0 ? "export.csv" : "export.ndjson"
  do {
    let ingest = try ExportReader.read(
      file: file, bytes: bytes, format: choice, settings: settings,
      layout: pick & 32 == 0 ? layout : minimalLayout)
    // A row is accepted once however many sets it holds (a StrongLifts row holds a whole
    // exercise block): the sets that share their row with the one before are not rows.
    let acceptedRows = ingest.sets.reduce(0) { $0 + ($1.sharesRowWithPrevious ? 0 : 1) }
    let sum = acceptedRows + ingest.rowsRejected + ingest.duplicateRows + ingest.ignoredRows
    precondition(ingest.rowsRead == sum, "accounting: rowsRead \(ingest.rowsRead) != \(sum)")
    // Rows past the listing bound are counted, not listed: one note per outcome says so.
    precondition(ingest.rejects.count <= ingest.rowsRejected, "more rejects listed than counted")
    precondition(
      ingest.notes.count <= FileIngest.maximumListedRows + RowNote.Outcome.allCases.count, "notes past the bound")
    precondition(ingest.rowsRepaired <= acceptedRows, "more repaired rows than accepted")
    for reject in ingest.rejects {
      precondition(reject.file == file && reject.line >= 1 && reject.column >= 1, "reject position")
    }
    for set in ingest.sets {
      precondition(set.weightKg.isFinite && set.reps.isFinite, "a non-finite value was accepted")
      // A negative weight is rejected, or on an assisted exercise read as no load: never kept.
      precondition(set.weightKg >= 0 && set.reps >= 0, "a negative value was accepted")
      precondition((set.muscleNames?.count ?? 0) <= 64, "more muscle names than a row may carry")
      // Native JSON looks lines up only for rejects (its accepted sets carry line 0).
      precondition(set.line >= (ingest.format == .nativeJSON ? 0 : 1), "set line below 1")
      precondition(set.seconds.isFinite && set.distanceMeters.isFinite, "a non-finite value was accepted")
    }
  } catch {
    precondition(error.file == file && error.line >= 1 && error.column >= 1, "error position")
    precondition(!error.message.isEmpty, "an error without a message")
  }
  return 0
}
