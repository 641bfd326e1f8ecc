import Foundation

/// Personal records per exercise (`trendline/records@1`): each exercise's best top set, best
/// estimated one-rep max and best reps at each weight, with when each was set, and every record
/// in the order it was set, so an app can show "PRs" and draw when they came.
///
/// A record beats every earlier set of its exercise up to as-of. The first time an exercise is
/// done sets its baseline, not a record: otherwise a user's first week would be all records.
/// Exercises are listed by name (UTF-8 byte order), so the file is the same on every run.
public struct RecordsOutput: Decodable, Sendable, Equatable {
  public static let schemaID = "trendline/records@1"

  /// One best: a set's value and when its session started.
  public struct Best: Decodable, Sendable, Equatable {
    /// kg for `topSetKg` and `e1rmKg`; reps for `repsAtWeight`.
    public var value: Double
    public var weightKg: Double
    public var reps: Double
    public var at: Date

    public init(value: Double, weightKg: Double, reps: Double, at: Date) {
      self.value = value
      self.weightKg = weightKg
      self.reps = reps
      self.at = at
    }
  }

  /// A record as it was set: what it beat.
  public struct Record: Decodable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
      /// A heavier top set than any before.
      case topSetKg
      /// A higher Epley estimate than any before.
      case e1rmKg
      /// More reps at a weight than ever before at that weight.
      case repsAtWeight
    }
    public var kind: Kind
    public var at: Date
    public var value: Double
    /// The best it beat.
    public var previous: Double
    public var weightKg: Double
    public var reps: Double
    /// What a screen reader says for the record, in the user's units and zone: `Bench Press: top
    /// set 102.5 kg on 3 Nov 2026, up from 100 kg`, `Bench Press: 8 reps at 80 kg on 3 Nov 2026,
    /// up from 6` (``ReadOut/record(_:exercise:zone:units:)``). Written by
    /// ``RecordsOutput/withDerivedFields()``.
    public var label: String = ""

    public init(kind: Kind, at: Date, value: Double, previous: Double, weightKg: Double, reps: Double) {
      self.kind = kind
      self.at = at
      self.value = value
      self.previous = previous
      self.weightKg = weightKg
      self.reps = reps
    }
  }

  public struct Exercise: Decodable, Sendable, Equatable {
    public var exercise: String
    /// `null` for an exercise never done with weight.
    public var topSetKg: Best?
    /// `null` for an exercise never done with weight and reps.
    public var e1rmKg: Best?
    /// The most reps at each weight, heaviest first; `value` is the reps.
    public var repsAtWeight: [Best]
    /// Oldest first.
    public var records: [Record]
    /// The exercise's row read out: `Bench Press: top set 102.5 kg on 3 Nov 2026 · e1RM 116.7 kg
    /// on 3 Nov 2026 · 4 records` (``ReadOut/recordsExercise(_:zone:units:)``).
    public var label: String = ""

    public init(exercise: String, topSetKg: Best?, e1rmKg: Best?, repsAtWeight: [Best], records: [Record]) {
      self.exercise = exercise
      self.topSetKg = topSetKg
      self.e1rmKg = e1rmKg
      self.repsAtWeight = repsAtWeight
      self.records = records
    }
  }

  /// `schema, user, chart, timeZone, units, asOf`, as every user output starts (``ChartKind``
  /// gives each its own property).
  public var header: UserChartHeader
  public var exercises: [Exercise]

  public init(user: String, chart: String, timeZone: String, units: Units = .metric, asOf: Date, exercises: [Exercise])
  {
    self.header = UserChartHeader(
      schema: Self.schemaID, user: user, chart: chart, timeZone: timeZone, units: units, asOf: asOf)
    self.exercises = exercises
    self = withDerivedFields()
  }

  /// This output with its read-outs written, in its `units` and zone: each exercise's `label`
  /// and each record's. The initializers call it, and so does ``ChartOutput/with(units:)``.
  ///
  /// - Complexity: O(*r*), where *r* is the number of records.
  public func withDerivedFields() -> RecordsOutput {
    var output = self
    let zone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")!
    for index in output.exercises.indices {
      let exercise = output.exercises[index]
      output.exercises[index].label = ReadOut.recordsExercise(exercise, zone: zone, units: units)
      for record in exercise.records.indices {
        output.exercises[index].records[record].label = ReadOut.record(
          exercise.records[record], exercise: exercise.exercise, zone: zone, units: units)
      }
    }
    return output
  }

  enum CodingKeys: String, CodingKey { case exercises }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    header = try UserChartHeader(from: decoder, schema: Self.schemaID)
    exercises = try c.decode([Exercise].self, forKey: .exercises)
    // The labels were added to `trendline/records@1` later: an older file's are written here.
    if exercises.contains(where: { $0.label.isEmpty || $0.records.contains { $0.label.isEmpty } }) {
      self = withDerivedFields()
    }
  }
}

extension RecordsOutput.Exercise {
  enum CodingKeys: String, CodingKey { case exercise, topSetKg, e1rmKg, repsAtWeight, records, label }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    exercise = try c.decode(String.self, forKey: .exercise)
    topSetKg = try c.decodeIfPresent(RecordsOutput.Best.self, forKey: .topSetKg)
    e1rmKg = try c.decodeIfPresent(RecordsOutput.Best.self, forKey: .e1rmKg)
    repsAtWeight = try c.decode([RecordsOutput.Best].self, forKey: .repsAtWeight)
    records = try c.decode([RecordsOutput.Record].self, forKey: .records)
    label = try c.decodeAdded(String.self, forKey: .label) ?? ""
  }
}

extension RecordsOutput.Record {
  enum CodingKeys: String, CodingKey { case kind, at, value, previous, weightKg, reps, label }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    kind = try c.decode(Kind.self, forKey: .kind)
    at = try c.decode(Date.self, forKey: .at)
    value = try c.decode(Double.self, forKey: .value)
    previous = try c.decode(Double.self, forKey: .previous)
    weightKg = try c.decode(Double.self, forKey: .weightKg)
    reps = try c.decode(Double.self, forKey: .reps)
    label = try c.decodeAdded(String.self, forKey: .label) ?? ""
  }
}

extension RecordsOutput: OutputWritable {
  /// Writes `schema, user, chart, timeZone, units, asOf, exercises`.
  ///
  /// - Complexity: O(*r*), where *r* is the number of bests and records.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginUserOutput(header)
    writer.key("exercises")
    try writer.array(exercises)
    writer.endObject()
  }
}

extension RecordsOutput.Exercise: OutputWritable {
  /// Writes `exercise, topSetKg, e1rmKg, repsAtWeight, records, label`; a missing best is `null`.
  ///
  /// - Complexity: O(*r*), where *r* is the number of bests and records.
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("exercise", exercise)
    writer.key("topSetKg")
    if let topSetKg { try topSetKg.write(to: &writer) } else { writer.null() }
    writer.key("e1rmKg")
    if let e1rmKg { try e1rmKg.write(to: &writer) } else { writer.null() }
    writer.key("repsAtWeight")
    try writer.array(repsAtWeight)
    writer.key("records")
    try writer.array(records)
    writer.member("label", label)
    writer.endObject()
  }
}

extension RecordsOutput.Best: OutputWritable {
  /// Writes `value, weightKg, reps, at`.
  ///
  /// - Complexity: O(1).
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    try writer.member("value", value)
    try writer.member("weightKg", weightKg)
    try writer.member("reps", reps)
    writer.member("at", at)
    writer.endObject()
  }
}

extension RecordsOutput.Record: OutputWritable {
  /// Writes `kind, at, value, previous, weightKg, reps, label`.
  ///
  /// - Complexity: O(1).
  public func write(to writer: inout OutputWriter) throws {
    writer.beginObject()
    writer.member("kind", kind.rawValue)
    writer.member("at", at)
    try writer.member("value", value)
    try writer.member("previous", previous)
    try writer.member("weightKg", weightKg)
    try writer.member("reps", reps)
    writer.member("label", label)
    writer.endObject()
  }
}

extension RecordsOutput: ChartKindWordedInUnits {
  public static let kindName = "records"

  /// A small output of this kind: a bench press top set, e1RM and reps-at-weight record on
  /// 3 Nov 2026, in UTC. For an app's previews, and for the tests that check every kind
  /// (``ChartKind/example``).
  public static let example: RecordsOutput = {
    let day = Date(epochSeconds: 1_793_728_800)
    return RecordsOutput(
      user: "ada", chart: "big-three-records", timeZone: "UTC", asOf: Date(epochSeconds: 1_795_996_799),
      exercises: [
        Exercise(
          exercise: "Bench Press", topSetKg: Best(value: 102.5, weightKg: 102.5, reps: 1, at: day),
          e1rmKg: Best(value: 350.0 / 3, weightKg: 100, reps: 5, at: day),
          repsAtWeight: [Best(value: 8, weightKg: 80, reps: 8, at: day)],
          records: [
            Record(kind: .topSetKg, at: day, value: 102.5, previous: 100, weightKg: 102.5, reps: 1),
            Record(kind: .e1rmKg, at: day, value: 350.0 / 3, previous: 110, weightKg: 100, reps: 5),
            Record(kind: .repsAtWeight, at: day, value: 8, previous: 6, weightKg: 80, reps: 8),
          ])
      ])
  }()

  public static func tableColumns(measures: [Measure], trend: Bool) -> [String] {
    ["user", "exercise", "kind", "at", "value", "previous", "weightKg", "reps"]
  }

  /// A row per record of each exercise.
  ///
  /// - Complexity: O(*r*) for *r* records.
  public func appendTableRows(to rows: inout TableRows, trend: Bool) {
    for exercise in exercises {
      for record in exercise.records {
        rows.text(user)
        rows.text(exercise.exercise)
        rows.text(record.kind.rawValue)
        rows.instant(record.at)
        rows.number(record.value)
        rows.number(record.previous)
        rows.number(record.weightKg)
        rows.number(record.reps)
        rows.endRow()
      }
    }
  }
}
