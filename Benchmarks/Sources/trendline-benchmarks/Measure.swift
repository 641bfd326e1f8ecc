import Dispatch
import Foundation

/// Wall-clock seconds since an arbitrary start, from the monotonic clock.
func now() -> Double {
  Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}

/// The process's peak resident set size in bytes (`VmHWM` in `/proc/self/status`), or nil
/// where there is no procfs. Peak, not current: the figure a machine must have free.
func peakRSSBytes() -> Int? {
  guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
  for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    let digits = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
    if let digits, let kb = Int(digits) { return kb * 1024 }
  }
  return nil
}

/// The short git revision of the working directory's checkout, so every result names the code
/// it measured; "unknown" outside a checkout.
func gitRevision() -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["git", "rev-parse", "--short", "HEAD"]
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = FileHandle.nullDevice
  do {
    try process.run()
    process.waitUntilExit()
  } catch {
    return "unknown"
  }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  return process.terminationStatus == 0 && !text.isEmpty ? text : "unknown"
}

func fixed(_ value: Double, _ digits: Int) -> String {
  String(format: "%.\(digits)f", value)
}

/// A left-aligned first column and right-aligned others, for results a reader scans.
func printTable(_ header: [String], _ rows: [[String]]) {
  let all = [header] + rows
  let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
  func render(_ row: [String]) -> String {
    row.enumerated().map { column, cell in
      let pad = String(repeating: " ", count: widths[column] - cell.count)
      return column == 0 ? cell + pad : pad + cell
    }.joined(separator: "  ")
  }
  print(render(header))
  print(render(widths.map { String(repeating: "-", count: $0) }))
  for row in rows { print(render(row)) }
}

struct UsageError: Error, CustomStringConvertible {
  var description: String
}

/// `--name value` options and positional arguments; enough for a benchmark tool.
struct Arguments {
  var positional: [String] = []
  var options: [String: String] = [:]
  var flags: Set<String> = []

  init(_ arguments: some Sequence<String>, flagNames: Set<String>) throws {
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      if argument.hasPrefix("--") {
        let name = String(argument.dropFirst(2))
        if flagNames.contains(name) {
          flags.insert(name)
        } else {
          guard let value = iterator.next() else { throw UsageError(description: "\(argument) needs a value") }
          options[name] = value
        }
      } else {
        positional.append(argument)
      }
    }
  }

  func int(_ name: String, default value: Int) throws -> Int {
    guard let text = options[name] else { return value }
    guard let number = Int(text), number > 0 else {
      throw UsageError(description: "--\(name) must be a whole number > 0, not '\(text)'")
    }
    return number
  }
}
