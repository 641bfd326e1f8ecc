import Foundation
import Testing
import TrendlineSchema

@Suite struct OutputEncodingTests {
  let oslo = TimeZone(identifier: "Europe/Oslo")!

  /// A two-bucket weekly series in Oslo across the 26 October 2025 fall-back: the week of
  /// 20 October is in summer time (+02:00), the week of 27 October in winter time (+01:00).
  /// Instants as epoch seconds, from UTC: 2025-10-20T00:00:00+02:00 = 2025-10-19T22:00:00Z =
  /// 1 760 911 200; 2025-10-27T00:00:00+01:00 = 2025-10-26T23:00:00Z = 1 761 519 600
  /// (a week plus the extra hour, 608 400 s); 2025-11-03T00:00:00+01:00 = 1 762 124 400.
  var series: SeriesOutput {
    let w0: Int64 = 1_760_911_200
    let w1: Int64 = 1_761_519_600
    let w2: Int64 = 1_762_124_400
    return SeriesOutput(
      user: "ada", chart: "training-volume", timeZone: "Europe/Oslo",
      asOf: Date(epochSeconds: 1_762_037_999), range: .oneMonth, granularity: .week,
      measures: [.sessions, .volumeKg],
      domain: Extent(
        start: Date(epochSeconds: w0 - 304_200), end: Date(epochSeconds: w1 + 302_400)),
      buckets: [
        .init(
          start: Date(epochSeconds: w0), end: Date(epochSeconds: w1), partial: false,
          values: [.sessions: 3, .volumeKg: 1250.5], trend: [.sessions: 2.5, .volumeKg: 1000],
          bar: Extent(
            start: Date(epochSeconds: w0 - 212_940), end: Date(epochSeconds: w0 + 212_940))),
        .init(
          start: Date(epochSeconds: w1), end: Date(epochSeconds: w2), partial: true,
          values: [.sessions: 2, .volumeKg: 750], trend: [.sessions: 2.5, .volumeKg: 1000],
          bar: Extent(
            start: Date(epochSeconds: w1 - 211_680), end: Date(epochSeconds: w1 + 211_680))),
      ],
      average: [.sessions: 2.5, .volumeKg: 1000.25])
  }

  @Test func roundTripThroughJSONDecoderWithISO8601() throws {
    // What an app does: JSONDecoder with .iso8601, nothing of ours.
    let data = try OutputEncoder.encode(series, timeZone: oslo)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    #expect(try decoder.decode(SeriesOutput.self, from: data) == series)
  }

  @Test func everyOutputRoundTrips() throws {
    let decoder = OutputEncoder.makeDecoder()
    let t = Date(epochSeconds: 1_762_037_999)
    let radar = RadarOutput(
      user: "ada", chart: "muscle-balance", timeZone: "Europe/Oslo", asOf: t,
      axes: [.init(id: "back", label: "Back")],
      periods: [.init(start: t, end: t, partial: true, sessions: 3, counts: [2], scale: [1])],
      unmappedExercises: [.init(name: "Atlas Stone", sessions: 1)])
    #expect(
      try decoder.decode(RadarOutput.self, from: OutputEncoder.encode(radar, timeZone: oslo))
        == radar)
    let heatmap = HeatmapOutput(
      user: "ada", chart: "body", timeZone: "Europe/Oslo", asOf: t,
      periods: [
        .init(
          start: t, end: t, partial: true,
          groups: [.init(id: 1, name: "Chest", sessions: 1, intensity: 0.5)])
      ])
    #expect(
      try decoder.decode(HeatmapOutput.self, from: OutputEncoder.encode(heatmap, timeZone: oslo))
        == heatmap)
    let sparklines = SparklinesOutput(
      user: "ada", chart: "trends", timeZone: "Europe/Oslo", asOf: t, value: .e1rmKg,
      windowDays: 91,
      domain: Extent(start: t, end: t),
      lines: [.init(exercise: "Squat", points: [.init(t: t, v: 116.5)])])
    #expect(
      try decoder.decode(
        SparklinesOutput.self, from: OutputEncoder.encode(sparklines, timeZone: oslo)) == sparklines
    )
  }

  @Test func equalValuesGiveIdenticalBytes() throws {
    // Twice in one process; `theWrittenFile` pins the bytes across processes, where
    // Foundation's unsorted key order would change with the hash seed.
    let first = try OutputEncoder.encode(series, timeZone: oslo)
    let second = try OutputEncoder.encode(series, timeZone: oslo)
    #expect(first == second)
  }

  @Test func theWrittenFile() throws {
    // Sorted keys; instants in the offset of their own instant (+02:00 before the fall-back,
    // +01:00 after); whole numbers without ".0"; a trailing newline.
    // domain.start = w0 − 304 200 s (3 d 12 h 30 min) = 2025-10-16T11:30:00+02:00;
    // domain.end = w1 + 302 400 = 2025-10-30T12:00:00+01:00; asOf 1 762 037 999 =
    // 2025-11-01T23:59:59+01:00; first bar w0 ∓ 212 940 s (2 d 11 h 9 min) =
    // 2025-10-17T12:51:00+02:00 … 2025-10-22T11:09:00+02:00; second bar w1 ∓ 211 680 s
    // (2 d 10 h 48 min) = 2025-10-24T14:12:00+02:00 … 2025-10-29T10:48:00+01:00.
    let expected = """
      {
        "schema": "trendline/series@1",
        "user": "ada",
        "chart": "training-volume",
        "timeZone": "Europe/Oslo",
        "asOf": "2025-11-01T23:59:59+01:00",
        "range": "1m",
        "granularity": "week",
        "measures": [
          "sessions",
          "volumeKg"
        ],
        "domain": {
          "start": "2025-10-16T11:30:00+02:00",
          "end": "2025-10-30T12:00:00+01:00"
        },
        "buckets": [
          {
            "start": "2025-10-20T00:00:00+02:00",
            "end": "2025-10-27T00:00:00+01:00",
            "partial": false,
            "values": {
              "sessions": 3,
              "volumeKg": 1250.5
            },
            "trend": {
              "sessions": 2.5,
              "volumeKg": 1000
            },
            "bar": {
              "start": "2025-10-17T12:51:00+02:00",
              "end": "2025-10-22T11:09:00+02:00"
            }
          },
          {
            "start": "2025-10-27T00:00:00+01:00",
            "end": "2025-11-03T00:00:00+01:00",
            "partial": true,
            "values": {
              "sessions": 2,
              "volumeKg": 750
            },
            "trend": {
              "sessions": 2.5,
              "volumeKg": 1000
            },
            "bar": {
              "start": "2025-10-24T14:12:00+02:00",
              "end": "2025-10-29T10:48:00+01:00"
            }
          }
        ],
        "average": {
          "sessions": 2.5,
          "volumeKg": 1000.25
        }
      }

      """
    #expect(
      String(decoding: try OutputEncoder.encode(series, timeZone: oslo), as: UTF8.self) == expected)
  }

  @Test func noTrendKeyWithoutSmoothAndNullDomainWithoutBuckets() throws {
    var value = series
    value.buckets = value.buckets.map {
      var bucket = $0
      bucket.trend = nil
      return bucket
    }
    let withoutTrend = String(
      decoding: try OutputEncoder.encode(value, timeZone: oslo), as: UTF8.self)
    #expect(!withoutTrend.contains("\"trend\""))
    value.buckets = []
    value.domain = nil
    let empty = String(decoding: try OutputEncoder.encode(value, timeZone: oslo), as: UTF8.self)
    #expect(empty.contains("\"domain\": null,"))
    #expect(empty.contains("\"buckets\": [],"))
    #expect(
      try OutputEncoder.makeDecoder().decode(SeriesOutput.self, from: Data(empty.utf8)) == value)
  }

  @Test func decodingTheWrongSchemaNamesBoth() throws {
    let t = Date(epochSeconds: 0)
    let heatmap = HeatmapOutput(user: "ada", chart: "body", timeZone: "UTC", asOf: t, periods: [])
    let data = try OutputEncoder.encode(heatmap, timeZone: TimeZone(identifier: "UTC")!)
    do {
      _ = try OutputEncoder.makeDecoder().decode(RadarOutput.self, from: data)
      Issue.record("a heat map decoded as a radar")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(
        context.debugDescription
          == "schema 'trendline/heatmap@1' is not 'trendline/radar@1'; this decoder reads only trendline/radar@1"
      )
    }
  }

  @Test func notANumberIsAnErrorNotNull() {
    var value = series
    value.average[.sessions] = .nan
    #expect(throws: EncodingError.self) { try OutputEncoder.encode(value, timeZone: oslo) }
  }
}
