#!/usr/bin/env python3
"""Rewrites a peer's per-user series outputs (trendline/series@1 rules) to the rules of
trendline/series@2, so that PeerAgreementTests compares Trendline with the peer on every
field, the changed ones included, computed independently here from the peer's own values.

SPEC 11.9: a bucket (or radar period) whose last second is as-of is finished, not partial:
a Sunday-first week ending on a Saturday as-of is complete. The peer marks the period holding
as-of partial whatever its end.

SPEC 10.6: the partial bucket (as-of's) is no input of a trend or of the average. A trend value
is the centred mean (window 5, radius 2, shrinking at the edges) of the complete buckets' values
in its window; the partial bucket still gets one; none when its window holds no complete
bucket. The average is the mean over complete buckets; none without one. Values, bucket edges,
bars, the domain and radar outputs follow the same rules as before and are left as they are.

    python3 peer-rules-v2.py PEER_DIR OUT_DIR
"""
import datetime
import json
import pathlib
import sys


def finished(period, as_of):
    """Whether as-of is the period's last second (SPEC 11.9)."""
    end = datetime.datetime.fromisoformat(period["end"])
    return end - datetime.timedelta(seconds=1) <= datetime.datetime.fromisoformat(as_of)


def settle_partial(periods, as_of):
    for period in periods:
        if period.get("partial") and finished(period, as_of):
            period["partial"] = False


def rewrite(series):
    series["schema"] = "trendline/series@2"
    buckets = series["buckets"]
    settle_partial(buckets, series["asOf"])
    measures = series["measures"]
    for index, bucket in enumerate(buckets):
        if "trend" not in bucket:
            continue
        trend = {}
        for measure in measures:
            window = [
                other["values"][measure]
                for other in buckets[max(0, index - 2): index + 3]
                if not other["partial"]
            ]
            trend[measure] = sum(window) / len(window) if window else None
        bucket["trend"] = trend
    average = {}
    for measure in measures:
        complete = [bucket["values"][measure] for bucket in buckets if not bucket["partial"]]
        average[measure] = sum(complete) / len(complete) if complete else None
    series["average"] = average
    return series


def main(source, target):
    for path in sorted(pathlib.Path(source).rglob("*.json")):
        document = json.loads(path.read_text())
        if document.get("schema") == "trendline/series@1":
            document = rewrite(document)
        elif document.get("schema") == "trendline/radar@1":
            settle_partial(document["periods"], document["asOf"])
        out = pathlib.Path(target) / path.relative_to(source)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(document))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
