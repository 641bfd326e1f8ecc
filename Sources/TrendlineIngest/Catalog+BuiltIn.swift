import Foundation
import TrendlineSchema

extension Catalog {
  /// ``builtInJSON`` decoded, once per process: the catalog of a pipeline without
  /// `source.catalog`.
  public static let builtIn: Catalog = {
    do {
      return try JSONDecoder().decode(Catalog.self, from: Data(builtInJSON.utf8))
    } catch {
      // A test decodes it on every build, so this is a bug in the shipped text, never input.
      preconditionFailure("the built-in catalog does not decode: \(error)")
    }
  }()
}
