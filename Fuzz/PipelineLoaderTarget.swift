// libFuzzer entry for `PipelineLoader.load(contents:of:)`: any bytes give a pipeline or at
// least one diagnostic, never a crash. The file is placed in Pipelines/ so that the seeds'
// relative catalog paths resolve and the catalog checks run too. A loaded pipeline's chart
// names, which become file names, must be plain names.
import Foundation
import TrendlinePipeline

let pipelineURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("Pipelines/fuzz.json")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPipelineLoader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  switch PipelineLoader.load(contents: bytes, of: pipelineURL) {
  case .success(let pipeline):
    // A chart name becomes part of an output path: whatever the input, it is a plain name.
    for chart in pipeline.charts {
      precondition(
        !chart.name.isEmpty && !chart.name.hasPrefix(".") && !chart.name.contains("/") && !chart.name.contains("\0"),
        "a chart name that is not a plain file name was accepted")
    }
  case .failure(let errors):
    precondition(!errors.diagnostics.isEmpty, "a failed load without a diagnostic")
    _ = errors.description
  }
  return 0
}
