import Foundation

/// A chart's result, one of the SPEC 7 schemas.
public enum ChartOutput: Sendable, Equatable {
  case series(SeriesOutput)
  case radar(RadarOutput)
  case heatmap(HeatmapOutput)
  case sparklines(SparklinesOutput)
  case records(RecordsOutput)
  case streak(StreakOutput)

  /// The chart's name from the pipeline file.
  public var name: String {
    switch self {
    case .series(let value): return value.chart
    case .radar(let value): return value.chart
    case .heatmap(let value): return value.chart
    case .sparklines(let value): return value.chart
    case .records(let value): return value.chart
    case .streak(let value): return value.chart
    }
  }

  /// The units the output states, and everything drawn from it shows (SPEC 10.8).
  public var units: Units {
    switch self {
    case .series(let value): return value.units
    case .radar(let value): return value.units
    case .heatmap(let value): return value.units
    case .sparklines(let value): return value.units
    case .records(let value): return value.units
    case .streak(let value): return value.units
    }
  }

  /// The same output stating `units`. Stages compute in kilograms and metres and never see a
  /// person's units, so the one place that runs a chart stamps them on what it made. The
  /// read-outs of sparklines, records and streaks are in those units, so they are written again
  /// here when the units differ from those they were written in (a metric user's are already
  /// right: writing them twice was a second pass over every such chart); a series' are written
  /// by `Emit`, which is given the units.
  ///
  /// - Complexity: O(1) for a series, radar or heat map, the output's arrays being shared, not
  ///   copied, and for any output already in `units`; else O(*n*) for the *n* lines, records or
  ///   periods of the others.
  public func with(units: Units) -> ChartOutput {
    switch self {
    case .series(var value):
      value.units = units
      return .series(value)
    case .radar(var value):
      value.units = units
      return .radar(value)
    case .heatmap(var value):
      value.units = units
      return .heatmap(value)
    case .sparklines(var value):
      guard value.units != units else { return self }
      value.units = units
      return .sparklines(value.withDerivedFields())
    case .records(var value):
      guard value.units != units else { return self }
      value.units = units
      return .records(value.withDerivedFields())
    case .streak(var value):
      guard value.units != units else { return self }
      value.units = units
      return .streak(value.withDerivedFields())
    }
  }

  /// The JSON bytes written to `<chart>.json`.
  ///
  /// - Complexity: O(*s*), where *s* is the size of the output.
  public func encoded(timeZone: TimeZone) throws -> Data {
    switch self {
    case .series(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    case .radar(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    case .heatmap(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    case .sparklines(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    case .records(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    case .streak(let value): return try OutputWriter.encode(value, timeZone: timeZone)
    }
  }
}

/// One reduced cohort output, written as `cohort/<chart>.json` and drawn in the report.
public enum CohortChart: Sendable, Equatable {
  case series(CohortSeriesOutput)
  case radar(CohortRadarOutput)

  public var name: String {
    switch self {
    case .series(let output): return output.chart
    case .radar(let output): return output.chart
    }
  }

  /// The JSON bytes of `cohort/<chart>.json`; instants in UTC.
  ///
  /// - Complexity: O(*s*), where *s* is the size of the output.
  public func encoded() throws -> Data {
    switch self {
    case .series(let output): return try OutputWriter.encode(output, timeZone: .gmt)
    case .radar(let output): return try OutputWriter.encode(output, timeZone: .gmt)
    }
  }
}

/// The `schema` member alone, read first to choose the type that decodes the rest.
private struct SchemaOnly: Decodable {
  var schema: String
}

extension ChartOutput: Decodable {
  /// Any user output, by its `schema`: an app that lists `users/<user>/` decodes each file
  /// without knowing which chart it holds. A schema of no user output (another version, a cohort
  /// file) is an error naming it and the schemas this decoder reads.
  ///
  /// - Complexity: that of the output's own decoding.
  public init(from decoder: any Decoder) throws {
    let schema = try SchemaOnly(from: decoder).schema
    switch schema {
    case SeriesOutput.schemaID: self = .series(try SeriesOutput(from: decoder))
    case RadarOutput.schemaID: self = .radar(try RadarOutput(from: decoder))
    case HeatmapOutput.schemaID: self = .heatmap(try HeatmapOutput(from: decoder))
    case SparklinesOutput.schemaID: self = .sparklines(try SparklinesOutput(from: decoder))
    case RecordsOutput.schemaID: self = .records(try RecordsOutput(from: decoder))
    case StreakOutput.schemaID: self = .streak(try StreakOutput(from: decoder))
    default: throw unreadSchema(schema, decoder: decoder, reads: Self.schemaIDs)
    }
  }

  /// The schemas ``init(from:)`` reads.
  public static let schemaIDs = [
    SeriesOutput.schemaID, RadarOutput.schemaID, HeatmapOutput.schemaID, SparklinesOutput.schemaID,
    RecordsOutput.schemaID, StreakOutput.schemaID,
  ]
}

extension CohortChart: Decodable {
  /// A cohort output, by its `schema`.
  ///
  /// - Complexity: that of the output's own decoding.
  public init(from decoder: any Decoder) throws {
    let schema = try SchemaOnly(from: decoder).schema
    switch schema {
    case CohortSeriesOutput.schemaID: self = .series(try CohortSeriesOutput(from: decoder))
    case CohortRadarOutput.schemaID: self = .radar(try CohortRadarOutput(from: decoder))
    default: throw unreadSchema(schema, decoder: decoder, reads: Self.schemaIDs)
    }
  }

  /// The schemas ``init(from:)`` reads.
  public static let schemaIDs = [CohortSeriesOutput.schemaID, CohortRadarOutput.schemaID]
}

func unreadSchema(_ schema: String, decoder: any Decoder, reads: [String]) -> DecodingError {
  DecodingError.dataCorrupted(
    .init(
      codingPath: decoder.codingPath,
      debugDescription: "schema '\(schema)' is none this decoder reads (\(reads.joined(separator: ", ")))"))
}
