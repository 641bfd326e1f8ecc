import Foundation
import TrendlineSchema

// The built-in catalog's source is `Resources/catalog.json`, in the JSON form of a
// `source.catalog` file. `Scripts/embed-resources.sh` compiles it in as `BuiltInCatalog.swift`,
// so the binary needs no file beside it: edit the JSON, then run the script. JSON has no
// comments; what the file holds, and why, is said on `Catalog.builtIn` below.

extension Catalog {
  /// Trendline's built-in exercise catalog, the catalog of a pipeline without `source.catalog`:
  /// ``builtInJSON`` (the text of `Resources/catalog.json`) decoded, once per process. It holds
  /// the 27 muscle groups and 569 exercises with 4,632 aliases, each exercise starting on its own
  /// line of the file. A long alias list continues on lines indented by two more spaces, so that
  /// no line is wider than 116 columns and each stays whole within the 120 of `.swift-format`
  /// once the generated Swift indents it; the JSON is the same either way.
  ///
  /// Names are the ones the apps write. Strong's and Hevy's libraries keep their equipment
  /// suffixes (`Bench Press (Barbell)`, `Lat Pulldown (Cable)`, `Seated Cable Row - V Grip (Cable)`);
  /// FitNotes, Fitbod and StrongLifts 5×5 defaults (`Flat Barbell Bench Press`, `V-Bar Pulldown`,
  /// `Barbell Row`), GymBook's Italian names (`Alzate di Gambe alla Macchina`) and the German,
  /// French, Italian and Spanish names users type (`Kniebeuge`, `Développé couché`, `Stacco da
  /// terra`, `Sentadilla`) are aliases. So is Hevy's library as a phone in another language
  /// writes it, equipment translated too (`Peso Muerto (Barra)`, `Extensão de Tríceps na Polia
  /// (Máquina)`, `Barfiks (Ağırlıklı)`, `Kreuzheben (Langhantel)`), Liftosaur's `Name, Equipment`
  /// (`Romanian Deadlift, Leverage Machine`: the lookup strips only an equipment in parentheses),
  /// and JEFIT's and Fitbod's machine names (`Barbell Standing Military Press`,
  /// `Hammerstrength Iso Row`). Bare base names (`Bench Press`, `Squat`, `Face Pull`) are
  /// aliases of the usual variant, so `Name (Some Equipment)` still maps once the suffix is
  /// stripped. Every name and alias is unique after trimming, NFC and case folding.
  /// `muscleGroupIds` put the primary mover first, then the main secondary movers.
  ///
  /// It deliberately holds no names users made up for themselves (`Rehab stuff`, `Bench press Backup`):
  /// a name it does not know is reported as unmapped, never guessed.
  ///
  /// Written by the project. The muscle mappings were checked against the public-domain
  /// free-exercise-db (yuhonas/free-exercise-db) and wger's exercise data; no file, entry or text
  /// of either was copied.
  public static let builtIn: Catalog = {
    do {
      return try JSONDecoder().decode(Catalog.self, from: Data(builtInJSON.utf8))
    } catch {
      // A test decodes it on every build, so this is a bug in the shipped text, never input.
      preconditionFailure("the built-in catalog does not decode: \(error)")
    }
  }()
}
