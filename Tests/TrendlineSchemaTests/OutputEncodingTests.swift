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
      asOfBucket: 1, buckets: buckets(w0, w1, w2), average: [.sessions: 3, .volumeKg: 1250.5]
    ).withDerivedFields()
  }

  func buckets(_ w0: Int64, _ w1: Int64, _ w2: Int64) -> [SeriesOutput.Bucket] {
    [
      .init(
        id: "2025-10-20", start: Date(epochSeconds: w0), end: Date(epochSeconds: w1), partial: false,
        values: [.sessions: 3, .volumeKg: 1250.5], trend: [.sessions: 2.5, .volumeKg: 1000],
        bar: Extent(
          start: Date(epochSeconds: w0 - 212_940), end: Date(epochSeconds: w0 + 212_940))),
      .init(
        id: "2025-10-27", start: Date(epochSeconds: w1), end: Date(epochSeconds: w2), partial: true,
        elapsed: 6.0 / 7, values: [.sessions: 2, .volumeKg: 750], trend: [.sessions: 2.5, .volumeKg: 1000],
        bar: Extent(
          start: Date(epochSeconds: w1 - 211_680), end: Date(epochSeconds: w1 + 211_680))),
    ]
  }

  @Test func roundTripThroughJSONDecoderWithISO8601() throws {
    // What an app does: JSONDecoder with .iso8601, nothing of ours.
    let data = try OutputWriter.encode(series, timeZone: oslo)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    #expect(try decoder.decode(SeriesOutput.self, from: data) == series)
  }

  @Test func everyOutputRoundTrips() throws {
    let decoder = OutputWriter.makeDecoder()
    let t = Date(epochSeconds: 1_762_037_999)
    let radar = RadarOutput(
      user: "ada", chart: "muscle-balance", timeZone: "Europe/Oslo", asOf: t,
      axes: [.init(id: "back", label: "Back")],
      periods: [.init(id: "2025-11-01", start: t, end: t, partial: true, sessions: 3, counts: [2], scale: [1])],
      unmappedExercises: [.init(name: "Atlas Stone", sessions: 1)])
    #expect(
      try decoder.decode(RadarOutput.self, from: OutputWriter.encode(radar, timeZone: oslo))
        == radar)
    let heatmap = HeatmapOutput(
      user: "ada", chart: "body", timeZone: "Europe/Oslo", asOf: t,
      periods: [
        .init(
          id: "2025-11-01", start: t, end: t, partial: true,
          groups: [.init(id: 1, name: "Chest", sessions: 1, intensity: 0.5)])
      ])
    #expect(
      try decoder.decode(HeatmapOutput.self, from: OutputWriter.encode(heatmap, timeZone: oslo))
        == heatmap)
    let sparklines = SparklinesOutput(
      user: "ada", chart: "trends", timeZone: "Europe/Oslo", asOf: t, value: .e1rmKg,
      windowDays: 91,
      domain: Extent(start: t, end: t),
      lines: [.init(exercise: "Squat", points: [.init(t: t, v: 116.5)])])
    #expect(
      try decoder.decode(
        SparklinesOutput.self, from: OutputWriter.encode(sparklines, timeZone: oslo)) == sparklines
    )
  }

  @Test func equalValuesGiveIdenticalBytes() throws {
    // Twice in one process; `theWrittenFile` pins the bytes across processes, where
    // Foundation's unsorted key order would change with the hash seed.
    let first = try OutputWriter.encode(series, timeZone: oslo)
    let second = try OutputWriter.encode(series, timeZone: oslo)
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
    // The second week holds as-of (asOfBucket 1): 6 of its 7 days have passed, so elapsed 6/7,
    // and the average is the first week's alone. Axes of five labels: sessions reach 3, a step
    // of 1 to 4; volume 1250.5, 312.6 a step, so 400 to 1600.
    let expected = """
      {
        "schema": "trendline/series@2",
        "user": "ada",
        "chart": "training-volume",
        "timeZone": "Europe/Oslo",
        "units": {
          "weight": "kg",
          "distance": "km"
        },
        "asOf": "2025-11-01T23:59:59+01:00",
        "range": "1m",
        "granularity": "week",
        "measures": [
          "sessions",
          "volumeKg"
        ],
        "mark": {
          "sessions": "bar",
          "volumeKg": "bar"
        },
        "domain": {
          "start": "2025-10-16T11:30:00+02:00",
          "end": "2025-10-30T12:00:00+01:00"
        },
        "asOfBucket": 1,
        "yAxis": {
          "sessions": {
            "unit": "sessions",
            "domain": {
              "min": 0,
              "max": 4
            },
            "ticks": {
              "3": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 4,
                  "label": "4"
                }
              ],
              "4": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 1,
                  "label": "1"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 3,
                  "label": "3"
                }
              ],
              "5": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 1,
                  "label": "1"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 3,
                  "label": "3"
                },
                {
                  "value": 4,
                  "label": "4"
                }
              ],
              "7": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 1,
                  "label": "1"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 3,
                  "label": "3"
                },
                {
                  "value": 4,
                  "label": "4"
                },
                {
                  "value": 5,
                  "label": "5"
                },
                {
                  "value": 6,
                  "label": "6"
                }
              ]
            }
          },
          "volumeKg": {
            "unit": "kg",
            "domain": {
              "min": 0,
              "max": 1600
            },
            "ticks": {
              "3": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 800,
                  "label": "800"
                },
                {
                  "value": 1600,
                  "label": "1 600"
                }
              ],
              "4": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 500,
                  "label": "500"
                },
                {
                  "value": 1000,
                  "label": "1 000"
                },
                {
                  "value": 1500,
                  "label": "1 500"
                }
              ],
              "5": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 400,
                  "label": "400"
                },
                {
                  "value": 800,
                  "label": "800"
                },
                {
                  "value": 1200,
                  "label": "1 200"
                },
                {
                  "value": 1600,
                  "label": "1 600"
                }
              ],
              "7": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 250,
                  "label": "250"
                },
                {
                  "value": 500,
                  "label": "500"
                },
                {
                  "value": 750,
                  "label": "750"
                },
                {
                  "value": 1000,
                  "label": "1 000"
                },
                {
                  "value": 1250,
                  "label": "1 250"
                },
                {
                  "value": 1500,
                  "label": "1 500"
                }
              ]
            }
          }
        },
        "buckets": [
          {
            "id": "2025-10-20",
            "start": "2025-10-20T00:00:00+02:00",
            "end": "2025-10-27T00:00:00+01:00",
            "partial": false,
            "elapsed": 1,
            "sessions": 0,
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
            },
            "label": "Week of 20 Oct 2025: sessions 3 (trend 2.5) · volume 1 251 kg (trend 1 000 kg)"
          },
          {
            "id": "2025-10-27",
            "start": "2025-10-27T00:00:00+01:00",
            "end": "2025-11-03T00:00:00+01:00",
            "partial": true,
            "elapsed": 0.8571428571428571,
            "sessions": 0,
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
            },
            "label": "Week of 27 Oct 2025 (so far): sessions 2 (trend 2.5) · volume 750 kg (trend 1 000 kg)"
          }
        ],
        "average": {
          "sessions": 3,
          "volumeKg": 1250.5
        },
        "recordBuckets": {},
        "xAxis": {
          "ticks": {
            "3": [
              {
                "value": "2025-10-20T00:00:00+02:00",
                "label": "20 Oct 2025"
              },
              {
                "value": "2025-10-27T00:00:00+01:00",
                "label": "27 Oct"
              }
            ],
            "4": [
              {
                "value": "2025-10-20T00:00:00+02:00",
                "label": "20 Oct 2025"
              },
              {
                "value": "2025-10-27T00:00:00+01:00",
                "label": "27 Oct"
              }
            ],
            "5": [
              {
                "value": "2025-10-20T00:00:00+02:00",
                "label": "20 Oct 2025"
              },
              {
                "value": "2025-10-27T00:00:00+01:00",
                "label": "27 Oct"
              }
            ],
            "7": [
              {
                "value": "2025-10-20T00:00:00+02:00",
                "label": "20 Oct 2025"
              },
              {
                "value": "2025-10-27T00:00:00+01:00",
                "label": "27 Oct"
              }
            ]
          }
        }
      }

      """
    #expect(
      String(decoding: try OutputWriter.encode(series, timeZone: oslo), as: UTF8.self) == expected)
  }

  @Test func noTrendKeyWithoutSmoothAndNullDomainWithoutBuckets() throws {
    var value = series
    value.buckets = value.buckets.map {
      var bucket = $0
      bucket.trend = nil
      return bucket
    }
    let withoutTrend = String(
      decoding: try OutputWriter.encode(value, timeZone: oslo), as: UTF8.self)
    #expect(!withoutTrend.contains("\"trend\""))
    value.buckets = []
    value.domain = nil
    let empty = String(decoding: try OutputWriter.encode(value, timeZone: oslo), as: UTF8.self)
    #expect(empty.contains("\"domain\": null,"))
    #expect(empty.contains("\"buckets\": [],"))
    #expect(
      try OutputWriter.makeDecoder().decode(SeriesOutput.self, from: Data(empty.utf8)) == value)
  }

  @Test func decodingTheWrongSchemaNamesBoth() throws {
    let t = Date(epochSeconds: 0)
    let heatmap = HeatmapOutput(user: "ada", chart: "body", timeZone: "UTC", asOf: t, periods: [])
    let data = try OutputWriter.encode(heatmap, timeZone: TimeZone(identifier: "UTC")!)
    do {
      _ = try OutputWriter.makeDecoder().decode(RadarOutput.self, from: data)
      Issue.record("a heat map decoded as a radar")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(
        context.debugDescription
          == "schema 'trendline/heatmap@1' is not 'trendline/radar@1', the only version this decoder reads: "
          + "it is another kind of output")
    }
  }

  /// `ChartOutput` and `CohortChart` decode any output of their kind by its `schema`.
  @Test func anyOutputDecodesByItsSchema() throws {
    let decoder = OutputWriter.makeDecoder()
    let heatmap = try OutputWriter.encode(OutputFixtures.heatmap, timeZone: TimeZone(identifier: "UTC")!)
    #expect(try decoder.decode(ChartOutput.self, from: heatmap) == ChartOutput(OutputFixtures.heatmap))
    let cohort = try OutputWriter.encode(OutputFixtures.cohortSeries, timeZone: TimeZone(identifier: "UTC")!)
    #expect(try decoder.decode(CohortChart.self, from: cohort) == .series(OutputFixtures.cohortSeries))
    do {
      _ = try decoder.decode(ChartOutput.self, from: cohort)
      Issue.record("a cohort file decoded as a user's chart")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.hasPrefix("schema 'trendline/cohort-series@2' is none this decoder reads ("))
    }
  }

  /// Keys added to a version after its first files (radar `largest`, a period's `id` and
  /// `elapsed`, a cohort radar's `partial` and `n`) may be absent: an older file of the same
  /// version decodes, with them worked out from the rest of the file.
  @Test func olderFilesOfAVersionDecodeWithTheAddedKeysWorkedOut() throws {
    /// The output's JSON without `top` keys at its top level and `inner` keys in each element
    /// of `list` (and of that list's elements' `counts` objects).
    func older<T: Decodable>(
      _ output: some OutputWritable, _ type: T.Type, top: Set<String> = [], list: String, inner: Set<String>
    ) throws -> T {
      let data = try OutputWriter.encode(output, timeZone: TimeZone(identifier: "UTC")!)
      var object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
      for key in top { object[key] = nil }
      object[list] = (object[list] as! [[String: Any]]).map { element in
        var element = element.filter { !inner.contains($0.key) }
        if var counts = element["counts"] as? [String: Any] {
          for key in inner { counts[key] = nil }
          element["counts"] = counts
        }
        return element
      }
      return try OutputWriter.makeDecoder().decode(type, from: JSONSerialization.data(withJSONObject: object))
    }
    let radar = try older(
      OutputFixtures.radar, RadarOutput.self, top: ["largest", "units"], list: "periods", inner: ["id", "elapsed"])
    #expect(radar.largest == 4)
    // Local start dates in Kathmandu (+05:45); the partial month's elapsed from as-of:
    // (1 764 437 399 + 1 − 1 761 936 300) / (1 764 528 300 − 1 761 936 300).
    #expect(radar.periods.map(\.id) == ["2025-10-01", "2025-11-01"])
    #expect(radar.periods.map(\.elapsed) == [1, 2_501_100.0 / 2_592_000])
    #expect(radar.axes == OutputFixtures.radar.axes)
    let heatmap = try older(OutputFixtures.heatmap, HeatmapOutput.self, list: "periods", inner: ["id"])
    #expect(heatmap.periods.map(\.id) == OutputFixtures.heatmap.periods.map(\.id))
    let cohort = try older(
      OutputFixtures.cohortRadar, CohortRadarOutput.self, top: ["partial"], list: "axes", inner: ["n"])
    #expect(cohort.partial)
    #expect(cohort.axes.map(\.counts.n) == [3, 3])
  }

  /// A file of the version before unknown values became `null` (SPEC 10.9) is refused with what
  /// to do, not decoded with its zeros taken for facts.
  @Test func decodingAnOlderVersionSaysToRunAgain() throws {
    var text = String(decoding: try OutputWriter.encode(OutputFixtures.series, timeZone: oslo), as: UTF8.self)
    text = text.replacingOccurrences(of: "trendline/series@2", with: "trendline/series@1")
    do {
      _ = try OutputWriter.makeDecoder().decode(SeriesOutput.self, from: Data(text.utf8))
      Issue.record("a series@1 file decoded as series@2")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(
        context.debugDescription
          == "schema 'trendline/series@1' is not 'trendline/series@2', the only version this decoder reads: "
          + "it was written by another version of Trendline; run the pipeline again to rewrite it")
    }
  }

  @Test func aNumberJSONCannotHoldIsAnErrorNamingItsPlace() {
    func failure(_ value: some OutputWritable) -> String? {
      do {
        _ = try OutputWriter.encode(value, timeZone: oslo)
        return nil
      } catch {
        return "\(error)"
      }
    }
    var series = series
    series.average[.sessions] = .nan
    #expect(failure(series) == "nan at average.sessions cannot be written as JSON")
    var radar = OutputFixtures.radar
    radar.periods[0].scale = [0.5, .infinity]
    #expect(failure(radar) == "inf at periods[0].scale[1] cannot be written as JSON")
    var cohort = OutputFixtures.cohortSeries
    cohort.buckets[0].values[.volumeKg]?.quantiles[1].value = -.infinity
    #expect(failure(cohort) == "-inf at buckets[0].values.volumeKg.p12.5 cannot be written as JSON")
    var sparklines = OutputFixtures.sparklines
    sparklines.lines[0].points[1].v = .nan
    #expect(failure(sparklines) == "nan at lines[0].points[1].v cannot be written as JSON")
  }

  // MARK: Every output type, byte for byte

  /// Each expected text below is what the Codable encoder that `OutputWriter` replaced wrote
  /// for the same value, so the files apps read did not change by a byte.
  func written(_ value: some OutputWritable, zone: String) throws -> String {
    String(
      decoding: try OutputWriter.encode(value, timeZone: TimeZone(identifier: zone)!), as: UTF8.self
    )
  }

  @Test func seriesWithEscapesNumbersAndNegativeOffsets() throws {
    // St. John's is −03:30 in winter and −02:30 in summer; `trend` is left out of the second
    // bucket, and an empty dictionary is `{}`. 2⁵³ − 1 is written as an integer, 2⁵³ is not.
    #expect(
      try written(OutputFixtures.series, zone: "America/St_Johns") == #"""
        {
          "schema": "trendline/series@2",
          "user": "a\"b\\c\nd\te\rf\u0001g\u001fh/é😀",
          "chart": "training-volume",
          "timeZone": "America/St_Johns",
          "units": {
            "weight": "kg",
            "distance": "km"
          },
          "asOf": "2025-11-30T00:29:59-03:30",
          "range": "3m",
          "granularity": "week",
          "measures": [
            "volumeKg",
            "sessions",
            "sets",
            "durationSeconds"
          ],
          "mark": {
            "durationSeconds": "bar",
            "sessions": "bar",
            "sets": "bar",
            "volumeKg": "bar"
          },
          "domain": {
            "start": "1969-12-31T20:29:59-03:30",
            "end": "1969-12-31T20:30:01-03:30"
          },
          "asOfBucket": 1,
          "yAxis": {
            "sessions": {
              "unit": "sessions",
              "domain": {
                "min": 0,
                "max": 4
              },
              "ticks": {
                "3": [
                  {
                    "value": 0,
                    "label": "0"
                  },
                  {
                    "value": 2,
                    "label": "2"
                  },
                  {
                    "value": 4,
                    "label": "4"
                  }
                ],
                "4": [
                  {
                    "value": 0,
                    "label": "0"
                  },
                  {
                    "value": 1,
                    "label": "1"
                  },
                  {
                    "value": 2,
                    "label": "2"
                  },
                  {
                    "value": 3,
                    "label": "3"
                  }
                ],
                "5": [
                  {
                    "value": 0,
                    "label": "0"
                  },
                  {
                    "value": 1,
                    "label": "1"
                  },
                  {
                    "value": 2,
                    "label": "2"
                  },
                  {
                    "value": 3,
                    "label": "3"
                  },
                  {
                    "value": 4,
                    "label": "4"
                  }
                ],
                "7": [
                  {
                    "value": 0,
                    "label": "0"
                  },
                  {
                    "value": 1,
                    "label": "1"
                  },
                  {
                    "value": 2,
                    "label": "2"
                  },
                  {
                    "value": 3,
                    "label": "3"
                  },
                  {
                    "value": 4,
                    "label": "4"
                  },
                  {
                    "value": 5,
                    "label": "5"
                  },
                  {
                    "value": 6,
                    "label": "6"
                  }
                ]
              }
            }
          },
          "bands": {
            "measure": "sessions",
            "levels": [
              {
                "from": 0,
                "label": "Rest \"zero\""
              },
              {
                "from": 2.5,
                "label": "Ok"
              }
            ]
          },
          "buckets": [
            {
              "id": "2025-10-27",
              "start": "2025-10-25T22:29:59-02:30",
              "end": "2025-10-25T22:30:00-02:30",
              "partial": false,
              "elapsed": 1,
              "sessions": 0,
              "values": {
                "durationSeconds": 1e-07,
                "sessions": 3,
                "sets": 0,
                "volumeKg": 0.1
              },
              "trend": {
                "durationSeconds": 9007199254740992.0,
                "sessions": 2.5,
                "sets": 9007199254740991,
                "volumeKg": 1e+300
              },
              "bar": {
                "start": "1969-12-31T20:30:00-03:30",
                "end": "2023-11-14T18:43:20-03:30"
              },
              "label": "Week of 27 Oct 2025: \"all\" · 3"
            },
            {
              "id": "2025-11-02",
              "start": "2025-10-25T22:30:00-02:30",
              "end": "2025-11-01T22:30:00-02:30",
              "partial": true,
              "elapsed": 1,
              "sessions": 0,
              "values": {
                "durationSeconds": null,
                "sessions": null,
                "sets": null,
                "volumeKg": null
              },
              "bar": {
                "start": "2025-10-25T22:30:00-02:30",
                "end": "2025-10-25T22:30:00-02:30"
              },
              "label": ""
            }
          ],
          "average": {
            "durationSeconds": 5e-324,
            "sessions": -1.5,
            "sets": -1e+16,
            "volumeKg": 1234.5678
          },
          "recordBuckets": {},
          "xAxis": {
            "ticks": {
              "3": [
                {
                  "value": "2025-10-25T22:29:59-02:30",
                  "label": "25 Oct 2025"
                },
                {
                  "value": "2025-10-25T22:30:00-02:30",
                  "label": "25 Oct"
                }
              ],
              "4": [
                {
                  "value": "2025-10-25T22:29:59-02:30",
                  "label": "25 Oct 2025"
                },
                {
                  "value": "2025-10-25T22:30:00-02:30",
                  "label": "25 Oct"
                }
              ],
              "5": [
                {
                  "value": "2025-10-25T22:29:59-02:30",
                  "label": "25 Oct 2025"
                },
                {
                  "value": "2025-10-25T22:30:00-02:30",
                  "label": "25 Oct"
                }
              ],
              "7": [
                {
                  "value": "2025-10-25T22:29:59-02:30",
                  "label": "25 Oct 2025"
                },
                {
                  "value": "2025-10-25T22:30:00-02:30",
                  "label": "25 Oct"
                }
              ]
            }
          }
        }

        """#)
  }

  @Test func seriesWithoutBuckets() throws {
    // `domain` is `null`, not left out.
    #expect(
      try written(OutputFixtures.emptySeries, zone: "UTC") == #"""
        {
          "schema": "trendline/series@2",
          "user": "ada",
          "chart": "c",
          "timeZone": "UTC",
          "units": {
            "weight": "kg",
            "distance": "km"
          },
          "asOf": "1970-01-01T00:00:00+00:00",
          "range": "all",
          "granularity": "day",
          "measures": [],
          "mark": {},
          "domain": null,
          "asOfBucket": null,
          "yAxis": {},
          "buckets": [],
          "average": {},
          "recordBuckets": {},
          "xAxis": {
            "ticks": {
              "3": [],
              "4": [],
              "5": [],
              "7": []
            }
          }
        }

        """#)
  }

  @Test func radarInAQuarterHourZone() throws {
    // Kathmandu is +05:45.
    #expect(
      try written(OutputFixtures.radar, zone: "Asia/Kathmandu") == #"""
        {
          "schema": "trendline/radar@1",
          "user": "ada",
          "chart": "muscle-balance",
          "timeZone": "Asia/Kathmandu",
          "units": {
            "weight": "kg",
            "distance": "km"
          },
          "asOf": "2025-11-29T23:14:59+05:45",
          "axes": [
            {
              "id": "back",
              "label": "Back \"upper\""
            },
            {
              "id": "legs",
              "label": "Legs"
            }
          ],
          "largest": 4,
          "periods": [
            {
              "id": "2025-10-01",
              "start": "2025-10-01T00:30:00+05:45",
              "end": "2025-11-01T00:30:00+05:45",
              "partial": false,
              "elapsed": 1,
              "sessions": 7,
              "counts": [
                4,
                0
              ],
              "scale": [
                0.6666666666666666,
                0
              ],
              "label": "Oct 2025: Back \"upper\" 4, Legs 0"
            },
            {
              "id": "2025-11-01",
              "start": "2025-11-01T00:30:00+05:45",
              "end": "2025-12-01T00:30:00+05:45",
              "partial": true,
              "elapsed": 0.5,
              "sessions": 0,
              "counts": [],
              "scale": [],
              "label": "Nov 2025 (so far): "
            }
          ],
          "unmappedExercises": [
            {
              "name": "Atlas Stone",
              "sessions": 12
            },
            {
              "name": "Zercher\tCarry",
              "sessions": 1
            }
          ],
          "axisAngles": [
            0,
            180
          ],
          "rings": {
            "unit": "sessions",
            "domain": {
              "min": 0,
              "max": 4
            },
            "ticks": {
              "3": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 4,
                  "label": "4"
                }
              ],
              "4": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 4,
                  "label": "4"
                },
                {
                  "value": 6,
                  "label": "6"
                }
              ],
              "5": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 1,
                  "label": "1"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 3,
                  "label": "3"
                },
                {
                  "value": 4,
                  "label": "4"
                }
              ],
              "7": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 1,
                  "label": "1"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 3,
                  "label": "3"
                },
                {
                  "value": 4,
                  "label": "4"
                },
                {
                  "value": 5,
                  "label": "5"
                },
                {
                  "value": 6,
                  "label": "6"
                }
              ]
            }
          }
        }

        """#)
  }

  @Test func radarWithNothing() throws {
    #expect(
      try written(OutputFixtures.emptyRadar, zone: "UTC") == #"""
        {
          "schema": "trendline/radar@1",
          "user": "ada",
          "chart": "r",
          "timeZone": "UTC",
          "units": {
            "weight": "kg",
            "distance": "km"
          },
          "asOf": "1970-01-01T00:00:00+00:00",
          "axes": [],
          "largest": 0,
          "periods": [],
          "unmappedExercises": [],
          "axisAngles": [],
          "rings": {
            "unit": "sessions",
            "domain": {
              "min": 0,
              "max": 4
            },
            "ticks": {
              "3": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 1,
                  "label": "1"
                },
                {
                  "value": 2,
                  "label": "2"
                }
              ],
              "4": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 1,
                  "label": "1"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 3,
                  "label": "3"
                }
              ],
              "5": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 1,
                  "label": "1"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 3,
                  "label": "3"
                },
                {
                  "value": 4,
                  "label": "4"
                }
              ],
              "7": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 1,
                  "label": "1"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 3,
                  "label": "3"
                },
                {
                  "value": 4,
                  "label": "4"
                },
                {
                  "value": 5,
                  "label": "5"
                },
                {
                  "value": 6,
                  "label": "6"
                }
              ]
            }
          }
        }

        """#)
  }

  @Test func heatmapWithAnInstantBefore1972() throws {
    // Amsterdam was +00:19:32 in 1900: written in UTC, not with a rounded offset.
    #expect(
      try written(OutputFixtures.heatmap, zone: "Europe/Amsterdam") == #"""
        {
          "schema": "trendline/heatmap@1",
          "user": "ada",
          "chart": "body",
          "timeZone": "Europe/Amsterdam",
          "units": {
            "weight": "kg",
            "distance": "km"
          },
          "asOf": "1900-01-01T00:00:00+00:00",
          "periods": [
            {
              "id": "1900-01-01",
              "start": "1900-01-01T00:00:00+00:00",
              "end": "2025-11-29T18:29:59+01:00",
              "partial": true,
              "groups": [
                {
                  "id": 1,
                  "name": "Chest",
                  "sessions": 3,
                  "intensity": 1
                },
                {
                  "id": 27,
                  "name": "Neck",
                  "sessions": 0,
                  "intensity": 0
                },
                {
                  "id": -4,
                  "name": "",
                  "sessions": 1,
                  "intensity": 0.3333333333333333
                }
              ],
              "label": "Jan 1900 (so far): Chest 3,  1"
            },
            {
              "id": "1970-01-01",
              "start": "1970-01-01T01:00:00+01:00",
              "end": "1970-01-02T01:00:00+01:00",
              "partial": false,
              "groups": [],
              "label": "Jan 1970: nothing trained"
            }
          ],
          "largest": 3,
          "shownPeriod": 0
        }

        """#)
  }

  @Test func sparklinesAcrossTheFallBack() throws {
    // The two points are one second apart, either side of the 26 October 2025 fall-back.
    #expect(
      try written(OutputFixtures.sparklines, zone: "Europe/Oslo") == #"""
        {
          "schema": "trendline/sparklines@1",
          "user": "ada",
          "chart": "trends",
          "timeZone": "Europe/Oslo",
          "units": {
            "weight": "lb",
            "distance": "mi"
          },
          "asOf": "2025-11-29T23:59:59+01:00",
          "value": "e1rmKg",
          "windowDays": 91,
          "domain": {
            "start": "2025-08-31T01:00:00+02:00",
            "end": "2025-11-29T23:59:59+01:00"
          },
          "lines": [
            {
              "exercise": "Squat (Barbell)",
              "points": [
                {
                  "t": "2025-10-26T02:59:59+02:00",
                  "v": 116.66666666666667
                },
                {
                  "t": "2025-10-26T02:00:00+01:00",
                  "v": 1e+21
                }
              ],
              "noLoad": false,
              "yDomain": {
                "min": 0,
                "max": 1e+21
              },
              "latestLabel": "2 204 622 621 848 775 688 192 lb",
              "label": "Squat (Barbell): latest 2 204 622 621 848 775 688 192 lb, 2 sessions in the window"
            },
            {
              "exercise": "Überzug",
              "points": [],
              "noLoad": true,
              "yDomain": null,
              "latestLabel": null,
              "label": "Überzug: no load recorded, 0 sessions in the window"
            }
          ]
        }

        """#)
  }

  @Test func cohortSeriesWithRanking() throws {
    // Quantile keys stay in the pipeline's order (`p5`, `p12.5`, `p50`), not sorted as text.
    #expect(
      try written(OutputFixtures.cohortSeries, zone: "UTC") == #"""
        {
          "schema": "trendline/cohort-series@2",
          "chart": "training-volume",
          "asOf": "2025-11-29",
          "range": "6m",
          "granularity": "month",
          "measures": [
            "sessions",
            "volumeKg"
          ],
          "users": 3,
          "domain": {
            "start": "2025-09-15T12:00:00+00:00",
            "end": "2025-11-16T00:00:00+00:00"
          },
          "buckets": [
            {
              "date": "2025-10-01",
              "start": "2025-10-01T00:00:00+00:00",
              "end": "2025-11-01T00:00:00+00:00",
              "bar": {
                "start": "2025-09-20T03:36:00+00:00",
                "end": "2025-10-11T20:24:00+00:00"
              },
              "partial": false,
              "n": 2,
              "active": 2,
              "activeShare": 0.6666666666666666,
              "values": {
                "sessions": {
                  "n": 2,
                  "mean": 2,
                  "min": 1,
                  "max": 3
                },
                "volumeKg": {
                  "n": 2,
                  "mean": 1500.25,
                  "min": 0,
                  "max": 3000.5,
                  "p5": 75.5,
                  "p12.5": 375.0625,
                  "p50": 1500.25
                }
              }
            },
            {
              "date": "2025-11-01",
              "start": "2025-11-01T00:00:00+00:00",
              "end": "2025-12-01T00:00:00+00:00",
              "bar": {
                "start": "2025-10-21T12:00:00+00:00",
                "end": "2025-11-11T12:00:00+00:00"
              },
              "partial": true,
              "n": 1,
              "active": 1,
              "activeShare": 0.3333333333333333,
              "values": {
                "sessions": null,
                "volumeKg": null
              }
            }
          ],
          "yAxis": {
            "sessions": {
              "unit": "sessions",
              "domain": {
                "min": 0,
                "max": 4
              },
              "ticks": {
                "3": [
                  {
                    "value": 0,
                    "label": "0"
                  },
                  {
                    "value": 2,
                    "label": "2"
                  },
                  {
                    "value": 4,
                    "label": "4"
                  }
                ],
                "4": [
                  {
                    "value": 0,
                    "label": "0"
                  },
                  {
                    "value": 1,
                    "label": "1"
                  },
                  {
                    "value": 2,
                    "label": "2"
                  },
                  {
                    "value": 3,
                    "label": "3"
                  }
                ],
                "5": [
                  {
                    "value": 0,
                    "label": "0"
                  },
                  {
                    "value": 1,
                    "label": "1"
                  },
                  {
                    "value": 2,
                    "label": "2"
                  },
                  {
                    "value": 3,
                    "label": "3"
                  },
                  {
                    "value": 4,
                    "label": "4"
                  }
                ],
                "7": [
                  {
                    "value": 0,
                    "label": "0"
                  },
                  {
                    "value": 1,
                    "label": "1"
                  },
                  {
                    "value": 2,
                    "label": "2"
                  },
                  {
                    "value": 3,
                    "label": "3"
                  },
                  {
                    "value": 4,
                    "label": "4"
                  },
                  {
                    "value": 5,
                    "label": "5"
                  },
                  {
                    "value": 6,
                    "label": "6"
                  }
                ]
              }
            },
            "volumeKg": {
              "unit": "kg",
              "domain": {
                "min": 0,
                "max": 3200
              },
              "ticks": {
                "3": [
                  {
                    "value": 0,
                    "label": "0"
                  },
                  {
                    "value": 2000,
                    "label": "2 000"
                  },
                  {
                    "value": 4000,
                    "label": "4 000"
                  }
                ],
                "4": [
                  {
                    "value": 0,
                    "label": "0"
                  },
                  {
                    "value": 1500,
                    "label": "1 500"
                  },
                  {
                    "value": 3000,
                    "label": "3 000"
                  },
                  {
                    "value": 4500,
                    "label": "4 500"
                  }
                ],
                "5": [
                  {
                    "value": 0,
                    "label": "0"
                  },
                  {
                    "value": 800,
                    "label": "800"
                  },
                  {
                    "value": 1600,
                    "label": "1 600"
                  },
                  {
                    "value": 2400,
                    "label": "2 400"
                  },
                  {
                    "value": 3200,
                    "label": "3 200"
                  }
                ],
                "7": [
                  {
                    "value": 0,
                    "label": "0"
                  },
                  {
                    "value": 600,
                    "label": "600"
                  },
                  {
                    "value": 1200,
                    "label": "1 200"
                  },
                  {
                    "value": 1800,
                    "label": "1 800"
                  },
                  {
                    "value": 2400,
                    "label": "2 400"
                  },
                  {
                    "value": 3000,
                    "label": "3 000"
                  },
                  {
                    "value": 3600,
                    "label": "3 600"
                  }
                ]
              }
            }
          },
          "xAxis": {
            "ticks": {
              "3": [
                {
                  "value": "2025-10-01T00:00:00+00:00",
                  "label": "Oct 2025"
                },
                {
                  "value": "2025-11-01T00:00:00+00:00",
                  "label": "Nov"
                }
              ],
              "4": [
                {
                  "value": "2025-10-01T00:00:00+00:00",
                  "label": "Oct 2025"
                },
                {
                  "value": "2025-11-01T00:00:00+00:00",
                  "label": "Nov"
                }
              ],
              "5": [
                {
                  "value": "2025-10-01T00:00:00+00:00",
                  "label": "Oct 2025"
                },
                {
                  "value": "2025-11-01T00:00:00+00:00",
                  "label": "Nov"
                }
              ],
              "7": [
                {
                  "value": "2025-10-01T00:00:00+00:00",
                  "label": "Oct 2025"
                },
                {
                  "value": "2025-11-01T00:00:00+00:00",
                  "label": "Nov"
                }
              ]
            }
          },
          "ranking": {
            "measure": "volumeKg",
            "top": 2,
            "users": [
              {
                "user": "bo",
                "value": 3000.5
              },
              {
                "user": "a\"b\\c\nd\te\rf\u0001g\u001fh/é😀",
                "value": 0.1
              }
            ]
          }
        }

        """#)
  }

  @Test func cohortSeriesWithoutRanking() throws {
    // No ranking: the key is left out, not `null`.
    #expect(
      try written(OutputFixtures.cohortSeriesWithoutRanking, zone: "UTC") == #"""
        {
          "schema": "trendline/cohort-series@2",
          "chart": "c",
          "asOf": "2025-11-29",
          "range": "all",
          "granularity": "week",
          "measures": [],
          "users": 0,
          "domain": null,
          "buckets": [],
          "yAxis": {},
          "xAxis": {
            "ticks": {
              "3": [],
              "4": [],
              "5": [],
              "7": []
            }
          }
        }

        """#)
  }

  @Test func cohortRadar() throws {
    #expect(
      try written(OutputFixtures.cohortRadar, zone: "UTC") == #"""
        {
          "schema": "trendline/cohort-radar@1",
          "chart": "muscle-balance",
          "asOf": "2025-11-29T23:59:59+01:00",
          "period": "month",
          "partial": true,
          "users": 3,
          "axes": [
            {
              "id": "back",
              "label": "Back",
              "counts": {
                "n": 3,
                "mean": 4.333333333333333,
                "min": 1,
                "max": 8,
                "p25": 2.5,
                "p90": 7.2
              },
              "readOut": "Back: median 4.3 sessions, mean 4.3, 3 users"
            },
            {
              "id": "legs",
              "label": "Legs",
              "counts": {
                "n": 3,
                "mean": 0,
                "min": 0,
                "max": 0
              },
              "readOut": "Legs: median 0 sessions, mean 0, 3 users"
            }
          ],
          "axisAngles": [
            0,
            180
          ],
          "rings": {
            "unit": "sessions",
            "domain": {
              "min": 0,
              "max": 8
            },
            "ticks": {
              "3": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 3,
                  "label": "3"
                },
                {
                  "value": 6,
                  "label": "6"
                }
              ],
              "4": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 4,
                  "label": "4"
                },
                {
                  "value": 6,
                  "label": "6"
                }
              ],
              "5": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 4,
                  "label": "4"
                },
                {
                  "value": 6,
                  "label": "6"
                },
                {
                  "value": 8,
                  "label": "8"
                }
              ],
              "7": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 1,
                  "label": "1"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 3,
                  "label": "3"
                },
                {
                  "value": 4,
                  "label": "4"
                },
                {
                  "value": 5,
                  "label": "5"
                },
                {
                  "value": 6,
                  "label": "6"
                }
              ]
            }
          }
        }

        """#)
  }

  @Test func cohortRadarWithoutAxes() throws {
    #expect(
      try written(OutputFixtures.emptyCohortRadar, zone: "UTC") == #"""
        {
          "schema": "trendline/cohort-radar@1",
          "chart": "r",
          "asOf": "2025-11-29",
          "period": "day",
          "partial": false,
          "users": 0,
          "axes": [],
          "axisAngles": [],
          "rings": {
            "unit": "sessions",
            "domain": {
              "min": 0,
              "max": 4
            },
            "ticks": {
              "3": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 1,
                  "label": "1"
                },
                {
                  "value": 2,
                  "label": "2"
                }
              ],
              "4": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 1,
                  "label": "1"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 3,
                  "label": "3"
                }
              ],
              "5": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 1,
                  "label": "1"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 3,
                  "label": "3"
                },
                {
                  "value": 4,
                  "label": "4"
                }
              ],
              "7": [
                {
                  "value": 0,
                  "label": "0"
                },
                {
                  "value": 1,
                  "label": "1"
                },
                {
                  "value": 2,
                  "label": "2"
                },
                {
                  "value": 3,
                  "label": "3"
                },
                {
                  "value": 4,
                  "label": "4"
                },
                {
                  "value": 5,
                  "label": "5"
                },
                {
                  "value": 6,
                  "label": "6"
                }
              ]
            }
          }
        }

        """#)
  }

  // MARK: Round trips

  /// What an app does with each output: `JSONDecoder` with `.iso8601`. Every field is set in
  /// these values, the optional ones too, so a key the writer spelled differently from the
  /// decoder would fail here.
  @Test func everyOutputTypeRoundTripsWithEveryField() throws {
    func roundTrip<T: OutputWritable & Decodable>(_ value: T, zone: String) throws -> T {
      try OutputWriter.makeDecoder().decode(
        T.self, from: OutputWriter.encode(value, timeZone: TimeZone(identifier: zone)!))
    }
    #expect(try roundTrip(OutputFixtures.series, zone: "America/St_Johns") == OutputFixtures.series)
    #expect(try roundTrip(OutputFixtures.emptySeries, zone: "UTC") == OutputFixtures.emptySeries)
    #expect(try roundTrip(OutputFixtures.radar, zone: "Asia/Kathmandu") == OutputFixtures.radar)
    #expect(
      try roundTrip(OutputFixtures.heatmap, zone: "Europe/Amsterdam") == OutputFixtures.heatmap)
    #expect(
      try roundTrip(OutputFixtures.sparklines, zone: "Europe/Oslo") == OutputFixtures.sparklines)
    #expect(try roundTrip(OutputFixtures.cohortSeries, zone: "UTC") == OutputFixtures.cohortSeries)
    #expect(
      try roundTrip(OutputFixtures.cohortSeriesWithoutRanking, zone: "UTC")
        == OutputFixtures.cohortSeriesWithoutRanking)
    #expect(try roundTrip(OutputFixtures.cohortRadar, zone: "UTC") == OutputFixtures.cohortRadar)
    #expect(try roundTrip(OutputFixtures.emptyRadar, zone: "UTC") == OutputFixtures.emptyRadar)
    #expect(try roundTrip(OutputFixtures.records, zone: "UTC") == OutputFixtures.records)
    #expect(try roundTrip(OutputFixtures.streak, zone: "UTC") == OutputFixtures.streak)
    // A chart's segments, a named one and the unknown one, of a series and of a radar.
    for cohort in [CohortChart.series(OutputFixtures.cohortSeries), .radar(OutputFixtures.cohortRadar)] {
      let segments = CohortSegmentsOutput(
        chart: cohort.name, asOf: "2025-11-29", groupBy: "plan",
        segments: [.init(value: "pro", cohort: cohort), .init(value: nil, cohort: cohort)])
      #expect(try roundTrip(segments, zone: "UTC") == segments)
    }
    // A compared series: the cohort's axis, the ranks, and each bucket's cohort row (`null` for
    // a bucket whose row the cohort lacks).
    var compared = OutputFixtures.series
    compared.cohortYAxis = compared.yAxis
    compared.cohortRank = Dictionary(
      uniqueKeysWithValues: compared.measures.map { ($0, compared.buckets.map { _ in 50 }) })
    compared.cohortRows = compared.buckets.indices.map { $0 == 0 ? nil : compared.buckets[$0].id }
    #expect(try roundTrip(compared, zone: "UTC") == compared)
    // A best: its `mark` is `line` and its records are listed (SPEC 11.8).
    var best = OutputFixtures.series
    best.measures = [.sessions, .e1rmKg]
    best.mark = [.sessions: .bar, .e1rmKg: .line]
    best.recordBuckets = [.e1rmKg: [0, 1]]
    best.average = [.sessions: 1, .e1rmKg: 100]
    for index in best.buckets.indices {
      best.buckets[index].values = [.sessions: 1, .e1rmKg: 100 + Double(index)]
      best.buckets[index].trend = [.sessions: 1, .e1rmKg: 100]
    }
    #expect(try roundTrip(best, zone: "UTC") == best)
    let written = String(decoding: try OutputWriter.encode(best, timeZone: TimeZone(identifier: "UTC")!), as: UTF8.self)
    #expect(written.contains(#""e1rmKg": "line""#))
  }
}
