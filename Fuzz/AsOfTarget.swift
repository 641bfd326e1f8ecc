// libFuzzer entry for `--as-of`: any text is refused with a message or read as an as-of that
// every stage can use. A read as-of is resolved in the zones furthest from UTC and in zones
// with odd clock changes, every bucket range is computed back from it (ten years of months,
// as a heat map does), and the series is filled, smoothed and written: no date arithmetic may
// trap or leave the years 1959–2201.
import Foundation
import TrendlineSchema
import TrendlineStages

let zones = ["UTC", "Pacific/Kiritimati", "Etc/GMT+12", "America/Nuuk", "Australia/Lord_Howe", "Asia/Kathmandu"]
  .map { TimeZone(identifier: $0)! }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAsOf(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let text = String(decoding: bytes, as: UTF8.self)
  let asOf: AsOf
  do throws(AsOf.Invalid) {
    asOf = try AsOf(reading: text)
  } catch {
    precondition(!error.description.isEmpty, "a refusal without a message")
    return 0
  }
  let zone = zones[Int(bytes.last ?? 0) % zones.count]
  let calendar = UserCalendar(timeZone: zone, firstWeekday: Weekday.allCases[Int(bytes.first ?? 0) % 7])
  let resolved = asOf.resolve(for: calendar)
  precondition(
    resolved >= AsOf.supportedInstants.lowerBound - 2 * 86_400
      && resolved <= AsOf.supportedInstants.upperBound + 2 * 86_400,
    "an as-of resolved outside the supported dates: \(resolved)")
  for granularity in Granularity.allCases {
    let periods = Periods(granularity, last: 120, through: resolved, calendar: calendar)
    let first = RFC3339.format(seconds: periods.start(0), timeZone: zone)
    let last = RFC3339.format(seconds: periods.end(periods.count - 1), timeZone: zone)
    precondition(first >= "1959" && last < "2202", "periods left the supported years: \(first) … \(last)")
  }
  let session = Session(key: "a", start: max(0, resolved - 40 * 86_400), durationSeconds: 3600, name: "A", sets: [])
  for range in BucketRange.allCases {
    var series = Bucket(range: range, measures: [.sessions, .volumeKg]).apply([session], calendar: calendar, asOf: resolved)
    series = FillGaps(with: .zero).apply(series)
    series = Smooth(method: .centeredMean, window: 5).apply(series)
    let output = Emit().apply(series, user: "u", chart: "c", calendar: calendar)
    _ = try? OutputWriter.encode(output, timeZone: zone)
  }
  return 0
}
