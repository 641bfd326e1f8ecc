import Foundation
import TrendlineSchema
import TrendlineSupport

/// Liftosaur's history CSV (EXPORT-FORMATS §10.5; SPEC 11.3): one row per set, planned values
/// (`Required …`) beside what was done (`Completed …`).
///
///     Workout DateTime,Program,Day Name,Exercise,Is Warmup Set?,Required Reps,Completed Reps,…
///     2026-03-01T10:00:00.000Z,My Program,Day 1,"Squat, Barbell",0,5,5,0,,,0,100,kg,100,kg,0,…
///
/// Only what was done is read: `Completed Reps` and `Completed Weight Value` in its
/// `Completed Weight Unit`, never the required ones — a chart of the plan would show work that
/// never happened. A row without completed reps is a set planned and never done: ignored and
/// listed. `Is Warmup Set?` (`1`) marks warm-ups. Instants are UTC (`Z`), as written.
///
/// A workout is the rows sharing one `Workout DateTime`, named by its `Day Name` (the
/// program's name when the day has none): the start already tells two workouts apart, and the
/// day is what the user reads and filters workouts by (`Push`, `Day 1`). Liftosaur records no
/// workout length here, so it is unknown; `Completed Reps Time`, the moment a set was
/// ticked, is not read (the last tick is not the end of a workout). The file has no set
/// number, so a set's index is its place among its exercise block's rows (SPEC 9.3, 10.5):
/// three equal sets stay three sets.
///
/// `Target Muscles` names the muscles an exercise works in Liftosaur's anatomy (`Gluteus
/// Maximus`, `Deltoid Anterior`); they are carried as the catalog's muscle-group names
/// (``LiftosaurMuscles``) for an exercise the catalog lacks, which the merge resolves
/// against the run's catalog. `Synergist Muscles`, RPE, AMRAP and the notes are not read.
enum LiftosaurCSV {
  static func read(file: String, bytes: [UInt8], settings: ReadSettings, limits: ReadLimits) throws(ExportError)
    -> FileIngest
  {
    try readCSVExport(file: file, bytes: bytes, format: .liftosaurCSV, limits: limits) {
      (header) throws(ExportError) -> Parser in
      try Parser(header: header, file: file, settings: settings)
    }
  }

  /// Whether a header is Liftosaur's: its date and its completed columns.
  static func isHeader(_ has: (String) -> Bool) -> Bool {
    has("Workout DateTime") && has("Completed Reps") && has("Completed Weight Value")
  }

  /// Why a row is ignored when it has no completed reps.
  static let plannedSetReason = "a planned set never done (no completed reps)"

  final class Parser: CSVRowParser {
    let date: Int
    let program: Int?
    let dayName: Int?
    let exercise: Int
    let isWarmup: Int?
    let completedReps: Int
    let completedWeight: Int
    let completedWeightUnit: Int
    let targetMuscles: Int?
    let settings: ReadSettings
    let fields: FieldDecoder
    /// The block being read — its start and exercise — and how many of its rows came before.
    private var block: (start: Int64, exercise: String, rows: Int)?
    /// The last `Target Muscles` bytes and what they named: an exercise's rows repeat them.
    private var lastMuscles: (bytes: [UInt8], names: [String]?)?

    init(header: CSVHeader, file: String, settings: ReadSettings) throws(ExportError) {
      date = try header.require(file, format: "Liftosaur", "Workout DateTime")
      program = header.index("Program")
      dayName = header.index("Day Name")
      exercise = try header.require(file, format: "Liftosaur", "Exercise")
      isWarmup = header.index("Is Warmup Set?")
      completedReps = try header.require(file, format: "Liftosaur", "Completed Reps")
      completedWeight = try header.require(file, format: "Liftosaur", "Completed Weight Value")
      completedWeightUnit = try header.require(file, format: "Liftosaur", "Completed Weight Unit")
      targetMuscles = header.index("Target Muscles")
      self.settings = settings
      fields = FieldDecoder(timeZone: settings.timeZone)
    }

    func parse(_ reader: CSVReader, line: Int, into set: inout ExportSet) throws(FieldProblem) -> RowOutcome {
      let start = try fields.instant(reader, date)
      let exerciseName = try fields.exerciseName(reader, exercise)
      // Counted before anything else can reject the row, so an index is the row's place in its
      // block whatever became of the rows before it.
      if let current = block, current.start == start, current.exercise == exerciseName {
        block!.rows += 1
      } else {
        block = (start, exerciseName, 1)
      }
      let index = block!.rows
      // Empty, or only spaces: never done. Checked before the weight, which a planned set may
      // carry as completed (the app fills it in before the set is ticked).
      if reader.field(completedReps).allSatisfy({ $0 == ASCII.space || $0 == ASCII.tab }) {
        return .ignored(LiftosaurCSV.plannedSetReason)
      }
      var name = ""
      if let dayName { name = try fields.text(reader, dayName) }
      if name.isEmpty, let program { name = try fields.text(reader, program) }
      let type = try warmup(reader) ? SetType.warmup : .normal
      let unit = try weightUnit(reader)
      let (weightKg, assistance) = try fields.loadKg(
        reader, completedWeight, unit: unit ?? settings.weightUnit, exercise: exerciseName)
      let repCount = try fields.reps(reader, completedReps)
      set.assign(
        line: line, sessionKey: fields.sessionKey(start: start, name: name), sessionName: name,
        start: start, durationSeconds: nil, exercise: exerciseName, setIndex: index, type: type,
        weightKg: weightKg, reps: repCount, stated: StatedUnits(weight: unit))
      set.muscleNames = muscles(reader)
      return .set(repaired: assistance)
    }

    private static let one = Array("1".utf8)
    private static let zero = Array("0".utf8)
    private static let kg = Array("kg".utf8)
    private static let lb = Array("lb".utf8)

    /// `Is Warmup Set?`: `1` or `0` as Liftosaur writes them (`true`/`false` also read); empty
    /// is a working set.
    private func warmup(_ reader: CSVReader) throws(FieldProblem) -> Bool {
      guard let isWarmup, !reader.isEmpty(isWarmup) else { return false }
      let bytes = reader.field(isWarmup)
      if equal(Self.zero, bytes) { return false }
      if equal(Self.one, bytes) { return true }
      switch reader.string(isWarmup).trimmingCharacters(in: .whitespaces).lowercased() {
      case "1", "true": return true
      case "0", "false": return false
      default:
        throw FieldProblem(index: isWarmup, reason: "'\(reader.string(isWarmup))' is not 1 or 0 (warm-up or not)")
      }
    }

    /// `Completed Weight Unit` (`kg`, `lb`), nil when empty: a set without a weight.
    private func weightUnit(_ reader: CSVReader) throws(FieldProblem) -> WeightUnit? {
      let bytes = reader.field(completedWeightUnit)
      if equal(Self.kg, bytes) { return .kilograms }
      if equal(Self.lb, bytes) { return .pounds }
      return try fields.weightUnit(reader, completedWeightUnit)
    }

    /// `Target Muscles` as the catalog's muscle-group names, nil when it names none.
    private func muscles(_ reader: CSVReader) -> [String]? {
      guard let targetMuscles else { return nil }
      let bytes = reader.field(targetMuscles)
      if let last = lastMuscles, equal(last.bytes, bytes) { return last.names }
      let names = LiftosaurMuscles.groups(named: normalizedName(bytes))
      lastMuscles = (Array(bytes), names)
      return names
    }
  }
}

/// Liftosaur's muscles (its anatomy: 39 muscles such as `Pectoralis Major Sternal Head`) as the
/// built-in catalog's 27 muscle groups, by the groups' names (`Chest`), so that the merge can
/// find them in whichever catalog a run uses (a pipeline's own catalog has its own ids).
///
/// Written by the project from the muscles' anatomy: each muscle goes to the group that holds
/// it (the three heads of the trapezius to `Trapezius`, the soleus to `Calves`, the
/// sternocleidomastoid to `Neck`). A name not in the table is kept as it is, so a catalog
/// whose group is named like Liftosaur's muscle (`Quadriceps`, `Obliques`) still matches it;
/// a name no catalog group has is left out by the merge.
enum LiftosaurMuscles {
  /// Liftosaur's muscle, case-folded, → the catalog's group name.
  static let table: [String: String] = [
    "adductor brevis": "Adductors", "adductor longus": "Adductors", "adductor magnus": "Adductors",
    "pectineous": "Adductors",
    "biceps brachii": "Biceps", "brachialis": "Biceps",
    "brachioradialis": "Forearms", "wrist extensors": "Forearms", "wrist flexors": "Forearms",
    "deltoid anterior": "Anterior deltoids", "deltoid lateral": "Lateral deltoids",
    "deltoid posterior": "Posterior deltoids",
    "erector spinae": "Lower back",
    "gastrocnemius": "Calves", "soleus": "Calves",
    "gluteus maximus": "Gluteus maximus", "gluteus medius": "Gluteus medius", "tensor fasciae latae": "Gluteus medius",
    "hamstrings": "Hamstrings",
    "iliopsoas": "Hip flexors", "sartorius": "Hip flexors",
    "infraspinatus": "Rotator cuff", "teres minor": "Rotator cuff",
    "latissimus dorsi": "Latissimus dorsi",
    "levator scapulae": "Neck", "splenius": "Neck", "sternocleidomastoid": "Neck",
    "obliques": "Obliques",
    "pectoralis major clavicular head": "Chest", "pectoralis major sternal head": "Chest",
    "quadriceps": "Quadriceps",
    "rectus abdominis": "Abdominals",
    "serratus anterior": "Serratus anterior",
    "teres major": "Teres major",
    "tibialis anterior": "Tibialis anterior",
    "trapezius lower fibers": "Trapezius", "trapezius middle fibers": "Trapezius",
    "trapezius upper fibers": "Trapezius",
    "triceps brachii": "Triceps",
  ]

  /// The most muscles one row may name: Liftosaur's anatomy has 39, so more is junk, and each
  /// name is kept with every kind of set that repeats it.
  static let maximumNames = 64

  /// The groups named by `text`, Liftosaur's comma-separated muscles, each once, in the order
  /// first named; nil when it names none.
  ///
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  static func groups(named text: String) -> [String]? {
    var groups: [String] = []
    for part in text.split(separator: ",").prefix(maximumNames) {
      let muscle = normalizedName(String(part))
      guard !muscle.isEmpty, NameLimit.problem(muscle) == nil else { continue }
      let group = table[muscle.lowercased()] ?? muscle
      if !groups.contains(group) { groups.append(group) }
    }
    return groups.isEmpty ? nil : groups
  }
}
