/// The exercise catalog (SPEC section 4; the built-in one, or a pipeline's `source.catalog`): muscle groups by id and
/// the exercises that map onto them.
///
/// This type only holds what the file says; name lookup (trimmed, NFC, case-folded, aliases)
/// lives with normalization, which owns the rules for names.
public struct Catalog: Codable, Sendable, Equatable {
  public struct MuscleGroup: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public init(id: Int, name: String) {
      self.id = id
      self.name = name
    }
  }

  public struct Exercise: Codable, Sendable, Equatable {
    public var name: String
    public var aliases: [String]
    public var muscleGroupIds: [Int]
    public init(name: String, aliases: [String] = [], muscleGroupIds: [Int]) {
      self.name = name
      self.aliases = aliases
      self.muscleGroupIds = muscleGroupIds
    }

    enum CodingKeys: String, CodingKey { case name, aliases, muscleGroupIds }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      name = try container.decode(String.self, forKey: .name)
      // `aliases` may be left out of a hand-written catalog entry.
      aliases = try container.decodeIfPresent([String].self, forKey: .aliases) ?? []
      muscleGroupIds = try container.decode([Int].self, forKey: .muscleGroupIds)
    }
  }

  public var muscleGroups: [MuscleGroup]
  public var exercises: [Exercise]

  public init(muscleGroups: [MuscleGroup], exercises: [Exercise]) {
    self.muscleGroups = muscleGroups
    self.exercises = exercises
  }
}
