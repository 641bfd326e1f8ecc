// libFuzzer entry for the session cache's entry decoder and validator
// (`SessionCache._decodeEntry`): whatever the bytes, it gives a read that keeps the export
// readers' guarantees, or a `CacheFault` (the run would then read the exports again), never a
// crash or a runaway allocation. Half the inputs (an even last byte) get their header's length
// and checksum fixed first: without that, nearly every mutation would stop at the checksum and
// the decoder behind it would never be fuzzed.
import TrendlineIngest
import TrendlineRunner
import TrendlineSchema

let limits = ReadLimits()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionCache(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if (bytes.last ?? 0) & 1 == 0 { bytes = SessionCache._resealed(bytes) }
  do throws(CacheFault) {
    let ingest = try SessionCache._decodeEntry(bytes, limits: limits)
    // The guarantees, restated here rather than by calling the validator again, so a check the
    // validator forgot is still a finding.
    var previous: Session?
    for session in ingest.sessions {
      precondition((0...253_402_300_799).contains(session.start), "a start outside 1970...9999 was decoded")
      precondition(
        session.durationSeconds.map { (0...86_400).contains($0) } ?? true, "a duration outside 0...24 h was decoded")
      if let previous {
        precondition(
          previous.start < session.start || (previous.start == session.start && previous.key < session.key),
          "sessions out of order were decoded")
      }
      previous = session
      precondition(
        !session.exercises.contains { $0.isUnmapped && !$0.muscleGroupIds.isEmpty },
        "an exercise both unmapped and with muscle groups was decoded")
      for set in session.sets {
        precondition(set.exercise >= 0 && Int(set.exercise) < session.exercises.count, "an exercise outside the table")
        precondition((0...1500).contains(set.weightKg) && (0...1000).contains(set.reps), "an impossible set")
        precondition(set.distanceMeters.isFinite && set.distanceMeters >= 0, "an impossible distance")
        precondition(set.seconds.isFinite && set.seconds >= 0, "an impossible set time")
      }
    }
    for file in ingest.files {
      precondition(file.rows.balances && file.rows.isWithin(0...limits.maxFileBytes), "rows do not add up")
    }
  } catch {
    precondition(!error.description.isEmpty, "a fault without a message")
  }
  return 0
}
