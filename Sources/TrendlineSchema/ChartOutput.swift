import Foundation

/// A user chart's result: an output of one of the ``ChartKinds``, as its SPEC 7 schema holds it.
///
/// An app that decodes any file of `users/<user>/` gets one of these and casts ``content`` to the
/// kinds it draws (`if let series = output.content as? SeriesOutput`); Trendline itself reaches
/// the output only through ``ChartKind``, so a new kind adds no case here.
public struct ChartOutput: Sendable, Equatable {
  /// The output, of the kind its schema names.
  public let content: any ChartKind

  public init(_ content: some ChartKind) {
    self.content = content
  }

  /// The chart's name from the pipeline file.
  public var name: String { content.chart }

  /// The units the output states, and everything drawn from it shows (SPEC 10.8).
  public var units: Units { content.units }

  /// The same output stating `units` (``ChartKind/with(units:)``).
  ///
  /// - Complexity: O(1) for a series, radar or heat map, the output's arrays being shared, not
  ///   copied, and for any output already in `units`; else O(*n*) for the *n* lines, records or
  ///   periods of the others.
  public func with(units: Units) -> ChartOutput {
    func restated(_ output: some ChartKind) -> ChartOutput { ChartOutput(output.with(units: units)) }
    return restated(content)
  }

  /// The JSON bytes written to `<chart>.json`.
  ///
  /// - Complexity: O(*s*), where *s* is the size of the output.
  public func encoded(timeZone: TimeZone) throws -> Data { try OutputWriter.encode(content, timeZone: timeZone) }

  public static func == (left: ChartOutput, right: ChartOutput) -> Bool { left.content.isEqual(to: right.content) }
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
    guard let kind = ChartKinds.kind(schema: schema) else {
      throw unreadSchema(schema, decoder: decoder, reads: Self.schemaIDs)
    }
    func decoded<Kind: ChartKind>(_ kind: Kind.Type) throws -> ChartOutput { ChartOutput(try Kind(from: decoder)) }
    self = try decoded(kind)
  }

  /// The schemas ``init(from:)`` reads.
  public static var schemaIDs: [String] { ChartKinds.all.map { $0.schemaID } }
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
