import Foundation
import TrendlineRunner
import TrendlineSchema
import TrendlineSupport

/// How a command speaks on stderr with `--log json`: one JSON object a line, every line with
/// the same context, so a log collector can find a night's lines, a shard's, a user's.
///
/// Every line has `ts` (RFC 3339, UTC, milliseconds), `level` (`info`, `warning`, `error`),
/// `event` and `command`; then `asOf`, `shard` (`3-of-16`) and `job` (the scheduler's job id)
/// where the command has them, and `user` where the line is about one. Members are written in
/// key order, and input characters a terminal acts on are escaped
/// (``TerminalText/escapedJSON(_:)``). Failures are lines too (`level: error`), never a plain
/// `error:` line among JSON ones.
struct CommandLog: Sendable {
  enum Level: String, Sendable { case info, warning, error }

  /// A member's value.
  enum Value: Sendable {
    case text(String)
    case number(Int)
  }

  /// The members every line carries besides `ts`, `level` and `event`.
  private let context: [(String, Value)]

  init(command: String, asOf: String? = nil, shard: String? = nil, environment: [String: String]) {
    var context: [(String, Value)] = [("command", .text(command))]
    if let asOf { context.append(("asOf", .text(asOf))) }
    if let shard { context.append(("shard", .text(shard))) }
    if let job = Self.jobID(environment) { context.append(("job", .text(job))) }
    self.context = context
  }

  /// The scheduler's id of the job this process runs in: Slurm's array job and task
  /// (`4107_3`) or job, AWS Batch's job, Kubernetes' pod (its host name, which the Jobs'
  /// template sets from the pod's name); `TRENDLINE_JOB_ID` wins over all of them.
  static func jobID(_ environment: [String: String]) -> String? {
    if let given = environment["TRENDLINE_JOB_ID"], !given.isEmpty { return given }
    if let array = environment["SLURM_ARRAY_JOB_ID"], let task = environment["SLURM_ARRAY_TASK_ID"] {
      return "\(array)_\(task)"
    }
    if let job = environment["SLURM_JOB_ID"] { return job }
    if let job = environment["AWS_BATCH_JOB_ID"] { return job }
    if environment["JOB_COMPLETION_INDEX"] != nil || environment["KUBERNETES_SERVICE_HOST"] != nil {
      return environment["HOSTNAME"]
    }
    return nil
  }

  /// One line: the context, then `members`, all in key order; a member of the same key as the
  /// context's (a backfill snapshot's `asOf`) replaces it, so no key is written twice.
  func line(_ level: Level, _ event: String, _ members: [(String, Value)] = [], now: Date = Date()) -> String {
    let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
    let seconds = RFC3339.format(seconds: milliseconds / 1000, timeZone: TimeZone(identifier: "UTC")!)
    let fraction = String(1000 + milliseconds % 1000).dropFirst()
    let ts = seconds.replacingOccurrences(of: "+00:00", with: "") + ".\(fraction)Z"
    let given = Set(members.map(\.0))
    var all = context.filter { !given.contains($0.0) } + members
    all += [("ts", .text(ts)), ("level", .text(level.rawValue)), ("event", .text(event))]
    all.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
    var writer = OutputWriter(layout: OutputWriter.Layout(spacing: .compact, escapesSlashes: true))
    writer.beginObject()
    for (key, value) in all {
      writer.key(escaping: key)
      switch value {
      case .text(let text): writer.string(text)
      case .number(let number): writer.number(number)
      }
    }
    writer.endObject()
    return String(decoding: TerminalText.escapedJSON(writer.bytes), as: UTF8.self) + "\n"
  }

  /// Prints a failure of the command itself, as a line.
  func fail(_ message: String) {
    printError(line(.error, "failed", [("message", .text(message))]))
  }
}
