// libFuzzer entry for `JSONReader`: `parse` and `parseDocument` with position look-ups, on
// the same input. Whatever the input, both agree, and each returns a value or the same
// `JSONSyntaxError`, whose line and column lie inside the input.
import TrendlineSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let reader = JSONReader()
  let plain = Result { () throws(JSONSyntaxError) in try reader.parse(bytes) }
  do {
    let document = try reader.parseDocument(bytes)
    _ = document.location(of: JSONPath())
    _ = document.sourceLocation(of: JSONPath(), file: "fuzz.json")
    guard case .success(let value) = plain, value == document.value else {
      preconditionFailure("parse and parseDocument disagree")
    }
  } catch {
    guard case .failure(let plainError) = plain, plainError == error else {
      preconditionFailure("parse and parseDocument disagree")
    }
    precondition(error.line >= 1 && error.column >= 1, "error position below 1")
    precondition(error.offset <= bytes.count, "error offset past the end")
    _ = error.diagnostic(file: "fuzz.json").description
  }
  return 0
}
