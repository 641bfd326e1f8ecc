# Shared by the benchmark scripts (sourced, not run): where things are, the seed-1 corpora,
# the release build, a fresh work folder, and one timed run.

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
peers="$root/../shared/peers"
export PATH="/opt/swift/usr/bin:$PATH"

# corpus USERS SESSIONS → the path of the seed-1 corpus, generated once into Benchmarks/.corpus
# (into a temporary folder renamed when complete, so an interrupted run is never taken as done).
corpus() {
  local dir="$here/.corpus/u$1-s$2"
  if [ ! -f "$dir/users.csv" ]; then
    echo "== generating $dir (seed 1)" >&2
    rm -rf "$dir.tmp"
    python3 "$peers/gen_corpus.py" --users "$1" --sessions-per-user "$2" --seed 1 --out "$dir.tmp" >&2
    mv "$dir.tmp" "$dir"
  fi
  echo "$dir"
}

# build_trendline: a release build at the root; sets $trendline to its binary.
build_trendline() {
  echo "== building trendline (release)" >&2
  (cd "$root" && swift build -c release 2>&1 | tail -1) >&2
  trendline="$(cd "$root" && swift build -c release --show-bin-path)/trendline"
}

# fresh_work DIR: an empty DIR. An earlier run's outputs (up to millions of files) are moved
# aside now and deleted when the script ends, never just before a measured run: ext4 skips
# inodes freed in the last minutes when it creates files, so a fresh deletion slowed whichever
# run came next several times over.
fresh_work() {
  if [ -d "$1" ]; then mv "$1" "$1.old.$$"; fi
  trap "rm -rf '$1.old.$$'" EXIT
  mkdir -p "$1"
}

# timed NAME DIR COMMAND... : runs COMMAND once under /usr/bin/time -v (its output in
# DIR/NAME.log, the timing in DIR/NAME.time) after a `sync`, so the previous run's write-back is
# not charged to this one; prints "wall s<TAB>peak RSS kB<TAB>CPU s" (CPU = user + system: on a
# shared machine the wall time also counts waits for a core). Exits when COMMAND fails.
timed() {
  local name=$1 dir=$2
  shift 2
  echo "== $name" >&2
  sync
  if ! /usr/bin/time -v -o "$dir/$name.time" "$@" > "$dir/$name.log" 2>&1; then
    echo "error: '$name' failed; see $dir/$name.log" >&2
    tail -5 "$dir/$name.log" >&2
    exit 1
  fi
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + p[i] }
    /Maximum resident set size/ { rss = $2 }
    /User time/ { u = $2 } /System time/ { s = $2 }
    END { printf "%s\t%s\t%s\n", w, rss, u + s }' "$dir/$name.time"
}
