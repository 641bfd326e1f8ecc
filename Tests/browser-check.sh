#!/usr/bin/env bash
# Browser check for the HTML report (issue 6): headless Chromium loads every report page of a
# SampleData run, writes a PNG screenshot of each, and fails on a script error; then checks that
# the page of `mason`, whose workout is named `<script>alert(1)</script>`, shows that text
# escaped and holds no injected element.
#
# How errors are caught: each page's inline script sets <body data-script="ok"> as its last
# statement, and a window 'error' listener sets "error". A page whose script threw, or never ran,
# is left "pending" or "error" in the DOM that `--dump-dom` prints. This is robust where grepping
# Chromium's log is not: log lines change between versions, and headless Chromium logs unrelated
# errors (D-Bus, GPU) on every start. Loading with `#selftest` also makes each page point at the
# first and last point of every chart and check the read-out, the keyboard, brushing, the tick
# labels, text sizes, overflow and fetches (<body data-selftest="ok">), in both colour schemes.
#
# Usage: Tests/browser-check.sh [SCREENSHOT_DIR]   (default: a temporary folder, removed after)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  echo "== installing chromium"
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shots=${1:-"$work/shots"}
mkdir -p "$shots"

echo "== browser: trendline run Pipelines/overview.json --as-of 2026-11-29, and lifts.json"
swift run -c release trendline run Pipelines/overview.json --as-of 2026-11-29 --output "$work/out" --quiet
# lifts.json has bests (bench e1RM, top sets): ethan's page is checked for lines with records.
swift run -c release trendline run Pipelines/lifts.json --as-of 2026-11-29 --output "$work/lifts" --quiet

# CI runs as root, so the sandbox must be off; no GPU in a container.
browser() { chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars "$@" 2>"$work/stderr"; }

pages=("$work/out/report/index.html" "$work/out/report/users/"*.html "$work/lifts/report/users/ethan.html")
failed=0
for page in "${pages[@]}"; do
  name=$(basename "$(dirname "$page")")-$(basename "$page" .html)
  [ "$(basename "$page")" = index.html ] && name=index
  [[ "$page" == "$work/lifts/"* ]] && name=lifts-$name
  browser --screenshot="$shots/$name.png" --window-size=1280,2400 "file://$page" >/dev/null
  [ -s "$shots/$name.png" ] || { echo "browser: no screenshot of $page"; failed=1; }
  browser --screenshot="$shots/$name-390.png" --window-size=390,2400 "file://$page" >/dev/null
  # The page's self-test (HTMLReport.script), in the light and the dark scheme, at a desktop
  # width and a phone's: read-out, keyboard, brushing, tick labels equal to their gridlines, no
  # text under 11 px, nothing out of its card, nothing fetched.
  for run in 1280-light 1280-dark 390-light 390-dark; do
    scheme=${run#*-}
    flags=(--window-size=${run%-*},2400)
    [ "$scheme" = dark ] && flags+=(--blink-settings=preferredColorScheme=0)
    dom=$(browser "${flags[@]}" --dump-dom "file://$page#selftest")
    status=$(grep -o 'data-script="[^"]*"' <<<"$dom" | head -1)
    selftest=$(grep -o 'data-selftest="[^"]*"' <<<"$dom" | head -1)
    dark=$(grep -o 'data-dark="[^"]*"' <<<"$dom" | head -1)
    if [ "$status" != 'data-script="ok"' ]; then
      echo "browser: $name ($run): script did not finish ($status)"; failed=1
    fi
    if [ "$selftest" != 'data-selftest="ok"' ]; then
      echo "browser: $name ($run): self-test ($selftest)"; failed=1
    fi
    want=no
    [ "$scheme" = dark ] && want=yes
    [ "$dark" = "data-dark=\"$want\"" ] || { echo "browser: $name: the $scheme scheme was not applied ($dark)"; failed=1; }
  done
  # Console errors, as a second net (Chromium prints them as `CONSOLE(...)` with --enable-logging).
  browser --enable-logging=stderr --v=0 --dump-dom "file://$page" >/dev/null
  if grep -i 'CONSOLE' "$work/stderr" | grep -qi 'error'; then
    echo "browser: $name: console errors:"; grep -i 'CONSOLE' "$work/stderr"; failed=1
  fi
done

echo "== browser: mason's page escapes <script>alert(1)</script>"
dom=$(browser --dump-dom "file://$work/out/report/users/mason.html")
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' <<<"$dom" \
  || { echo "browser: mason: the workout name is not shown escaped"; failed=1; }
if grep -qi '<script>alert' <<<"$dom"; then
  echo "browser: mason: an injected <script> element is in the DOM"; failed=1
fi
scripts=$(grep -o '<script' <<<"$dom" | wc -l)
[ "$scripts" = 1 ] || { echo "browser: mason: $scripts script elements, expected only the report's own"; failed=1; }

echo "== browser: a best is a line with its records ringed, a total bars (SPEC 11.8)"
browser --dump-dom "file://$work/lifts/report/users/ethan.html" >"$work/ethan-lifts.html"
python3 - "$work/ethan-lifts.html" <<'PY' || failed=1
import sys
dom = open(sys.argv[1], encoding="utf-8").read()
# The wide drawing of each chart: its <svg> up to the next </svg>.
def chart(title):
    start = dom.find(f">{title}</title>")
    assert start >= 0, f"no drawing titled {title}"
    return dom[dom.rfind("<svg", 0, start): dom.find("</svg>", start)]
bench = chart("bench-e1rm — ethan")
problems = []
if 'class="tl-bars"' in bench: problems.append("bench-e1rm is drawn with bars")
if bench.count('class="tl-line"') != 2: problems.append("bench-e1rm: not a line per measure")
if 'class="tl-point tl-record"' not in bench: problems.append("bench-e1rm: no record ringed")
legs = chart("leg-sets — ethan")
if 'class="tl-bars"' not in legs: problems.append("leg-sets (a total) is not drawn with bars")
for problem in problems: print("browser:", problem)
sys.exit(1 if problems else 0)
PY

[ "$failed" = 0 ] || exit 1
echo "browser: ${#pages[@]} pages passed their self-test, light and dark, at 1280 and 390 px; screenshots in $shots"
