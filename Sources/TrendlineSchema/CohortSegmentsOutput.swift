import Foundation

/// `cohort/segments/<chart>.json` (`trendline/cohort-segments@1`): one compared chart's cohort
/// for each segment of users, the segments being the values of a `users.csv` column
/// (`compare.groupBy`), such as a plan or a sign-up month.
///
/// Each segment's cohort is a whole `cohort-series@2` or `cohort-radar@1` object with the same
/// statistics as the cohort of every user. For a series, every segment shares one y axis per
/// measure (the largest value of any segment) and one time domain, so the segments drawn side
/// by side are comparable at a glance. Users with no value in the column form the segment whose
/// `value` is `null` ("unknown"), listed last: they are never dropped.
public struct CohortSegmentsOutput: Decodable, Sendable, Equatable {
  public static let schemaID = "trendline/cohort-segments@1"

  public var schema: String = CohortSegmentsOutput.schemaID
  public var chart: String
  public var asOf: String
  /// The `users.csv` column the segments are the values of.
  public var groupBy: String
  /// In byte order of their values, the unknown segment last.
  public var segments: [Segment]

  public struct Segment: Decodable, Sendable, Equatable {
    /// The column's value; nil for the users without one.
    public var value: String?
    public var cohort: CohortChart

    public init(value: String?, cohort: CohortChart) {
      self.value = value
      self.cohort = cohort
    }
  }

  public init(chart: String, asOf: String, groupBy: String, segments: [Segment]) {
    self.chart = chart
    self.asOf = asOf
    self.groupBy = groupBy
    self.segments = segments
  }

  /// The JSON bytes of `cohort/segments/<chart>.json`; instants in UTC.
  ///
  /// - Complexity: O(*s*), where *s* is the size of the output.
  public func encoded() throws -> Data { try OutputWriter.encode(self, timeZone: .gmt) }

  enum CodingKeys: String, CodingKey { case schema, chart, asOf, groupBy, segments }

  /// Decodes a segments file; another version's is an error that names it.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    schema = try c.decode(String.self, forKey: .schema)
    guard schema == Self.schemaID else { throw unreadSchema(schema, decoder: decoder, reads: [Self.schemaID]) }
    chart = try c.decode(String.self, forKey: .chart)
    asOf = try c.decode(String.self, forKey: .asOf)
    groupBy = try c.decode(String.self, forKey: .groupBy)
    segments = try c.decode([Segment].self, forKey: .segments)
  }
}

extension CohortSegmentsOutput: OutputWritable {
  /// Writes `schema, chart, asOf, groupBy, segments`, each segment as `value, cohort`.
  ///
  /// - Complexity: that of writing every segment's cohort.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("schema", schema)
    writer.member("chart", chart)
    writer.member("asOf", asOf)
    writer.member("groupBy", groupBy)
    writer.key("segments")
    try writer.array(segments) { writer, segment in
      writer.beginObject()
      writer.key("value")
      if let value = segment.value { writer.string(value) } else { writer.null() }
      writer.key("cohort")
      switch segment.cohort {
      case .series(let output): try output.write(to: &writer)
      case .radar(let output): try output.write(to: &writer)
      }
      writer.endObject()
    }
    writer.endObject()
  }
}
