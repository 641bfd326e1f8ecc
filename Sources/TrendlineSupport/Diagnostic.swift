/// A place in an input file: 1-based line and column (columns count bytes of UTF-8, as
/// compilers do, so a position found in bytes needs no decoding to report).
public struct SourceLocation: Sendable, Equatable, Hashable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var column: Int

  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  public var description: String { "\(file):\(line):\(column)" }
}

/// A problem a user can act on, printed in the compilers' `file:line:column: error: …` form.
public struct Diagnostic: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Severity: String, Sendable { case note, warning, error }

  public var severity: Severity
  /// Where the problem is, when it is in a file.
  public var location: SourceLocation?
  /// The JSON path of the value at fault, for pipeline files (`charts.training-volume[2]`).
  public var path: String?
  /// What is wrong, in the file's words.
  public var message: String
  /// What to do next.
  public var hint: String?

  public init(
    _ severity: Severity = .error, at location: SourceLocation? = nil, path: String? = nil,
    _ message: String, hint: String? = nil
  ) {
    self.severity = severity
    self.location = location
    self.path = path
    self.message = message
    self.hint = hint
  }

  /// The one place a diagnostic's text is put together, so tests can pin it. It is one line:
  /// every part may quote the input (a file name, a cell, a pipeline value), so each is
  /// escaped (``TerminalText``) and a newline in a cell cannot forge a second diagnostic.
  public var description: String {
    var text = ""
    if let location { text += "\(TerminalText.escaped(location.description)): " }
    text += "\(severity.rawValue): \(TerminalText.escaped(message))"
    if let path { text += " at \(TerminalText.escaped(path))" }
    if let hint { text += ". \(TerminalText.escaped(hint))" }
    return text
  }
}
