import Testing
import TrendlineSchema

@testable import TrendlineRunner

/// What a listing line may name as a user's file, in each layout (``InputListing``): the
/// user's own entries only, compared by UTF-8 bytes. `anna` is partition 4bb and `ben` 92a
/// (FNV-1a 64 mod 4,096).
@Test(arguments: [
  ("anna.csv", "anna", UserLayout.flat, true),
  ("anna/strong.csv", "anna", .flat, true),
  ("4bb/anna/strong.csv", "anna", .flat, false),
  ("4bb/anna/strong.csv", "anna", .partitioned, true),
  ("4bb/anna.csv", "anna", .partitioned, true),
  ("4bb/anna", "anna", .partitioned, true),
  ("anna/strong.csv", "anna", .partitioned, false),
  ("92a/anna.csv", "anna", .partitioned, false),
  ("4BB/anna.csv", "anna", .partitioned, false),
  ("333/users.csv", "users", .partitioned, false),
  ("4bb//anna.csv", "anna", .partitioned, false),
  ("4bb/anna/", "anna", .partitioned, false),
  ("4bb/anna/.hidden", "anna", .partitioned, false),
  ("4bb/anna/.\u{301}x", "anna", .partitioned, false),
  ("4bb/anna/../ben.csv", "anna", .partitioned, false),
  ("4bb/anna/x/y.csv", "anna", .partitioned, false),
  ("92a/ben.csv", "ben", .partitioned, true),
])
func aListedPathIsTheUsersOwnFile(path: String, user: String, layout: UserLayout, own: Bool) {
  #expect(InputListing.isOwnFile(path, of: user, layout: layout) == own)
}

/// A user named `users.csv` has no folder: discovery never reads one, at the top or in a
/// partition (`users` is partition 333, `users.csv` 3e1), and a listing may not name one.
@Test func theSettingsFileIsNoUsersFolder() {
  #expect(!InputListing.isOwnFile("users.csv/x.csv", of: "users.csv", layout: .flat))
  #expect(!InputListing.isOwnFile("3e1/users.csv/x.csv", of: "users.csv", layout: .partitioned))
}
