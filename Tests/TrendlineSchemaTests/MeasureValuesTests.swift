import Foundation
import Testing
import TrendlineSchema

/// `MeasureValues`: a number per measure, read and written as the `[Measure: Double]` it replaced.
@Suite struct MeasureValuesTests {
  @Test func everyMeasureHasASlot() {
    // A case added to `Measure` without a slot would be read out of bounds.
    #expect(Measure.allCases.count == MeasureValues.capacity)
    #expect(MeasureValues.capacity <= 16)  // the bits of `present`
    #expect(Measure.allCases.map(\.ordinal) == Array(0..<MeasureValues.capacity))
    var values = MeasureValues()
    for measure in Measure.allCases { values[measure] = Double(measure.ordinal) + 0.5 }
    #expect(values.map(\.value) == [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5])
  }

  @Test func aMeasureWithoutAValueIsAbsentNotZero() {
    var values: MeasureValues = [.volumeKg: 1200, .sessions: 2]
    #expect(values[.volumeKg] == 1200)
    #expect(values[.sessions] == 2)
    #expect(values[.topSetKg] == nil)
    #expect(values.count == 2 && !values.isEmpty)
    values[.topSetKg] = 0
    #expect(values[.topSetKg] == 0)
    #expect(values.count == 3)
    values[.volumeKg] = nil
    values[.sessions] = nil
    values[.topSetKg] = nil
    #expect(values.isEmpty && values.count == 0)
    #expect(values == MeasureValues())
  }

  @Test func iterationIsInDeclarationOrder() {
    let values: MeasureValues = [.records: 1, .volumeKg: 3, .sessions: 2]
    #expect(values.keys == [.sessions, .volumeKg, .records])
    #expect(values.map(\.value) == [2, 3, 1])
    #expect(values.description == "[sessions: 2.0, volumeKg: 3.0, records: 1.0]")
    #expect(MeasureValues().description == "[:]")
  }

  @Test func equalityIsADictionarys() {
    let some: MeasureValues = [.sets: 4, .reps: 20]
    #expect(some == [.reps: 20, .sets: 4])
    // A value of 0 is not the same as no value.
    #expect(some != [.sets: 4, .reps: 20, .topSetKg: 0])
    #expect(some != [.sets: 4, .reps: 21])
    #expect(some == MeasureValues([Measure.sets: 4.0, .reps: 20.0] as [Measure: Double]))
    #expect(some.mapValues { $0 * 2 } == [.sets: 8, .reps: 40])
    #expect(some.dictionary == [.sets: 4, .reps: 20])
    #expect(Set([some, [.reps: 20, .sets: 4], [.sets: 4]]).count == 2)
  }

  @Test func decodingLeavesOutNullsAndEncodingWritesNames() throws {
    let json = Data(#"{"volumeKg": 1200.5, "topSetKg": null, "sessions": 2}"#.utf8)
    let decoded = try JSONDecoder().decode(MeasureValues.self, from: json)
    #expect(decoded == [.volumeKg: 1200.5, .sessions: 2])
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let encoded = String(decoding: try encoder.encode(decoded), as: UTF8.self)
    #expect(encoded == #"{"sessions":2,"volumeKg":1200.5}"#)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(MeasureValues.self, from: Data(#"{"volume": 1}"#.utf8))
    }
  }
}
