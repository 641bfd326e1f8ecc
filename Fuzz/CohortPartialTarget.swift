// libFuzzer entry for merge's decoding and checking of one shard (`Merger.check`) and the
// reduction of what passes (`Merger._cohortFiles`): whatever the bytes, a shard is accepted
// and reduces to cohort files, or it is refused with a message, never a crash or a runaway
// allocation. The input is a `cohort-partial.json`, a NUL byte and the shard's
// `manifest.json`. Half the inputs (an even last byte) whose partial still decodes get it
// sealed again (manifest SHA-256 and checksum recomputed): without that, nearly every
// mutation would stop at the checksum and the range checks behind it would never be fuzzed.
import Foundation
import TrendlineRunner

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCohortPartial(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let split = bytes.firstIndex(of: 0) ?? bytes.count
  var partial = Data(bytes[..<split])
  let manifest = Data(bytes[min(split + 1, bytes.count)...])
  if (bytes.last ?? 0) & 1 == 0, let decoded = try? JSONDecoder().decode(CohortPartial.self, from: partial),
    let sealed = try? decoded.sealed(manifest: manifest).encoded()
  {
    partial = sealed
  }
  do throws(Merger.Failure) {
    let shard = try Merger.check(partial: partial, manifest: manifest, folder: "fuzz")
    precondition(shard.partial.problem() == nil, "a partial out of range was accepted")
    // Twice, so that merging two parts of one chart runs too.
    _ = try Merger._cohortFiles([shard.partial, shard.partial])
  } catch {
    precondition(!error.description.isEmpty, "a refused merge without a message")
  }
  return 0
}
