import Foundation
import Testing
import TrendlineIngest
import TrendlineSchema

/// The built-in catalog decodes, keeps the 27 muscle groups, and is unambiguous: every name and
/// alias is NFC, trimmed and unique after case folding, and every id is a muscle group.
@Test func builtInCatalogIsWellFormed() {
  let catalog = Catalog.builtIn
  #expect(catalog.muscleGroups.map(\.id) == Array(1...27))
  #expect(catalog.muscleGroups[8].name == "Latissimus dorsi")
  #expect(catalog.exercises.count > 400)
  var seen: [String: String] = [:]
  for exercise in catalog.exercises {
    #expect(!exercise.muscleGroupIds.isEmpty, "\(exercise.name)")
    #expect(exercise.muscleGroupIds.allSatisfy { (1...27).contains($0) }, "\(exercise.name)")
    for name in [exercise.name] + exercise.aliases {
      #expect(name == normalizedName(name), "\(name) is not trimmed NFC")
      let key = name.folding(options: [.caseInsensitive], locale: nil)
      #expect(seen[key] == nil, "\(name) is both in \(seen[key] ?? "") and \(exercise.name)")
      seen[key] = exercise.name
    }
  }
}

/// What real users log maps: the apps' library names, other apps' spellings, other
/// languages, and a name with an equipment the catalog does not list, by its base name.
@Test(arguments: [
  ("Bench Press (Barbell)", "Bench Press (Barbell)", 2),
  ("lat pulldown (cable)", "Lat Pulldown (Cable)", 9),
  ("Flat Barbell Bench Press", "Bench Press (Barbell)", 2),
  ("Kniebeuge", "Squat (Barbell)", 8),
  ("Squat (Safety Squat Bar)", "Squat (Safety Squat Bar)", 8),
  // Plurals a German Strong user typed for two library exercises.
  ("Farmers Carries", "Kettlebell Carry", 5),
  ("Pull Up Hang", "Dead Hang", 5),
  // Hevy's library in Spanish, Portuguese and Turkish, as real exports write it.
  ("Peso Muerto (Barra)", "Deadlift (Barbell)", 12),
  ("Elevacion Laterales (Mancuerna)", "Lateral Raise (Dumbbell)", 23),
  ("Tirón a la Cara", "Face Pull (Cable)", 25),
  ("Empuje de Caderas (Barra)", "Hip Thrust (Barbell)", 14),
  ("Extensão de Tríceps na Polia (Máquina)", "Triceps Extension (Cable)", 4),
  ("Desenvolvimento (Halter)", "Shoulder Press (Dumbbell)", 1),
  ("Cadeira Flexora (Máquina)", "Seated Leg Curl (Machine)", 10),
  ("Mesa Flexora (Máquina)", "Lying Leg Curl (Machine)", 10),
  ("Barfiks (Ağırlıklı)", "Pull Up (Weighted)", 9),
  ("Ters Tutuş Barfiks", "Chin Up", 9),
  ("Dar Tutuş Bench Press (Bar)", "Bench Press - Close Grip (Barbell)", 4),
  // The same pattern in German, French and Italian.
  ("Kreuzheben (Langhantel)", "Deadlift (Barbell)", 12),
  ("Développé couché (Barre)", "Bench Press (Barbell)", 2),
  ("Panca piana (Manubrio)", "Bench Press (Dumbbell)", 2),
  // Liftosaur's `Name, Equipment`, JEFIT's and Fitbod's machine names.
  ("Romanian Deadlift, Barbell", "Romanian Deadlift (Barbell)", 10),
  ("Standing Calf Raise, Leverage Machine", "Standing Calf Raise (Machine)", 11),
  ("Hack Squat, Smith Machine", "Hack Squat (Smith Machine)", 8),
  ("Barbell Standing Military Press", "Overhead Press (Barbell)", 1),
  ("Hammerstrength Iso Row", "Iso-Lateral Row (Machine)", 13),
])
func builtInCatalogMapsRealNames(logged: String, name: String, primary: Int) throws {
  let entry = try #require(ExerciseLookup(catalog: .builtIn).find(logged))
  #expect(entry.name == name)
  #expect(entry.muscleGroupIds.first == primary)
}

/// `Name (Equipment)` falls back to the base name's muscle groups and keeps its own name; a
/// name that is neither stays unmapped.
@Test func lookupByBaseNameKeepsTheLoggedName() {
  let catalog = Catalog(
    muscleGroups: [.init(id: 2, name: "Chest")],
    exercises: [.init(name: "Bench Press (Barbell)", aliases: ["Bench Press"], muscleGroupIds: [2])])
  let lookup = ExerciseLookup(catalog: catalog)
  #expect(lookup.find("Bench Press (Swiss Bar)") == .init(name: "Bench Press (Swiss Bar)", muscleGroupIds: [2]))
  #expect(lookup.find("bench press") == .init(name: "Bench Press (Barbell)", muscleGroupIds: [2]))
  #expect(lookup.find("Rehab (stuff)") == nil)
  #expect(lookup.find("(Barbell)") == nil)
}
