import Foundation
import TrendlineSchema
import TrendlineSupport

/// The session key shared by every format: the start instant and the NFC name, so two
/// exports of one workout agree whatever their date spelling or variant.
@inline(__always)
func sessionKey(start: Int64, name: String) -> String {
  "\(start)|\(name)"
}

/// Whether `bytes` are all valid UTF-8.
///
/// Validated in chunks cut at character boundaries, so a large file costs no second copy:
/// `String(validating:)` builds the string it validates.
///
/// - Complexity: O(*n*), where *n* is the number of bytes.
func isValidUTF8(_ bytes: [UInt8]) -> Bool {
  let chunk = 1 << 16  // An empirically cheap size: the copy stays in cache.
  return bytes.withUnsafeBufferPointer { buffer in
    var start = 0
    while start < buffer.count {
      var end = min(start + chunk, buffer.count)
      // Back up over continuation bytes (10xxxxxx) so no character is cut in two.
      var backed = 0
      while end < buffer.count && backed < 3 && buffer[end] & 0xC0 == 0x80 {
        end -= 1
        backed += 1
      }
      let slice = UnsafeBufferPointer(rebasing: buffer[start..<end])
      if !isASCII(slice) && String(validating: slice, as: UTF8.self) == nil { return false }
      start = end
    }
    return true
  }
}

/// Whether every byte is below 0x80, eight bytes at a time: nearly every export is ASCII,
/// and a byte-by-byte test was 3 % of a whole run.
///
/// - Complexity: O(*n*), where *n* is the number of bytes.
func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let base = UnsafeRawPointer(bytes.baseAddress) else { return true }
  let words = bytes.count / 8
  var high: UInt64 = 0
  for index in 0..<words { high |= base.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) }
  for index in words * 8..<bytes.count { high |= UInt64(bytes[index]) }
  return high & 0x8080_8080_8080_8080 == 0
}

/// The first field of the current record that is not valid UTF-8, and its first bad byte.
///
/// - Complexity: O(*r*), where *r* is the length of the record.
func firstInvalidUTF8Field(_ reader: CSVReader) -> (index: Int, byte: UInt8)? {
  for index in 0..<reader.fieldCount {
    let field = reader.field(index)
    guard field.contains(where: { $0 >= 0x80 }), String(validating: field, as: UTF8.self) == nil else { continue }
    var decoder = UTF8()
    var iterator = field.makeIterator()
    var offset = 0
    loop: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): offset += UTF8.width(scalar)
      case .emptyInput: break loop
      // `offset` is where the bad sequence starts: the widths of the scalars before it.
      case .error: return (index, field[min(offset, field.count - 1)])
      }
    }
    return (index, field[0])
  }
  return nil
}

/// A JSON syntax error's message, with the `source.limits` key that raises the limit when it
/// is a limit.
func limitHint(_ error: JSONSyntaxError) -> String {
  switch error.kind {
  case .stringTooLong: return error.message + "; raise source.limits.maxFieldKB to read it"
  default: return error.message
  }
}

/// A reader's limit message with the `source.limits` key that raises the limit.
func limitHint(_ message: String) -> String {
  if message.hasPrefix("field is longer than the limit") {
    return message + "; raise source.limits.maxFieldKB to read it"
  }
  if message.hasPrefix(CSVReader.tooManyFieldsMessage) {
    return message + "; raise source.limits.maxColumns to read it"
  }
  return message
}
