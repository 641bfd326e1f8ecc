#!/usr/bin/env bash
# Tables check (issue 17): DuckDB and pandas, the real libraries, read Trendline's tables with
# the right types unaided, and DuckDB reads a backfill's as_of=<date> folders as a DATE column.
# Installs duckdb and pandas with pip when python3 lacks them. Run by .ci/run.
#
# Usage: Tests/tables-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c 'import duckdb, pandas' 2>/dev/null; then
  echo "== installing duckdb and pandas"
  python3 -m pip install --quiet --disable-pip-version-check duckdb pandas 2>&1 | grep -v "WARNING: Running pip" || true
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# overview.json with "tables" beside json, reading SampleData where the original does.
sed -e 's#"formats": \["json", "svg", "html"\]#"formats": ["json", "tables"]#' \
  -e "s#\"../SampleData/exports\"#\"$PWD/SampleData/exports\"#" Pipelines/overview.json > "$work/tables.json"
grep -q '"tables"' "$work/tables.json" || { echo "tables: could not add \"tables\" to the pipeline"; exit 1; }

echo "== tables: a three-week backfill of SampleData with \"tables\""
swift run -c release trendline run "$work/tables.json" --output "$work/out" --as-of 2026-11-16..2026-11-30 \
  --every week --quiet

python3 - "$work/out" <<'PY'
import sys, duckdb, pandas
out = sys.argv[1]
snapshot = f"{out}/as_of=2026-11-30/tables"
failed = []

def expect(what, got, want):
    if got != want:
        failed.append(f"{what}: got {got}, want {want}")

def duck(path):
    return {row[0]: row[1] for row in duckdb.sql(f"describe select * from '{path}'").fetchall()}

volume = duck(f"{snapshot}/training-volume.csv")
expect("duckdb training-volume", {k: volume[k] for k in ["user", "date", "start", "end", "partial", "elapsed",
       "sessions", "volumeKg", "volumeKgTrend"]},
       {"user": "VARCHAR", "date": "DATE", "start": "TIMESTAMP WITH TIME ZONE", "end": "TIMESTAMP WITH TIME ZONE",
        "partial": "BOOLEAN", "elapsed": "DOUBLE", "sessions": "BIGINT", "volumeKg": "DOUBLE",
        "volumeKgTrend": "DOUBLE"})
cohort = duck(f"{snapshot}/cohort/training-volume.csv")
expect("duckdb cohort", {k: cohort[k] for k in ["date", "n", "active", "activeShare", "volumeKgP50"]},
       {"date": "DATE", "n": "BIGINT", "active": "BIGINT", "activeShare": "DOUBLE", "volumeKgP50": "DOUBLE"})
users = duck(f"{snapshot}/manifest/users.csv")
expect("duckdb users", {k: users[k] for k in ["user", "status", "sessions", "rowsRead"]},
       {"user": "VARCHAR", "status": "VARCHAR", "sessions": "BIGINT", "rowsRead": "BIGINT"})
trends = duck(f"{snapshot}/exercise-trends.csv")
expect("duckdb sparklines", {k: trends[k] for k in ["user", "exercise", "t", "value"]}, {"user": "VARCHAR", "exercise": "VARCHAR", "t": "TIMESTAMP WITH TIME ZONE",
       "value": "DOUBLE"})

frame = pandas.read_csv(f"{snapshot}/training-volume.csv", parse_dates=["start", "end"])
expect("pandas training-volume", {k: str(frame.dtypes[k]) for k in ["user", "partial", "elapsed", "sessions",
       "volumeKg"]}, {"user": "str" if str(frame.dtypes["user"]) == "str" else "object", "partial": "bool",
       "elapsed": "float64", "sessions": "int64", "volumeKg": "float64"})
expect("pandas start", str(frame.dtypes["start"]).startswith("datetime64") and "UTC" in str(frame.dtypes["start"]),
       True)

# Every snapshot's table, as_of read from the folder names.
rows = duckdb.sql(f"""select as_of, count(*) from read_csv('{out}/as_of=*/tables/training-volume.csv',
                      hive_partitioning = true) group by as_of order by as_of""").fetchall()
expect("as_of partitions", [str(r[0]) for r in rows], ["2026-11-16", "2026-11-23", "2026-11-30"])
kind = duckdb.sql(f"""select typeof(as_of) from read_csv('{out}/as_of=*/tables/training-volume.csv',
                      hive_partitioning = true) limit 1""").fetchall()[0][0]
expect("as_of type", kind, "DATE")

if failed:
    print("tables: FAILED\n  " + "\n  ".join(failed))
    sys.exit(1)
print(f"tables: DuckDB {duckdb.__version__} and pandas {pandas.__version__} read every checked column "
      "with its type; as_of partitions read as DATE")
PY
