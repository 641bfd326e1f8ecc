// libFuzzer entry for `CSVReader`: every record of any input is read to the end without a
// crash, every field's range lies inside the input, and the reader always makes progress.
import TrendlineSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  // Also try each delimiter explicitly, chosen by the first byte, so the sniffer is not the
  // only way in; and a small field limit, so the over-limit path is reached too.
  let delimiters: [UInt8?] = [nil, ASCII.comma, ASCII.semicolon, ASCII.tab]
  let delimiter = delimiters[Int(bytes.first ?? 0) % delimiters.count]
  let small = bytes.count > 1 && bytes[1] & 1 == 1
  let reader = CSVReader(
    bytes: bytes, delimiter: delimiter, maximumFieldBytes: small ? 64 : 1 << 20, maximumFields: small ? 8 : 1000)
  var events = 0
  while true {
    let event = reader.next()
    events += 1
    // An input of n bytes has at most n + 1 records: more means the reader stopped moving.
    precondition(events <= bytes.count + 2, "CSVReader made no progress")
    switch event {
    case .end: return 0
    case .blankLine: continue
    case .malformed(let m):
      precondition(m.line >= m.recordLine && m.column >= 1, "malformation position out of order")
    case .record:
      precondition(reader.fieldCount <= reader.maximumFields, "more fields than the limit")
      for index in 0..<reader.fieldCount {
        let field = reader.fields[index]
        precondition(field.start <= field.end && field.end <= bytes.count, "field outside input")
        _ = reader.string(index)
        _ = reader.isEmpty(index)
      }
    }
  }
}
