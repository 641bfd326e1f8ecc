#!/usr/bin/env bash
# Writes the Swift files that compile Trendline's data files into the binary:
#
#   Resources/catalog.json  ->  Sources/TrendlineIngest/BuiltInCatalog.swift
#   Resources/report.css    ->  Sources/TrendlineRender/ReportResources.swift
#   Resources/report.js     ->  Sources/TrendlineRender/ReportResources.swift
#
# The data files are the source: edit one, run `bash Scripts/embed-resources.sh`, commit both.
# With --check it writes nothing, and exits 1 naming each Swift file that is not what it would
# write (a data file edited without running it, or a generated file edited by hand); .ci/run
# runs that. Tests in TrendlineIngestTests and TrendlineRenderTests compare the two as well.
#
# Each file becomes a raw multi-line string literal whose value is the file's bytes exactly,
# final newline included. The literal's delimiter has one `#` more than any run of `#` after a
# quote or backslash in the file, so no text can end it or start an escape. A line longer than
# .swift-format's lineLength once indented is cut across source lines with the raw string's
# line continuation (`\#` at the end of a line, after a space or punctuation where there is
# one), which adds nothing to the value: the data files keep the lines the page and the
# catalog have, and the generated Swift keeps the line limit that .ci/run checks.
#
# Needs bash, coreutils, awk and cmp (POSIX, in every base system). awk runs in the C locale,
# where every awk reads bytes alike; lines are measured in characters (bytes that do not
# continue a UTF-8 sequence), as .ci/run measures them, and never cut inside one.
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
case "${1-}" in
  "") ;;
  --check) check=true ;;
  *)
    echo "usage: bash Scripts/embed-resources.sh [--check]" >&2
    exit 2
    ;;
esac

limit=$(sed -n 's/^ *"lineLength": *\([0-9][0-9]*\).*/\1/p' .swift-format)
[ -n "$limit" ] || { echo "embed-resources: no lineLength in .swift-format" >&2; exit 1; }

catalog=Resources/catalog.json
css=Resources/report.css
script=Resources/report.js

# literal DECLARATION FILE: `DECLARATION = ` and FILE's text as a raw multi-line string literal,
# the declaration indented by 2 spaces and the text by 4, as the type's members are.
literal() {
  local declaration=$1 file=$2 hashes ends_with_newline=0
  [ -f "$file" ] || { echo "embed-resources: $file is missing" >&2; exit 1; }
  # The longest run of `#` after a quote or a backslash in the file, plus one.
  hashes=$(LC_ALL=C awk '
    {
      line = $0
      while (match(line, /["\\]#+/)) {
        if (RLENGTH > longest) longest = RLENGTH
        line = substr(line, RSTART + RLENGTH)
      }
    }
    END { for (i = 0; i < (longest ? longest : 1); i++) printf "#" }' "$file")
  # awk reads "a" and "a\n" alike; the literal keeps the difference with a last, empty line.
  if [ -s "$file" ] && [ -z "$(tail -c 1 "$file")" ]; then ends_with_newline=1; fi
  printf '  %s = %s"""\n' "$declaration" "$hashes"
  LC_ALL=C awk -v file="$file" -v hashes="$hashes" -v limit="$limit" -v last="$ends_with_newline" '
    BEGIN {
      indent = "    "
      room = limit - length(indent)           # a line of text, or the last piece of one
      piece = room - 1 - length(hashes)       # a piece followed by the continuation \#
      for (i = 128; i < 192; i++) continuation[sprintf("%c", i)] = 1
    }
    # Characters in s: the bytes that do not continue a UTF-8 sequence.
    function characters(s,   i, n) {
      for (i = 1; i <= length(s); i++) if (!(substr(s, i, 1) in continuation)) n++
      return n + 0
    }
    # The length in bytes of the first n characters of s.
    function prefix(s, n,   i, seen) {
      for (i = 1; i <= length(s); i++) {
        if (!(substr(s, i, 1) in continuation)) {
          if (seen == n) return i - 1
          seen++
        }
      }
      return length(s)
    }
    # Where to cut the first n bytes of s: after the last space or punctuation in their second
    # half, so a word or number stays on one line; failing that, after all n.
    function cut(s, n,   i) {
      for (i = n; i > n / 2; i--) if (index(" ,;:{}()[]", substr(s, i, 1))) return i
      return n
    }
    /\r/ {
      # A multi-line literal reads CR LF as LF, so the value would differ from the file.
      printf "%s:%d: carriage return; save the file with LF line endings\n", file, NR > "/dev/stderr"
      failed = 1
      exit 1
    }
    /[ \t]$/ {
      # swift format lint --strict rejects a line of only spaces in a literal, and an editor
      # that trims lines would change the value of any: a data file has none, as a rule.
      printf "%s:%d: trailing whitespace; remove it\n", file, NR > "/dev/stderr"
      failed = 1
      exit 1
    }
    $0 == "" { print ""; next }
    {
      rest = $0
      while (length(rest) > room && characters(rest) > room) {
        n = cut(rest, prefix(rest, piece))
        print indent substr(rest, 1, n) "\\" hashes
        rest = substr(rest, n + 1)
      }
      print indent rest
    }
    END {
      if (failed) exit 1
      if (last) print ""
    }' "$file"
  printf '    """%s\n' "$hashes"
}

# header FILE...: the comment every generated file opens with.
header() {
  local line="// Generated by Scripts/embed-resources.sh from $1" file
  shift
  for file in "$@"; do
    echo "$line"
    line="// and $file"
  done
  echo "$line."
  echo "// Do not edit by hand: change the data, then run \`bash Scripts/embed-resources.sh\`."
}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

{
  header "$catalog"
  cat <<'SWIFT'

import TrendlineSchema

extension Catalog {
  /// `Resources/catalog.json` byte for byte: the built-in catalog in the JSON form of a
  /// `source.catalog` file. ``builtIn`` decodes it and says what it holds.
SWIFT
  literal "public static let builtInJSON" "$catalog"
  echo "}"
} > "$out/BuiltInCatalog.swift"

{
  header "$css" "$script"
  cat <<'SWIFT'

/// The report page's style sheet and script, byte for byte as their files hold them.
/// ``HTMLReport`` inlines both in every page, and says what they do.
enum ReportResources {
  /// `Resources/report.css`.
SWIFT
  literal "static let css" "$css"
  cat <<'SWIFT'

  /// `Resources/report.js`.
SWIFT
  literal "static let script" "$script"
  echo "}"
} > "$out/ReportResources.swift"

status=0
for generated in Sources/TrendlineIngest/BuiltInCatalog.swift Sources/TrendlineRender/ReportResources.swift; do
  new=$out/$(basename "$generated")
  if cmp -s "$new" "$generated"; then
    continue
  elif $check; then
    echo "$generated is not what Scripts/embed-resources.sh writes from the data files:" \
      "run \`bash Scripts/embed-resources.sh\` and commit the result" >&2
    status=1
  else
    # Written only when it changes, so an unchanged file does not rebuild its module.
    cp "$new" "$generated"
    echo "wrote $generated"
  fi
done
exit "$status"
