#!/usr/bin/env python3
"""Writes every sample export of SampleData/ and the expectations that go with them.

    python3 SampleData/make_samples.py          # rewrite the generated files
    python3 SampleData/make_samples.py --check  # exit 1 if any generated file would change

Standard library only, seeded: the same script always writes the same bytes. Every export is
generated here (none is copied from anyone); the variants and quirks follow the real exports
documented in ../../shared/EXPORT-FORMATS.md. It writes

- the exports under exports/ and mapped/, exports/users.csv and mapped/users.csv,
- expected.json: per file rowsRead/Accepted/Rejected/Duplicate/Ignored/Repaired/ValueDropped
  with the line of every rejected, duplicate, ignored, repaired and value-dropped row; per user
  the sessions, the first and last session, the unmapped exercises (against the built-in
  catalog of Resources/catalog.json), and the UTC instants of the DST,
  midnight and date-order sessions,
- the block between the GENERATED markers of README.md (the same facts as tables).

Line numbers count physical lines, line 1 being the header. No file has a quoted field with a
line break in it, so a record is a line everywhere except at the deliberately broken quote
(see README).
"""

import argparse
import hashlib
import json
import os
import random
import re
import sys
import unicodedata
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261129
LB = 0.45359237          # kg per lb, exact (SPEC 3)
FITBOD_LB = 2.20462      # Fitbod divides pounds by this, hence 20.41168092460379 for 45 lb
NNBSP = "\u202f"         # NARROW NO-BREAK SPACE before am/pm in 12-hour Strong exports


# ----------------------------------------------------------------------------------------------
# Model


class St:
    """One set as the user logged it (weight in the file's unit)."""

    def __init__(self, ex, w, reps, kind="normal", dist=None, secs=None, note=""):
        self.ex, self.w, self.reps, self.kind = ex, w, reps, kind
        self.dist, self.secs, self.note = dist, secs, note


class Wo:
    """One workout: naive local start, name, duration in seconds, sets."""

    def __init__(self, start, name, dur, sets, notes=""):
        self.start, self.name, self.dur, self.sets, self.notes = start, name, dur, sets, notes
        self.label = None  # set for workouts the README points at


class Line:
    """One physical line of an export and what ingest must make of it.

    kind: accepted, rejected, duplicate or ignored. An accepted line may also be repaired, or
    have a value dropped (dropped = (column, reason): SPEC 10.2, the row's sets are kept).
    """

    def __init__(self, text, kind="accepted", wo=None, col=None, reason=None, repaired=False, dropped=None):
        self.text, self.kind, self.wo, self.col, self.reason = text, kind, wo, col, reason
        self.repaired, self.dropped = repaired, dropped


def blocks(wo):
    """The workout's sets grouped into consecutive blocks of one exercise."""
    out = []
    for s in wo.sets:
        if out and out[-1][0] == s.ex:
            out[-1][1].append(s)
        else:
            out.append((s.ex, [s]))
    return out


def strong_orders(sets):
    """Strong's Set Order: W rows take no number, D and F take the place of one (EXPORT-FORMATS 1.5)."""
    n, out = 0, []
    for s in sets:
        if s.kind == "warmup":
            out.append("W")
        else:
            n += 1
            out.append({"normal": str(n), "dropset": "D", "failure": "F"}[s.kind])
    return out


def round_to(x, step):
    return round(x / step) * step


def training_days(rng, first, last, weekdays, p):
    d, out = first, []
    while d <= last:
        if d.weekday() in weekdays and rng.random() < p:
            out.append(d)
        d += timedelta(days=1)
    return out


def make_workouts(rng, days, templates, hours, unit, names=None, warmups=True, seconds=True):
    """Workouts on the given days, cycling through the templates, with slow progression.

    templates: [(name, [(exercise, base_kg, reps, sets)])]; base_kg 0 = body weight;
    base_kg None = a timed or distance set described by reps = (distance, seconds).
    """
    out = []
    for i, d in enumerate(days):
        tname, exs = templates[i % len(templates)]
        name = names(rng, d, tname) if names else tname
        h = rng.choice(hours)
        start = datetime(d.year, d.month, d.day, h, rng.randrange(60), rng.randrange(60) if seconds else 0)
        years = (d - days[0]).days / 365.0
        sets = []
        for j, (ex, base, reps, n) in enumerate(exs):
            if base is None:
                dist, secs = reps
                sets.append(St(ex, None, None, dist=dist, secs=secs))
                continue
            kg = base * (1 + 0.08 * years) * rng.uniform(0.97, 1.03)
            w = 0.0 if base == 0 else (round_to(kg / LB, 5) if unit == "lb" else round_to(kg, 2.5))
            if warmups and j == 0 and base > 0:
                for f in (0.4, 0.6):
                    ww = round_to(w * f, 5 if unit == "lb" else 2.5)
                    sets.append(St(ex, ww, 5, "warmup"))
            for k in range(n):
                sets.append(St(ex, w, max(1, reps + rng.choice((-1, 0, 0, 1)) - (k // 2))))
            if base > 0 and j == len(exs) - 1 and rng.random() < 0.15:
                sets.append(St(ex, w, reps + 2, "failure"))
            elif base > 0 and j == len(exs) - 1 and rng.random() < 0.08:
                sets.append(St(ex, round_to(w * 0.7, 5 if unit == "lb" else 2.5), reps, "dropset"))
        dur = rng.randrange(40 * 60, 85 * 60)
        out.append(Wo(start, name, dur, sets))
    return out


def add_special(wos, wo):
    """Puts a hand-made workout in, replacing a generated one on the same local date."""
    wos[:] = [w for w in wos if w.start.date() != wo.start.date()] + [wo]
    wos.sort(key=lambda w: w.start)
    return wo


def num(x):
    """A weight as apps write it bare: 100, 22.5."""
    if x is None:
        return ""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def f1(x):
    """A number with at least one decimal: 100.0, 22.5."""
    return "" if x is None else repr(float(x))


def dur_text(sec, m_unit="m"):
    """Strong's duration text: `2h 38m` (English), `1h 24min` / `35min` (m_unit "min": French, German)."""
    h, m = divmod(sec // 60, 60)
    if h and m:
        return f"{h}h {m}{m_unit}"
    return f"{h}h" if h else f"{m}{m_unit}"


def dur_min(sec):
    return dur_text(sec, "min")


def drop_long_durations(lines, col, text):
    """SPEC 10.2: a stated session duration over 24 h (or negative) is dropped; the rows stay sets."""
    for l in lines:
        if l.kind == "accepted" and l.wo is not None and not 0 <= l.wo.dur <= 24 * 3600:
            l.dropped = (col, f"session duration `{text(l.wo.dur)}` > 24 h (a timer left running): "
                              "the duration is dropped (unknown), the set is kept")


def q(s):
    return '"' + s.replace('"', '""') + '"'


# ----------------------------------------------------------------------------------------------
# Writers: each returns the data lines (Line objects) of one file in file order.


def strong_date(dt, twelve=False):
    if not twelve:
        return dt.strftime("%Y-%m-%d %H:%M:%S")
    h12 = dt.hour % 12 or 12
    ampm = "am" if dt.hour < 12 else "pm"
    return f"{dt:%Y-%m-%d} {h12}:{dt:%M:%S}{NNBSP}{ampm}"


def write_strong_a(wos, twelve=False, no_duration=False, dur=dur_text, reps_f1=False, secs_f1=False,
                   pseudo=None):
    """Variant A (12 columns) or A0 (11 columns, no Duration): `,`, text quoted, numbers bare.

    Also the localized A layouts (French, German): dur writes the duration (`35min`), reps_f1 and
    secs_f1 write `12.0` and `0.0` (German), pseudo(wo, ex) -> [(token, seconds)] rest rows
    (`Ruhezeit`) after an exercise block, ignored.
    """
    lines = []
    for wo in wos:
        first_row = True
        head = [strong_date(wo.start, twelve), q(wo.name)] + ([] if no_duration else [dur(wo.dur)])
        for ex, sets in blocks(wo):
            for s, order in zip(sets, strong_orders(sets)):
                dist = f1(s.dist) if s.dist is not None else "0"
                secs = f1(s.secs or 0) if secs_f1 else str(s.secs or 0)
                note = q(s.note) if s.note or order in ("1", "W") and s is sets[0] else ""
                wnote = q(wo.notes) if first_row else ""
                cols = head + [q(ex), order, f1(s.w) if s.w is not None else "0",
                               f1(s.reps or 0) if reps_f1 else str(s.reps or 0), dist, secs, note, wnote, ""]
                lines.append(Line(",".join(cols), wo=wo))
                first_row = False
            for token, val in (pseudo(wo, ex) if pseudo else []):
                cols = head + [q(ex), token, "0", "0.0" if reps_f1 else "0", "0",
                               f1(val) if secs_f1 else str(val), "", "", ""]
                lines.append(Line(",".join(cols), "ignored", wo, "Set Order", f"pseudo-row `{token}`"))
    return lines


def write_strong_legacy(wos):
    """Strong 2015-2017: 9 columns, weight and distance columns named by their unit (`kg`, `km`),
    no duration, `Set Order` from 0 in each block, `Notes` `""` on every row (EXPORT-FORMATS 9.1)."""
    lines = []
    for wo in wos:
        for ex, sets in blocks(wo):
            for i, s in enumerate(sets):
                cols = [strong_date(wo.start), q(wo.name), q(ex), str(i), f1(s.w or 0.0), str(s.reps or 0),
                        f1(s.dist or 0.0), str(s.secs or 0), q(s.note)]
                lines.append(Line(",".join(cols), wo=wo))
    return lines


def write_strong_b(wos, unit_of, dunit_of):
    """Variant B: `;`, text quoted, numbers bare, Weight Unit and Distance Unit per row, no duration."""
    lines = []
    for wo in wos:
        first_row = True
        for ex, sets in blocks(wo):
            for s, order in zip(sets, strong_orders(sets)):
                timed = s.w is None
                cols = [strong_date(wo.start), q(wo.name), q(ex), order,
                        "" if timed else num(s.w), "" if timed else unit_of(ex),
                        "" if timed else str(s.reps), "",
                        num(s.dist) if s.dist else "", dunit_of(ex) if timed else "",
                        str(s.secs) if s.secs else "0",
                        q(s.note) if (s is sets[0] or s.note) else "", q(wo.notes) if first_row else ""]
                lines.append(Line(";".join(cols), wo=wo))
                first_row = False
    return lines


def write_strong_d(wos):
    """Variant D: like B plus `Workout Duration` last (text)."""
    lines = []
    for wo in wos:
        first_row = True
        for ex, sets in blocks(wo):
            for s, order in zip(sets, strong_orders(sets)):
                timed = s.w is None
                cols = [strong_date(wo.start), q(wo.name), q(ex), order,
                        "" if timed else num(s.w), "" if timed else "kg",
                        "" if timed else str(s.reps), "",
                        num(s.dist) if s.dist else "", "km" if s.dist else "",
                        str(s.secs) if s.secs else "0",
                        q(s.note) if (s is sets[0] or s.note) else "", q(wo.notes) if first_row else "",
                        dur_text(wo.dur)]
                lines.append(Line(";".join(cols), wo=wo))
                first_row = False
    return lines


def write_strong_e(wos, pseudo, renumber):
    """Variant E: `;`, every field quoted, `Workout #`, `Duration (sec)`, `Weight (kg)`.

    pseudo(wo, ex) -> list of ("Note", text) / ("Rest Timer", seconds) rows after the block;
    renumber: workouts whose blocks are written in a rotated order (Set Order not stable).
    """
    lines = []
    for n, wo in enumerate(wos, start=1):
        for ex, sets in blocks(wo):
            orders = strong_orders(sets)
            pairs = list(zip(sets, orders))
            if wo in renumber and len(sets) >= 3 and all(s.kind == "normal" for s in sets):
                # Same sets, set numbers handed out in another order (as real re-exports do).
                pairs = list(zip(sets[-1:] + sets[:-1], orders))
            for s, order in pairs:
                timed = s.w is None
                vals = [str(n), strong_date(wo.start), wo.name, str(wo.dur), ex, order,
                        "" if timed else (s.w if isinstance(s.w, str) else f1(s.w)),
                        "" if timed else str(s.reps), "",
                        f1(s.dist * 1000) if s.dist else "", f1(s.secs) if s.secs else "",
                        s.note, wo.notes if s is wo.sets[0] else ""]
                lines.append(Line(";".join(q(v) for v in vals), wo=wo))
            for kind, val in pseudo(wo, ex):
                vals = [str(n), strong_date(wo.start), wo.name, str(wo.dur), ex, kind, "", "", "", "",
                        f1(val) if kind == "Rest Timer" else "", val if kind == "Note" else "", ""]
                lines.append(Line(";".join(q(v) for v in vals), "ignored", wo,
                                  "Set Order", f"pseudo-row `{kind}`"))
    return lines


def write_strong_f(wos):
    """Variant F: `,`, text quoted, numbers bare, reps `13.0`, Seconds `0.0`, Distance `0`, no notes."""
    lines = []
    for wo in wos:
        for ex, sets in blocks(wo):
            for s, order in zip(sets, strong_orders(sets)):
                cols = [strong_date(wo.start), q(wo.name), dur_text(wo.dur), q(ex), order,
                        f1(s.w or 0.0), f1(s.reps or 0), num(s.dist) if s.dist else "0",
                        f1(s.secs or 0), ""]
                lines.append(Line(",".join(cols), wo=wo))
    return lines


HEVY_COLS = ["title", "start_time", "end_time", "description", "exercise_title", "superset_id",
             "exercise_notes", "set_index", "set_type", "weight_kg", "reps", "distance_km",
             "duration_seconds", "rpe"]


def hevy_time(dt):
    return f"{dt.day} {dt:%b %Y, %H:%M}"


def write_hevy(wos):
    """Hevy: quoted strings, bare numbers, newest workout first, sets in order within one."""
    lines = []
    for wo in sorted(wos, key=lambda w: w.start, reverse=True):
        end = wo.end if hasattr(wo, "end") else wo.start + timedelta(seconds=wo.dur)
        for ex, sets in blocks(wo):
            ss = getattr(wo, "supersets", {}).get(ex, "")
            for i, s in enumerate(sets):
                cols = [q(wo.name), q(hevy_time(wo.start)), q(hevy_time(end)), q(wo.notes),
                        q(ex), str(ss), q(s.note or (sets[0].note if s is not sets[0] else "")),
                        str(i), q(s.kind), num(s.w) if s.w else "", str(s.reps) if s.reps is not None else "",
                        num(s.dist) if s.dist else "",
                        str(s.secs) if s.secs else ("0" if getattr(wo, "zero_secs", False) else ""),
                        num(s.rpe) if getattr(s, "rpe", None) is not None else ""]
                lines.append(Line(",".join(cols), wo=wo))
    return lines


def write_fitnotes(wos, per_row_unit):
    """FitNotes: nothing quoted except Comment (new layout), so a comma in a name splits it."""
    lines = []
    for wo in wos:
        for s in wo.sets:
            cat = CATEGORY[s.ex]
            d = f"{wo.start:%Y-%m-%d}"
            timed = s.w is None
            t = "" if not s.secs else f"{s.secs // 3600}:{s.secs // 60 % 60:02d}:{s.secs % 60:02d}"
            dist = f1(s.dist) if s.dist else ""
            du = "mi" if s.dist else ""
            if getattr(s, "odd_unit", None):   # EXPORT-FORMATS 9.5: `0.0,kg,0:00:00` on a timed row
                dist, du, t = "0.0", s.odd_unit, "0:00:00"
            if per_row_unit:
                unit = "" if timed else ("kgs" if s.ex in KG_EXERCISES else "lbs")
                cols = [d, s.ex, cat, "" if timed else f1(s.w), unit, "" if timed else str(s.reps),
                        dist, du, t, q(s.note)]
            else:
                cols = [d, s.ex, cat, "" if timed else f1(s.w), "" if timed else str(s.reps), dist, du, t]
            lines.append(Line(",".join(cols), wo=wo, repaired="," in s.ex))
    return lines


def write_fitbod(wos):
    """Fitbod: kg floats of pound entries, `+0000`, leading spaces, newest first."""
    lines = []
    for wo in sorted(wos, key=lambda w: w.start, reverse=True):
        for s in wo.sets:
            kg = 0.0 if not s.w else s.w / FITBOD_LB
            mult = MULTIPLIER.get(s.ex, 1.0) if s.w is not None else 0.0
            cols = [f"{wo.start:%Y-%m-%d %H:%M:%S} +0000", s.ex, f" {s.reps or 0}", repr(kg),
                    f1(s.secs or 0), f1(round((s.dist or 0) * 1000, 4)), "0.0", "0.0",
                    "true" if s.kind == "warmup" else "false", "", f" {mult}"]
            lines.append(Line(",".join(cols), wo=wo))
    return lines


# ----------------------------------------------------------------------------------------------
# Users

CATEGORY = {
    "Flat Barbell Bench Press": "Chest", "Incline Dumbbell Press": "Chest", "Barbell Squat": "Legs",
    "Deadlift": "Back", "Barbell Row": "Back", "Lat Pulldown": "Back", "Overhead Press": "Shoulders",
    "Overhead Press (Each Side, Dumbbells)": "Shoulders", "Lateral Dumbbell Raise": "Shoulders",
    "Dumbbell Curl": "Biceps", "Rope Push Down": "Triceps", "Kettlebell Swing": "Legs",
    "Running": "Cardio", "Side Plank": "Abs",
}
KG_EXERCISES = {"Kettlebell Swing"}
MULTIPLIER = {"Dumbbell Front Raise": 2.0, "Dumbbell Bicep Curl": 2.0, "Dumbbell Lunge": 4.0}

# User-invented names no catalog can know; they must be reported in unmappedExercises.
UNMAPPED = {"Grandpa's Farm Carry Complex", "Rehab Band Routine", "Coach Mike Special", "Finisher Circuit B"}
SET_LEVEL_IDS = {"Sandsack tragen"}   # not in the catalog, but lena's sets carry muscleGroupIds


class Out:
    """Everything one run writes, plus the facts the README and expected.json report."""

    def __init__(self):
        self.files = {}      # relative path -> (bytes, lines, meta)
        self.users = {}      # user -> dict
        self.specials = []   # (user, file, label, local text, expected UTC, rule)

    def add(self, user, rel, header, lines, final_newline, fmt, note="", eol="\n"):
        body = eol.join([header] + [l.text for l in lines]) + (eol if final_newline else "")
        self.files[rel] = (body.encode("utf-8"), lines, {"user": user, "format": fmt, "note": note,
                                                          "header": True})
        self.users.setdefault(user, {"files": []})["files"].append(rel)

    def add_raw(self, user, rel, data, lines, fmt, note=""):
        self.files[rel] = (data, lines, {"user": user, "format": fmt, "note": note, "header": False})
        self.users.setdefault(user, {"files": []})["files"].append(rel)


def utc_of_local(naive, zone):
    """SPEC 2: a local time in a gap moves forward by the gap; an ambiguous one is the earlier."""
    z = ZoneInfo(zone)
    return naive.replace(tzinfo=z, fold=0).astimezone(timezone.utc)


def local_end(start_utc, end_naive, zone):
    """SPEC 9.6: the earliest instant with that local time that is not before the start."""
    z = ZoneInfo(zone)
    cands = sorted({end_naive.replace(tzinfo=z, fold=f).astimezone(timezone.utc) for f in (0, 1)})
    cands = [c for c in cands if c.astimezone(z).replace(tzinfo=None) == end_naive] or cands
    return next(c for c in cands if c >= start_utc)


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def gen_ingrid(o, rng):
    """Europe/Oslo, kg. Two overlapping Strong exports: D (2026-03-01) and E (2026-11-28)."""
    tpl = [("Styrke A", [("Squat (Barbell)", 80, 5, 3), ("Bench Press (Barbell)", 50, 6, 3),
                         ("Bent Over Row (Barbell)", 45, 8, 3), ("Plank", None, (None, 60), 1)]),
           ("Styrke B", [("Deadlift (Barbell)", 100, 4, 3), ("Overhead Press (Barbell)", 32.5, 6, 3),
                         ("Lat Pulldown (Cable)", 45, 10, 3), ("Grandpa's Farm Carry Complex", 50, 6, 2)]),
           ("Styrke C", [("Front Squat (Barbell)", 60, 5, 3), ("Incline Bench Press (Dumbbell)", 16, 10, 3),
                         ("Seated Row (Cable)", 45, 10, 3), ("Lateral Raise (Dumbbell)", 6, 12, 3)])]
    days = training_days(rng, date(2025, 6, 2), date(2026, 11, 27), {0, 3}, 0.6)
    wos = make_workouts(rng, days, tpl, [6, 7, 17, 18], "kg")
    # Local midnight, and the Oslo fall-back overlap (02:30 happens twice) and spring-forward gap.
    sp = [Wo(datetime(2025, 10, 26, 2, 30, 0), "Søndagsøkt", 2700, []),
          Wo(datetime(2026, 1, 1, 0, 0, 0), "Nyttårsøkt", 3000, []),
          Wo(datetime(2026, 3, 29, 2, 30, 0), "Natteøkt", 2400, []),
          Wo(datetime(2026, 11, 28, 9, 30, 0), "Helgeøkt", 3900, [])]
    for w, label in zip(sp, ["DST overlap (02:30 twice)", "local midnight", "DST gap (02:00-03:00 missing)", "last session"]):
        w.sets = [St("Squat (Barbell)", 70.0, 5, "warmup"), St("Squat (Barbell)", 90.0, 5), St("Squat (Barbell)", 90.0, 5),
                  St("Squat (Barbell)", 90.0, 4), St("Bench Press (Barbell)", 52.5, 6), St("Bench Press (Barbell)", 52.5, 6),
                  St("Bench Press (Barbell)", 52.5, 5)]
        w.label = label
        add_special(wos, w)
    # Warm-ups, a drop set, a failure set, timed set and a float artifact in one late workout.
    late = [w for w in wos if w.start.date() == date(2026, 11, 26)] or [wos[-2]]
    late = late[0]
    late.label = "W/D/F set orders"
    late.sets = [St("Deadlift (Barbell)", 60.0, 5, "warmup"), St("Deadlift (Barbell)", 90.0, 3, "warmup"),
                 St("Deadlift (Barbell)", 120.0, 3), St("Deadlift (Barbell)", 120.0, 3), St("Deadlift (Barbell)", 120.0, 3),
                 St("Lat Pulldown (Cable)", 50.0, 10), St("Lat Pulldown (Cable)", 35.0, 12, "dropset"),
                 St("Lat Pulldown (Cable)", 50.0, 8),
                 St("Lateral Raise (Dumbbell)", "12.900000000000034", 12), St("Lateral Raise (Dumbbell)", 8.0, 14, "failure"),
                 St("Plank", None, None, secs=75)]
    # The workout whose sets Strong numbers differently in the two exports.
    renum = [w for w in wos if date(2025, 11, 10) <= w.start.date() <= date(2025, 11, 30)
             and any(len([s for s in ss if s.kind == "normal"]) >= 3 for _, ss in blocks(w))][0]
    renum.label = "Set Order renumbered between exports"
    for _, ss in blocks(renum):
        for k, s in enumerate(ss):
            if s.kind == "normal":
                s.reps = [13, 16, 17, 12, 11][k % 5] if s.ex != "Plank" else s.reps
    d_only = Wo(datetime(2025, 12, 24, 10, 0, 0), "Julaften", 2100,
                [St("Hip Thrust (Barbell)", 80.0, 10), St("Hip Thrust (Barbell)", 80.0, 10),
                 St("Hip Thrust (Barbell)", 80.0, 9), St("Push Up", 0.0, 20)])
    d_only.label = "only in the older export (deleted in the app later)"

    d_wos = sorted([w for w in wos if w.start <= datetime(2026, 3, 1)] + [d_only], key=lambda w: w.start)
    e_wos = wos
    # Strong E: Note and Rest Timer rows on the last few workouts (not sets: ignored).
    notes_on = {id(w) for w in e_wos[-6:]}

    def pseudo(wo, ex):
        if id(wo) not in notes_on:
            return []
        out = []
        if ex in ("Squat (Barbell)", "Deadlift (Barbell)"):
            out.append(("Note", "Belte på siste sett"))
        if ex != "Plank":
            out.append(("Rest Timer", 120))
        return out

    e_lines = write_strong_e(e_wos, pseudo, {renum})
    d_lines = write_strong_d(d_wos)
    e_keys = {id(w) for w in e_wos}
    for l in d_lines:
        if id(l.wo) in e_keys:
            l.kind, l.reason = "duplicate", "session also in the newer export strong_2026-11-28.csv"
    hd = "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes;Workout Duration"
    he = '"Workout #";"Date";"Workout Name";"Duration (sec)";"Exercise Name";"Set Order";"Weight (kg)";"Reps";"RPE";"Distance (meters)";"Seconds";"Notes";"Workout Notes"'
    o.add("ingrid", "exports/ingrid/strong_2026-03-01.csv", hd, d_lines, True, "Strong D",
          "older export; every session but one is also in the newer export")
    o.add("ingrid", "exports/ingrid/strong_2026-11-28.csv", he, e_lines, False, "Strong E",
          "newer export, wins every shared session; pseudo-rows; W/D/F")
    for w in sp[:3]:
        o.specials.append(("ingrid", "Europe/Oslo", w.label, strong_date(w.start), iso(utc_of_local(w.start, "Europe/Oslo"))))
    o.users["ingrid"]["overlap"] = (renum, d_only)
    return wos + [d_only]


def gen_ethan(o, rng):
    """America/New_York, lb, Sunday. A0 (2024-06 .. 2025-05) then A with 12-hour times."""
    tpl = [("Push Day", [("Bench Press (Barbell)", 85, 5, 3), ("Overhead Press (Barbell)", 50, 6, 3),
                         ("Triceps Pushdown (Cable - Straight Bar)", 25, 12, 3)]),
           ("Pull Day", [("Deadlift (Barbell)", 140, 3, 3), ("Pull Up", 0, 8, 3), ("Bicep Curl (Dumbbell)", 14, 10, 3)]),
           ("Leg Day", [("Squat (Barbell)", 115, 5, 3), ("Romanian Deadlift (Barbell)", 90, 8, 3),
                        ("Leg Press", 160, 10, 2), ("Standing Calf Raise (Machine)", 70, 12, 2)])]
    d1 = training_days(rng, date(2024, 6, 2), date(2025, 5, 29), {6, 2}, 0.5)
    w1 = make_workouts(rng, d1, tpl, [6, 18, 19], "lb")
    # Float artifacts of the app's own unit conversion (as albTian's lb export).
    w1[3].sets[2].w = "149.99999999999997"
    w1[5].sets[3].w = "245.00000000000003"
    d2 = training_days(rng, date(2025, 6, 1), date(2026, 11, 25), {6, 2}, 0.5)
    w2 = make_workouts(rng, d2, tpl, [6, 7, 12, 18, 19], "lb")
    sp = [(datetime(2025, 7, 4, 12, 15, 0), "Independence Day Lift", "12-hour noon (12:15 pm)"),
          (datetime(2025, 11, 2, 1, 30, 0), "Late Night Lift", "DST overlap (1:30 am twice)"),
          (datetime(2026, 1, 1, 0, 0, 0), "New Year Lift", "local midnight written 12:00:00 am"),
          (datetime(2026, 3, 8, 2, 30, 0), "Night Owl Lift", "DST gap (2:00-3:00 am missing)"),
          (datetime(2026, 11, 27, 7, 5, 9), "Black Friday Lift", "last session")]
    for dt, name, label in sp:
        w = Wo(dt, name, 3120, [St("Squat (Barbell)", 135.0, 5, "warmup"), St("Squat (Barbell)", 225.0, 5),
                                St("Squat (Barbell)", 225.0, 5), St("Bench Press (Barbell)", 185.0, 5),
                                St("Bench Press (Barbell)", 185.0, 5)])
        w.label = label
        add_special(w2, w)
        if label != "last session":
            o.specials.append(("ethan", "America/New_York", label, strong_date(dt, True).replace(NNBSP, "\\u202F"),
                               iso(utc_of_local(dt, "America/New_York"))))
    l1 = write_strong_a(w1, no_duration=True)
    # Bad rows, each in place of one good row.
    i = next(k for k, l in enumerate(l1) if l.wo.start.date() >= date(2024, 10, 1) and ",\"Bench Press" in l.text and ",2," in l.text)
    cols = l1[i].text.split(",")
    cols[0] = "1969-05-01 07:00:00"
    l1[i] = Line(",".join(cols), "rejected", None, "Date", "start before 1970 (1969-05-01 07:00:00)")
    j = next(k for k, l in enumerate(l1) if l.wo and l.wo.start.date() >= date(2025, 2, 1) and ",\"Overhead Press" in l.text and ",2," in l.text)
    cols = l1[j].text.split(",")
    broken = ",".join(cols[:8]) + ",\"2 sec pause,,"
    assert l1[j + 1].wo is l1[j].wo and l1[j + 1].text.split(",")[1].startswith('"')
    l1[j] = Line(broken, "rejected", None, "Notes",
                 "malformed CSV: quoted field opened in Notes is never closed on its line; "
                 "the next quote (line %d, before the workout name) ends it and is followed by a letter. "
                 "The record of this line is rejected; reading resumes at the next line" )
    l1[j].reason = l1[j].reason % (j + 3)
    ha0 = "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"
    ha = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"
    o.add("ethan", "exports/ethan/strong_2025-05-31.csv", ha0, l1, True, "Strong A0",
          "11 columns, no duration; two bad rows")
    o.add("ethan", "exports/ethan/strong_2026-11-28.csv", ha, write_strong_a(w2, twelve=True), True,
          "Strong A, 12-hour", "times as `6:41:07\u202fpm` (U+202F before lower-case am/pm)")
    return w1 + w2


def gen_sofia(o, rng):
    """America/Santiago, kg (some dumbbells in lbs), Strong B."""
    tpl = [("Entrenamiento A", [("Squat (Barbell)", 60, 6, 3), ("Bench Press (Barbell)", 40, 8, 3),
                                ("Bicep Curl (Dumbbell)", 20 * LB, 10, 3), ("Plank", None, (None, 45), 1)]),
           ("Entrenamiento B", [("Deadlift (Barbell)", 75, 5, 3), ("Lat Pulldown (Cable)", 35, 10, 3),
                                ("Running", None, (3.0, 1200), 1)]),
           ("Funcional", [("Rehab Band Routine", 0, 8, 3), ("Hip Thrust (Barbell)", 70, 10, 3), ("Running", None, (5.0, 1740), 1)])]
    days = training_days(rng, date(2024, 9, 3), date(2026, 11, 26), {1, 5}, 0.45)
    wos = make_workouts(rng, days, tpl, [7, 8, 19, 20], "kg")
    for w in wos:  # her gym's dumbbells are in pounds
        for s in w.sets:
            if s.ex == "Bicep Curl (Dumbbell)":
                s.w = round_to(s.w / LB, 5)
    mid = Wo(datetime(2026, 9, 6, 0, 0, 0), "Medianoche", 2400,
             [St("Squat (Barbell)", 70.0, 5), St("Squat (Barbell)", 70.0, 5), St("Running", None, None, dist=2.0, secs=780)])
    mid.label = "local midnight inside the DST gap (00:00-01:00 missing)"
    add_special(wos, mid)
    o.specials.append(("sofia", "America/Santiago", mid.label, strong_date(mid.start), iso(utc_of_local(mid.start, "America/Santiago"))))
    lines = write_strong_b(wos, lambda ex: "lbs" if "Dumbbell" in ex else "kg",
                           lambda ex: "km" if ex == "Running" else "mi.")
    i = next(k for k, l in enumerate(lines) if l.wo.start.date() >= date(2025, 8, 1) and '"Lat Pulldown (Cable)";2;' in l.text)
    cols = lines[i].text.split(";")
    cols[6] = "abc"
    lines[i] = Line(";".join(cols), "rejected", None, "Reps", "not a number: `abc`")
    hb = "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes"
    o.add("sofia", "exports/sofia.csv", hb, lines, True, "Strong B",
          "`Weight Unit` kg/lbs, `Distance Unit` km/`mi.`, no duration")
    return wos


def gen_kenji(o, rng):
    """Asia/Tokyo, kg, Sunday. Strong F, Japanese workout names."""
    tpl = [("Push", [("Bench Press (Barbell)", 70, 8, 3), ("Coach Mike Special", 25, 10, 3), ("Triceps Extension (Dumbbell)", 12, 12, 2)]),
           ("Pull", [("Deadlift (Barbell)", 120, 5, 3), ("Lat Pulldown (Cable)", 55, 10, 3), ("Hammer Curl (Dumbbell)", 14, 10, 2)]),
           ("Legs", [("Squat (Barbell)", 90, 6, 3), ("Leg Press", 140, 10, 3), ("Seated Row (Cable)", 50, 12, 2)])]
    names = lambda rng, d, t: {6: "早朝ワークアウト"}.get(d.weekday(), "午後ワークアウト") if t != "Legs" else "脚の日"
    days = training_days(rng, date(2025, 1, 5), date(2026, 11, 25), {6, 2, 4}, 0.35)
    wos = make_workouts(rng, days, tpl, [6, 13, 14, 20], "kg", names=names)
    last = Wo(datetime(2026, 11, 28, 6, 12, 40), "早朝ワークアウト", 2880,
              [St("Bench Press (Barbell)", 80.0, 8), St("Bench Press (Barbell)", 80.0, 8), St("Bench Press (Barbell)", 80.0, 7),
               St("Coach Mike Special", 30.0, 10), St("Coach Mike Special", 30.0, 10)])
    last.label = "last session"
    add_special(wos, last)
    lines = write_strong_f(wos)
    i = next(k for k, l in enumerate(lines) if l.wo.start.date() >= date(2026, 2, 1) and '"Leg Press",2,' in l.text)
    lines.insert(i + 1, Line(lines[i].text, "duplicate", lines[i].wo, "Set Order",
                             "repeats line %d (same session, same exercise block, Set Order 2, same values)" % (i + 2)))
    hf = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,RPE"
    o.add("kenji", "exports/kenji.csv", hf, lines, False, "Strong F",
          "reps `8.0`, no trailing newline, one row exported twice")
    return wos


def gen_lena(o, rng):
    """Native JSON with its own `timeZone` (Europe/Berlin) and `weightUnit`; German names, NFC and NFD."""
    tpl = [("Oberkörper", [("Bankdrücken", 45, 8, 3), ("Klimmzüge", 0, 6, 3), ("Schulterdrücken", 30, 8, 3)]),
           ("Unterkörper", [("Kniebeuge", 70, 6, 3), ("Kreuzheben", 90, 5, 2), ("Rückenstrecker", 10, 12, 2)]),
           ("Ganzkörper", [("Kniebeuge", 65, 8, 2), ("Bankdrücken", 42.5, 10, 2), ("Sandsack tragen", 30, 1, 2),
                           ("Plank", None, (None, 60), 1)])]
    days = training_days(rng, date(2025, 11, 3), date(2026, 11, 25), {0, 3}, 0.7)
    wos = make_workouts(rng, days, tpl, [7, 18, 19], "kg")
    sessions, lines, n_nfd = [], [], 0
    for k, w in enumerate(wos):
        sets = []
        for ex, ss in blocks(w):
            for s in ss:
                name = ex
                if ex == "Rückenstrecker" and k % 2:
                    name = unicodedata.normalize("NFD", ex)  # the same name, decomposed (u + U+0308)
                    n_nfd += 1
                d = {"exercise": name, "weight": s.w if s.w is not None else 0, "reps": s.reps or 0}
                if s.kind != "normal":
                    d["type"] = s.kind
                if s.secs:
                    d["seconds"] = s.secs
                if ex == "Sandsack tragen":
                    d["muscleGroupIds"] = [27, 5, 24]   # not in the catalog, mapped by the set
                sets.append(d)
        start = w.start.strftime("%Y-%m-%dT%H:%M:%S")
        if k % 3 == 0:   # some starts carry their own offset
            start = utc_of_local(w.start, "Europe/Berlin").astimezone(ZoneInfo("Europe/Berlin")).isoformat()
        if k % 7 == 0:
            start = iso(utc_of_local(w.start, "Europe/Berlin"))
        sessions.append({"id": "lena-%03d" % (k + 1), "start": start, "durationSeconds": w.dur,
                         "name": w.name, "sets": sets})
    assert n_nfd > 0
    # Pretty enough to diff: one session per line.
    body = '{"timeZone": "Europe/Berlin", "weightUnit": "kg", "sessions": [\n' + ",\n".join(
        json.dumps(s, ensure_ascii=False) for s in sessions) + "\n]}\n"
    rows = [Line("", wo=w) for w in wos for s in w.sets]
    o.add_raw("lena", "exports/lena.json", body.encode("utf-8"), rows, "native JSON",
              "file states timeZone Europe/Berlin (users.csv leaves it blank); `Rückenstrecker` in NFC and NFD")
    return wos


def gen_noah(o, rng):
    """NDJSON, Australia/Sydney, kg; one impossible reps value and one truncated line."""
    tpl = [("Upper", [("Bench Press (Barbell)", 75, 8, 3), ("Pull Up", 0, 8, 3), ("Dumbbell Row", 30, 10, 3)]),
           ("Lower", [("squat (barbell)", 100, 5, 3), ("Romanian Deadlift (Barbell)", 90, 8, 3), ("Hip Thrust (Barbell)", 100, 10, 2)]),
           ("Full", [("Deadlift (Barbell)", 140, 3, 3), ("Overhead Press (Barbell)", 50, 6, 3)])]
    days = training_days(rng, date(2026, 2, 3), date(2026, 11, 26), {1, 4, 6}, 0.35)
    wos = make_workouts(rng, days, tpl, [5, 6, 17], "kg")
    gap = Wo(datetime(2026, 10, 4, 2, 30, 0), "Insomnia session", 1800,
             [St("Bench Press (Barbell)", 80.0, 5), St("Bench Press (Barbell)", 80.0, 5)])
    gap.label = "DST gap (02:00-03:00 missing)"
    add_special(wos, gap)
    last = Wo(datetime(2026, 11, 28, 17, 45, 0), "Upper", 3600,
              [St("Bench Press (Barbell)", 82.5, 6), St("Bench Press (Barbell)", 82.5, 6), St("Pull Up", 0.0, 10)])
    add_special(wos, last)
    o.specials.append(("noah", "Australia/Sydney", gap.label, gap.start.strftime("%Y-%m-%dT%H:%M:%S"),
                       iso(utc_of_local(gap.start, "Australia/Sydney"))))
    lines = []
    for k, w in enumerate(wos):
        for ex, ss in blocks(w):
            for i, s in enumerate(ss, start=1):
                d = {"session": "noah-%03d" % (k + 1), "start": w.start.strftime("%Y-%m-%dT%H:%M:%S"),
                     "durationSeconds": w.dur, "name": w.name, "exercise": ex, "weight": s.w, "reps": s.reps,
                     "type": s.kind, "index": i}
                lines.append(Line(json.dumps(d, ensure_ascii=False), wo=w))
    i = next(k for k, l in enumerate(lines) if l.wo.start.date() >= date(2026, 6, 1) and '"Pull Up"' in l.text and '"index": 2' in l.text)
    lines[i].text = lines[i].text.replace(re_reps(lines[i].text), '"reps": 5000')
    lines[i].kind, lines[i].col, lines[i].reason = "rejected", "reps", "impossible: 5000 reps (> 1000)"
    j = next(k for k, l in enumerate(lines) if l.wo.start.date() >= date(2026, 8, 1) and '"Deadlift (Barbell)"' in l.text and '"index": 3' in l.text)
    t = lines[j].text
    lines[j] = Line(t[: t.index('"reps"') + 8], "rejected", None, None,
                    "malformed JSON: the line ends inside the object (truncated after `\"reps\": `)")
    data = ("\n".join(l.text for l in lines) + "\n").encode("utf-8")
    o.add_raw("noah", "exports/noah.ndjson", data, lines, "NDJSON", "one set per line, no header")
    return wos


def re_reps(text):
    a = text.index('"reps": ')
    b = text.index(",", a)
    return text[a:b]


def gen_mason(o, rng):
    """Hevy, lbs + miles, America/Chicago, Sunday; emoji, `\\n` escapes, <script> title, -20 lb."""
    tpl = [("Upper Power 💪", [("Bench Press (Barbell)", 90, 5, 3), ("Lat Pulldown (Cable)", 60, 8, 3),
                              ("Lateral Raise (Dumbbell)", 9, 12, 3), ("Triceps Rope Pushdown", 25, 12, 3)]),
           ("Leg day 🦵", [("Squat (Barbell)", 120, 5, 3), ("Seated Leg Curl (Machine)", 45, 10, 3),
                          ("Leg Extension (Machine)", 55, 12, 3), ("Finisher Circuit B", 90, 1, 2)]),
           ("Morning workout ☀️", [("Running", None, (3.1, 1860), 1), ("Pull Up", 0, 8, 3), ("Hip Thrust (Barbell)", 110, 8, 3)])]
    days = training_days(rng, date(2025, 3, 3), date(2026, 11, 26), {0, 3, 5}, 0.3)
    wos = make_workouts(rng, days, tpl, [6, 7, 17, 18], "lb", seconds=False)
    for w in wos:
        for s in w.sets:
            if s.dist:
                s.reps = None
        if w.name.startswith("Upper") and w.start.month % 3 == 0:
            w.supersets = {"Lateral Raise (Dumbbell)": 0, "Triceps Rope Pushdown": 0}
    xss = Wo(datetime(2026, 11, 24, 18, 5), "<script>alert(1)</script>", 3300,
             [St("Bench Press (Barbell)", 135.0, 10, "warmup"), St("Bench Press (Barbell)", 205.0, 5),
              St("Bench Press (Barbell)", 205.0, 5), St("Bench Press (Barbell)", 205.0, 4, "failure"),
              St("Triceps Rope Pushdown", 60.0, 12), St("Triceps Rope Pushdown", 40.0, 15, "dropset")])
    xss.label = "workout name is literally <script>alert(1)</script>"
    xss.notes = "Deload week 😴 – <b>not</b> bold"
    add_special(wos, xss)
    note = Wo(datetime(2026, 11, 28, 8, 40), "Morning workout ☀️", 3900,
              [St("Squat (Barbell)", 135.0, 5, "warmup", note="Belt on top sets\\nknees out, brace first"),
               St("Squat (Barbell)", 275.0, 5), St("Squat (Barbell)", 275.0, 5), St("Squat (Barbell)", 275.0, 5),
               St("Finisher Circuit B", 180.0, 1, dist=0.03)])
    note.label = "last session; `\\n` two-character escape in exercise_notes"
    add_special(wos, note)
    dst = Wo(datetime(2025, 11, 2, 1, 30), "Can't sleep", 0,
             [St("Bench Press (Barbell)", 185.0, 5), St("Bench Press (Barbell)", 185.0, 5)])
    dst.end = datetime(2025, 11, 2, 1, 10)
    dst.label = "DST overlap: start 01:30 (earlier, CDT), end 01:10 (CST, after the start)"
    add_special(wos, dst)
    s_utc = utc_of_local(dst.start, "America/Chicago")
    e_utc = local_end(s_utc, dst.end, "America/Chicago")
    o.specials.append(("mason", "America/Chicago", dst.label, "2 Nov 2025, 01:30 → 2 Nov 2025, 01:10",
                       f"{iso(s_utc)}, duration {int((e_utc - s_utc).total_seconds())} s"))
    lines = write_hevy(wos)
    i = next(k for k, l in enumerate(lines) if l.wo.start.date() <= date(2026, 5, 1) and '"Hip Thrust (Barbell)",,"",1,' in l.text)
    cols = lines[i].text.split(",")
    # weight_lbs is column 10; titles may hold commas, but these do not
    assert len(cols) == 16
    cols[11] = "-20"   # 16 pieces: start_time and end_time each hold one comma
    lines[i] = Line(",".join(cols), "rejected", None, "weight_lbs", "impossible: negative weight -20 lb")
    h = ",".join(q(c.replace("weight_kg", "weight_lbs").replace("distance_km", "distance_miles")) for c in HEVY_COLS)
    o.add("mason", "exports/mason.csv", h, lines, False, "Hevy lbs+miles", "newest first, no trailing newline")
    return wos


def gen_tom(o, rng):
    """FitNotes, lbs; old header-unit file, then the per-row-unit file with Comment. Stops 2026-06."""
    tpl = [("", [("Flat Barbell Bench Press", 80, 6, 3), ("Incline Dumbbell Press", 24, 10, 3), ("Rope Push Down", 22, 12, 3)]),
           ("", [("Barbell Squat", 100, 5, 3), ("Deadlift", 130, 3, 2), ("Running", None, (2.0, 1170), 1)]),
           ("", [("Overhead Press", 45, 6, 3), ("Barbell Row", 65, 8, 3), ("Lat Pulldown", 55, 10, 3),
                 ("Dumbbell Curl", 14, 10, 2), ("Lateral Dumbbell Raise", 9, 12, 2)])]
    d1 = training_days(rng, date(2024, 6, 4), date(2025, 1, 31), {1, 4}, 0.7)
    w1 = make_workouts(rng, d1, tpl, [12], "lb", warmups=False)
    tpl2 = tpl[:2] + [("", [("Barbell Row", 65, 8, 3), ("Overhead Press (Each Side, Dumbbells)", 20, 8, 2),
                            ("Kettlebell Swing", 24, 15, 3), ("Lateral Dumbbell Raise", 9, 12, 2)])]
    d2 = training_days(rng, date(2025, 2, 4), date(2026, 6, 19), {1, 4}, 0.7)
    w2 = make_workouts(rng, d2, tpl2, [12], "lb", warmups=True)
    # Only two sessions keep the comma-named exercise (the rest renamed it).
    comma = [w for w in w2 if any("," in s.ex for s in w.sets)]
    for w in comma[1:]:
        for s in w.sets:
            if "," in s.ex:
                s.ex = "Lateral Dumbbell Raise"
    comma[0].label = "exercise name with an unquoted comma (2 rows, repaired)"
    for w in w2:
        for s in w.sets:
            if s.ex == "Kettlebell Swing":
                s.w = 24.0 if w.start.year == 2025 else 28.0   # logged in kgs
            if s.kind == "warmup":
                s.note, s.kind = "warm up", "normal"      # FitNotes has no set types, only a comment
    last = [w for w in w2 if w.start.date() <= date(2026, 6, 20)][-1]
    last.label = "last session (months before as-of)"
    for w in w1 + w2:
        w.name, w.dur = "", 0
        w.start = datetime(w.start.year, w.start.month, w.start.day)   # FitNotes knows dates only
    # EXPORT-FORMATS 9.5: a timed row whose empty distance carries the unit `kg`: a set, unit ignored.
    odd = next(w for w in w1 if w.start.date() >= date(2024, 10, 1))
    side = St("Side Plank", None, None)
    side.odd_unit = "kg"
    odd.sets.append(side)
    odd.label = "`Side Plank` row `,,,0.0,kg,0:00:00` (a unit on an empty distance)"
    h1 = "Date,Exercise,Category,Weight (lbs),Reps,Distance,Distance Unit,Time"
    h2 = "Date,Exercise,Category,Weight,Weight Unit,Reps,Distance,Distance Unit,Time,Comment"
    o.add("tom", "exports/tom/FitNotes_Export_2025_02_01.csv", h1, write_fitnotes(w1, False), False,
          "FitNotes (header unit)", "`Weight (lbs)` header, no Comment")
    o.add("tom", "exports/tom/FitNotes_Export_2026_06_21.csv", h2, write_fitnotes(w2, True), False,
          "FitNotes (row unit)", "`Weight Unit` kgs/lbs per row, quoted Comment, unquoted commas")
    return w1 + w2


def gen_sam(o, rng):
    """Fitbod, users.csv all blank (UTC, kg). Pound entries become kg floats; blank lines."""
    tpl = [("", [("Barbell Bench Press", 60, 8, 3), ("Dumbbell Front Raise", 8, 10, 3), ("Dumbbell Bicep Curl", 12, 10, 3)]),
           ("", [("Barbell Squat", 80, 6, 3), ("Dumbbell Lunge", 14, 10, 2), ("Plank", None, (None, 55), 1)]),
           ("", [("Deadlift", 100, 5, 3), ("V-Bar Pulldown", 55, 8, 3), ("Cable Row", 50, 10, 3), ("Walking", None, (2.5429464, 2765), 1)])]
    days = training_days(rng, date(2025, 8, 4), date(2026, 11, 20), {0, 2, 4}, 0.35)
    wos = make_workouts(rng, days, tpl, [6, 12, 17, 22], "lb")
    lines = write_fitbod(wos)
    out, blanks = [], {7: 1, 30: 2, 95: 1, 160: 1}   # blank lines after these data rows (two after 30)
    for k, l in enumerate(lines):
        out.append(l)
        for _ in range(blanks.get(k, 0)):
            out.append(Line("", "ignored", None, None, "blank line"))
    hf = "Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier"
    o.add("sam", "exports/sam.csv", hf, out, True, "Fitbod", "newest first, blank lines, `+0000`")
    return wos


def gen_uma(o, rng):
    """One session only, native JSON in pounds with an explicit offset; not in users.csv."""
    w = Wo(datetime(2026, 11, 28, 7, 30), "Glute day", 3000,
           [St("Hip Thrust (Barbell)", 135, 10, "warmup"), St("Hip Thrust (Barbell)", 185, 10), St("Hip Thrust (Barbell)", 185, 10),
            St("Bulgarian Split Squat", 25, 10), St("Bulgarian Split Squat", 25, 10),
            St("Romanian Deadlift (Barbell)", 115, 8), St("Hip Abduction (Machine)", 90, 15)])
    sets = []
    for s in w.sets:
        d = {"exercise": s.ex, "weight": s.w, "reps": s.reps}
        if s.kind != "normal":
            d["type"] = s.kind
        sets.append(d)
    doc = {"weightUnit": "lb", "sessions": [{"id": "2026-11-28-glutes", "start": "2026-11-28T07:30:00-08:00",
                                             "durationSeconds": 3000, "name": "Glute day", "sets": sets}]}
    body = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    o.add_raw("uma", "exports/uma.json", body.encode("utf-8"), [Line("", wo=w) for _ in sets], "native JSON",
              "one session; `weightUnit` lb; start with offset -08:00; no users.csv row")
    w.utc = "2026-11-28T15:30:00Z"
    return [w]


def gen_greta(o, rng):
    """mapped/: a spreadsheet log `day;lift;kg;reps;session`, `29.11.2026 18:30`, decimal commas."""
    tpl = [("Tag A", [("Kniebeuge", 62.5, 6, 3), ("Bankdrücken", 42.5, 8, 3), ("Rudern", 40, 10, 3)]),
           ("Tag B", [("Kreuzheben", 85, 5, 3), ("Schulterdrücken", 27.5, 8, 3), ("Klimmzüge", 0, 5, 3)])]
    days = training_days(rng, date(2026, 6, 1), date(2026, 11, 26), {0, 3}, 0.75)
    wos = make_workouts(rng, days, tpl, [18], "kg", warmups=False, seconds=False)
    last = Wo(datetime(2026, 11, 29, 18, 30), "Tag A", 0,
              [St("Kniebeuge", 72.5, 5), St("Kniebeuge", 72.5, 5), St("Bankdrücken", 47.5, 6)])
    add_special(wos, last)
    lines = []
    for k, w in enumerate(wos):
        for s in w.sets:
            kg = num(s.w).replace(".", ",")
            lines.append(Line(f"{w.start:%d.%m.%Y %H:%M};{s.ex};{kg};{s.reps};{w.name}", wo=w))
    o.add("greta", "mapped/greta.csv", "day;lift;kg;reps;session", lines, True, "mapped CSV",
          "custom layout, see README")
    return wos


# ----------------------------------------------------------------------------------------------
# Users in the layouts of real exports documented in EXPORT-FORMATS, with their quirks
# (alexandros, dakheera), and in the formats of its section 9 (marta, camille, jonas, owen,
# tyler, giulia).


def strong_auto_name(hour):
    """Strong names an unnamed workout by the hour it started."""
    return ("Morning Workout" if hour < 12 else "Midday Workout" if hour < 14
            else "Afternoon Workout" if hour < 17 else "Evening Workout")


def olympic_workout(rng, start, exs, years):
    """A weightlifting session: each lift climbs in a ramp of sets to a top weight (no W rows)."""
    sets = []
    for ex, base, reps, n in exs:
        if base is None:
            sets.append(St(ex, None, None, dist=reps[0], secs=reps[1]))
            continue
        n += rng.choice((0, 1, 1, 2))
        top = base * (1 + 0.10 * years) * rng.uniform(0.96, 1.04)
        for k in range(n):
            if base == 0:
                sets.append(St(ex, 0.0, reps + rng.choice((-2, 0, 0, 2))))
                continue
            f = 0.62 + 0.38 * k / max(1, n - 1)
            r = reps + (1 if k < n // 3 else 0)
            sets.append(St(ex, float(round_to(top * f, 2.5)), r))
    return Wo(start, strong_auto_name(start.hour), rng.randrange(95 * 60, 165 * 60), sets)


def gen_alexandros(o, rng):
    """Strong A, Europe/Athens, kg from users.csv: an Olympic weightlifter, 2020-12-30 .. 2021-09-06,
    two workouts left running (42h 13m, 83h 31m), one swim of distance 1.0."""
    tpl = [[("Snatch (Barbell)", 52, 2, 9), ("Clean and Jerk (Barbell)", 68, 1, 7),
            ("Front Squat (Barbell)", 92, 3, 5), ("Crunch", 0, 20, 2)],
           [("Clean (Barbell)", 75, 2, 7), ("Snatch Pull (Barbell)", 70, 3, 4),
            ("Squat (Pause)", 95, 3, 5), ("Good Morning (Barbell)", 40, 8, 3)],
           [("Power Snatch (Barbell)", 45, 2, 7), ("Split Jerk (Barbell)", 65, 2, 5),
            ("Snatch Balance", 45, 2, 4), ("Overhead Press (Barbell)", 45, 5, 4), ("Push Up", 0, 15, 2)],
           [("Hang Snatch (Barbell)", 45, 2, 6), ("Power Clean", 65, 2, 5), ("Squat (Barbell)", 110, 3, 6),
            ("Aerobics", None, (None, 600), 1)]]
    first, last = date(2020, 12, 30), date(2021, 9, 6)
    days = training_days(rng, first, last, {0, 2, 4}, 0.8)
    days = sorted(set(days) | {first, last})
    wos = []
    for i, d in enumerate(days):
        h = rng.choice((13, 14, 17, 18, 18, 18, 19, 20))
        start = datetime(d.year, d.month, d.day, h, rng.randrange(60), rng.randrange(60))
        wos.append(olympic_workout(rng, start, tpl[i % len(tpl)], (d - first).days / 365.0))
    swim = Wo(datetime(2021, 5, 16, 12, 0, 0), "Midday Workout", 35 * 60,
              [St("Swimming", None, None, dist=1.0, secs=1860)])
    swim.label = "`Swimming`, distance `1.0` (km: users.csv)"
    add_special(wos, swim)
    for when, dur in ((datetime(2021, 2, 22, 18, 37, 40), (42 * 60 + 13) * 60),
                      (datetime(2021, 3, 3, 14, 45, 52), (83 * 60 + 31) * 60)):
        w = olympic_workout(rng, when, tpl[0], 0.15)
        w.name, w.dur, w.label = strong_auto_name(when.hour), dur, "left running"
        add_special(wos, w)
    lines = write_strong_a(wos)
    drop_long_durations(lines, "Duration", dur_text)
    ha = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"
    o.add("alexandros", "exports/alexandros.csv", ha, lines, True, "Strong A",
          "unit from users.csv; two workouts left running")
    return wos


def gen_dakheera(o, rng):
    """Europe/London. Strong E (machines and cables, placeholder rows) and Hevy kg+km (newest
    first, superset 0, set types, `\\n` escapes, timed Warm Up, `0` vs empty duration_seconds,
    back-to-back workouts, one exercise done in two blocks). Both exported 2025-09-15."""
    # --- Strong E
    tpl = {"B": [("Bent Over Row (Barbell)", 10, 15, 3), ("Bicep Curl (Barbell)", 10, 10, 3),
                 ("Squat (Barbell)", 20, 10, 3), ("Lat Pulldown (Machine)", 10, 20, 1)],
           "Midday Workout": [("Chest Press (Machine)", 25, 10, 3), ("Seated Row (Cable)", 30, 12, 3),
                              ("Lat Pulldown (Machine)", 30, 12, 3), ("Leg Press", 60, 12, 3),
                              ("Pec Deck (Machine)", 20, 12, 3)],
           "Tuesdays": [("Leg Press", 70, 12, 3), ("Leg Extension (Machine)", 30, 12, 3),
                        ("Seated Leg Curl (Machine)", 25, 12, 2), ("Squat (Dumbbell)", 14, 10, 3),
                        ("Chest Press (Machine)", 30, 10, 3), ("Pec Deck (Machine)", 25, 12, 3),
                        ("Seated Row (Cable)", 35, 12, 3)],
           "Fridays": [("Lat Pulldown (Cable)", 35, 12, 3), ("Seated Row (Cable)", 35, 12, 3),
                       ("Shoulder Press (Machine)", 20, 10, 3), ("Bicep Curl (Dumbbell)", 8, 12, 3),
                       ("Triceps Extension (Cable)", 15, 12, 3), ("Pull Up (Assisted)", 30, 8, 2),
                       ("Kettlebell Carry", 16, 1, 2)]}
    plan = [(date(2024, 11, 28), "B", 17)] + [
        (d, "Midday Workout" if d < date(2025, 8, 25) else ("Tuesdays" if d.weekday() == 1 else "Fridays"),
         18 if d >= date(2025, 9, 10) else rng.choice((12, 13)))
        for d in training_days(rng, date(2025, 8, 19), date(2025, 9, 12), {1, 4}, 1.0)] + [
        (date(2025, 9, 15), "Tuesdays", 19)]
    swos = []
    for d, name, h in plan:
        sets = []
        for ex, base, reps, n in tpl[name]:
            w = float(round_to(base * rng.uniform(0.95, 1.1), 2.5))
            for k in range(n):
                sets.append(St(ex, w, max(1, reps + rng.choice((-2, -1, 0, 1)))))
        wo = Wo(datetime(d.year, d.month, d.day, h, rng.randrange(60), rng.randrange(60)), name,
                rng.randrange(30 * 60, 80 * 60), sets)
        swos.append(wo)
    # Placeholder sets: a set logged with nothing in it (every value empty, SPEC 9.5: 0 x 0).
    for wo, ex, at in ((swos[1], "Leg Press", 3), (swos[2], "Lat Pulldown (Machine)", 2),
                       (swos[6], "Lat Pulldown (Cable)", 0), (swos[6], "Seated Row (Cable)", 1),
                       (swos[7], "Chest Press (Machine)", 3), (swos[8], "Bicep Curl (Dumbbell)", 2),
                       (swos[9], "Leg Extension (Machine)", 3)):
        idx = [i for i, s in enumerate(wo.sets) if s.ex == ex]
        assert idx, (wo.start, ex)
        wo.sets.insert(idx[0] + min(at, len(idx)), St(ex, None, None))
    for wo in swos:
        if wo.start.date() == date(2025, 9, 15):
            wo.label = "last session"
    he = ('"Workout #";"Date";"Workout Name";"Duration (sec)";"Exercise Name";"Set Order";"Weight (kg)";'
          '"Reps";"RPE";"Distance (meters)";"Seconds";"Notes";"Workout Notes"')
    o.add("dakheera", "exports/dakheera/strong_2025-09-15.csv", he, write_strong_e(swos, lambda w, e: [], set()),
          False, "Strong E", "all quoted, `;`, placeholder rows, no final newline")

    # --- Hevy kg + km
    def block(ex, ws, kinds, reps, rpes, note=""):
        out = [St(ex, w, r, k, note=note) for w, k, r in zip(ws, kinds, reps)]
        for s, e in zip(out, rpes):
            s.rpe = e
        return out

    def hevy(day, hm, minutes, title, blocks_, zero=True, supersets=None):
        wo = Wo(datetime(day.year, day.month, day.day, hm[0], hm[1]), title, minutes * 60,
                [s for b in blocks_ for s in b])
        wo.zero_secs = zero
        if supersets:
            wo.supersets = supersets
        return wo

    W, N, F, D = "warmup", "normal", "failure", "dropset"
    warm_up = lambda: [St("Warm Up", None, 0, secs=300), St("Warm Up", None, 0, secs=300)]   # timed, 2 x 5 min
    arms = lambda v: [
        warm_up(),
        block("Bicep Curl (Cable)", [15, 22.5, 22.5 + v], [W, N, F], [12, 10, 9], [6, 9, 10]),
        block("Triceps Pressdown", [20, 30, 30 + v], [W, N, F], [12, 10, 10], [6, 9, 10]),
        block("Hammer Curl (Dumbbell)", [10, 14, 14], [W, N, F], [10, 10, 8], [6, 9, 10],
              note="Neutral grip, no swing\\nLast set to failure"),
        block("Lateral Raise (Machine)", [25, 35, 25], [W, F, D], [12, 12, 10], [6, 10, 10]),
        block("Cable Crunch", [30, 45, 45], [W, N, N], [15, 12, 12], [6, 8.5, 9])]
    grip = lambda v: [
        block("Seated Palms Down Wrist Curl", [10, 15 + v, 15 + v], [W, N, F], [15, 12, 12], [6, 9, 10]),
        block("Seated Palms Up Wrist Curl", [12.5, 20, 20], [W, N, F], [15, 12, 11], [6, 9, 10])]
    apr = date(2025, 4, 21)
    hwos = [
        hevy(apr, (7, 46), 70, "Arms B + Weak Points", arms(0), supersets={"Bicep Curl (Cable)": 0, "Triceps Pressdown": 0}),
        hevy(apr, (9, 0), 17, "Grip", grip(0)),
        hevy(apr + timedelta(days=2), (17, 35), 84, "Pull A", [
            block("Pull Up", [None, None, None, None], [W, N, N, F], [5, 9, 8, 10], [6, 9.5, 9.5, 10],
                  note="Back to last week's numbers\\nSecond set: one more rep next time"),
            block("Chest Supported Incline Row (Dumbbell)", [16, 24, 26, 26], [W, N, N, F], [10, 10, 9, 10], [6, 9, 9.5, 10]),
            block("Lat Pulldown (Cable)", [40, 55, 55], [W, N, F], [12, 10, 11], [6, 9, 10]),
            block("Face Pull (Cable)", [15, 22.5, 22.5], [W, N, F], [15, 12, 14], [6, 8.5, 10])], zero=False),
        hevy(apr + timedelta(days=3), (18, 10), 80, "Push A", [
            block("Bench Press (Barbell)", [40, 60, 75, 75, 60], [W, W, N, F, D], [10, 6, 6, 7, 10], [6, 6, 9, 10, 10]),
            block("Shoulder Press (Dumbbell)", [12, 20, 20], [W, N, F], [10, 9, 10], [6, 9, 10]),
            block("Chest Fly (Machine)", [30, 45, 45], [W, N, F], [12, 12, 11], [6, 9, 10]),
            block("Skullcrusher (Barbell)", [15, 25, 25], [W, N, F], [12, 10, 10], [6, 9, 10])]),
        hevy(apr + timedelta(days=4), (7, 55), 86, "Legs A", [
            block("Squat (Barbell)", [40, 60, 80, 90, 90], [W, W, N, N, F], [10, 6, 5, 5, 6], [6, 6, 8.5, 9, 10]),
            block("Leg Press (Machine)", [80, 140, 140], [W, N, F], [12, 10, 12], [6, 9, 10]),
            block("Seated Leg Curl (Machine)", [30, 45, 45], [W, N, F], [12, 10, 10], [6, 9, 10]),
            block("Calf Press (Machine)", [60, 100, 100], [W, N, F], [15, 12, 14], [6, 9, 10])]),
        hevy(apr + timedelta(days=5), (10, 5), 52, "Arms A + Weak Points", arms(2.5),
             supersets={"Bicep Curl (Cable)": 0, "Triceps Pressdown": 0}),
        hevy(apr + timedelta(days=5), (10, 57), 22, "Grip", grip(2.5)),
    ]
    sep = date(2025, 9, 11)
    two_blocks = hevy(sep, (7, 40), 70, "Legs // Volume // 1", [
        block("Front Squat", [60, 65], [N, N], [5, 5], [8, 8.5]),
        block("Push Press", [40], [N], [6], [8]),
        block("Front Squat", [60, 70], [N, N], [5, 3], [8, 9]),
        block("Leg Extension (Machine)", [35, 50, 50], [W, N, F], [12, 12, 13], [6, 9, 10]),
        block("Hip Abduction (Machine)", [40, 60, 60], [W, N, F], [15, 12, 14], [6, 9, 10])])
    two_blocks.label = "`Front Squat` in two blocks (set_index 0, 1, then 0, 1 again)"
    hwos += [
        two_blocks,
        hevy(sep + timedelta(days=1), (12, 35), 62, "Pull // Volume // 1", [
            block("Lat Pulldown (Cable)", [40, 57.5, 57.5], [W, N, F], [12, 10, 11], [6, 9, 10]),
            block("Chest Supported Incline Row (Dumbbell)", [18, 26, 26], [W, N, F], [10, 10, 10], [6, 9, 10]),
            block("Reverse Fly Single Arm (Cable)", [5, 10, 10], [W, N, F], [15, 12, 12], [6, 9, 10]),
            block("Hammer Curl (Cable)", [15, 25, 25], [W, N, F], [12, 10, 10], [6, 9, 10])]),
        hevy(sep + timedelta(days=2), (13, 10), 95, "Push // Volume // 1", [
            block("Bench Press (Barbell)", [40, 60, 77.5, 77.5], [W, W, N, F], [10, 6, 6, 7], [6, 6, 9, 10]),
            block("Shoulder Press (Dumbbell)", [12, 22, 22], [W, N, F], [10, 9, 9], [6, 9, 10]),
            block("Seated Dip Machine", [40, 70, 70], [W, N, F], [12, 10, 11], [6, 9, 10]),
            block("Lateral Raise (Cable)", [5, 7.5, 7.5], [W, N, F], [15, 12, 13], [6, 9, 10])]),
        hevy(sep + timedelta(days=4), (7, 52), 80, "Lower // Heavy // 1", [
            block("Seated Leg Curl (Machine)", [40, 50, 55, 55], [W, W, N, F], [10, 6, 8, 8], [6, 6, 9, 10]),
            block("Squat (Barbell)", [37.5, 60, 85, 95, 95], [W, W, W, N, F], [10, 5, 3, 5, 5], [6, 6, 6, 9, 10]),
            block("Back Extension (Weighted Hyperextension)", [None, 10, 10], [W, N, F], [10, 12, 12], [6, 9, 10],
                  note="Pad just below the hips\\nHold the plate to the chest"),
            block("Calf Press (Machine)", [88, 120, 120], [W, N, F], [10, 12, 15], [6, 9.5, 10],
                  note="All sets 125 next time\\nPause at the bottom"),
            block("Hip Thrust (Machine)", [50, 90, 90], [W, N, F], [12, 10, 11], [6, 9, 10])]),
    ]
    hwos[-1].label = "last Hevy session"
    o.add("dakheera", "exports/dakheera/hevy_2025-09-15.csv", ",".join(q(c) for c in HEVY_COLS), write_hevy(hwos),
          False, "Hevy kg+km", "newest first, no final newline")
    return swos + hwos


def gen_marta(o, rng):
    """Strong legacy (2015-2017 app versions): `kg`/`km` columns, Set Order from 0, CRLF; 3310 reps."""
    tpl = [("D1", [("Squat", 60, 5, 5), ("Bench Press", 40, 5, 5), ("Bent Over Row", 35, 8, 3)]),
           ("D2", [("Deadlift", 80, 5, 3), ("Shoulder Press", 25, 6, 4), ("Pull Up", 0, 6, 3),
                   ("Plank", None, (None, 60), 3)]),
           ("D3", [("Front Squat", 45, 6, 3), ("Incline Bench Press", 30, 8, 3), ("Push Up", 0, 20, 3),
                   ("Bent Over Row (Dumbbell)", 16, 10, 3)])]
    days = training_days(rng, date(2015, 11, 2), date(2017, 2, 24), {0, 2, 4}, 0.18)
    wos = make_workouts(rng, days, tpl, [7, 19, 20], "kg", warmups=False)
    for i, w in enumerate(wos):
        w.name = f"W{i // 3 % 4 + 1}{w.name}"   # the program's week and day: W1D1, W1D2, ...
        for s in w.sets:
            if s.w is None and s.secs:   # timed rows: 0.0 weight, 0 reps
                s.w, s.reps = 0.0, 0
    lines = write_strong_legacy(wos)
    i = next(k for k, l in enumerate(lines) if l.wo.start.date() >= date(2016, 6, 1) and '"Push Up",1,' in l.text)
    cols = lines[i].text.split(",")
    cols[5] = "3310"
    lines[i] = Line(",".join(cols), "rejected", None, "Reps", "impossible: 3310 reps (> 1000)")
    h = "Date,Workout Name,Exercise Name,Set Order,kg,Reps,km,Seconds,Notes"
    o.add("marta", "exports/marta.csv", h, lines, True, "Strong legacy (`kg`, `km`)",
          "2015-2017 app version, CRLF", eol="\r\n")
    return wos


def gen_camille(o, rng):
    """Strong in French: variant A's columns under French names, `35min`, CRLF, one workout left running."""
    tpl = [("Pecs Et Dos", [("Aerobics", None, (None, 600), 1), ("Bench Press (Dumbbell)", 22, 8, 4),
                            ("Incline Bench Press (Barbell)", 30, 8, 3), ("Seated Row (Machine)", 40, 10, 3),
                            ("Lat Pulldown (Cable)", 40, 10, 3)]),
           ("Jambes", [("Leg Extension (Machine)", 35, 12, 3), ("Leg Press", 90, 10, 4),
                       ("Seated Leg Curl (Machine)", 30, 12, 3), ("Hip Abductor (Machine)", 40, 15, 3),
                       ("Calf Press on Leg Press", 80, 15, 3)]),
           ("Bras / Épaules", [("Lateral Raise (Dumbbell)", 8, 12, 3), ("Arnold Press (Dumbbell)", 12, 10, 3),
                               ("Bicep Curl (Dumbbell)", 10, 10, 3), ("Skullcrusher (Barbell)", 20, 10, 3)])]
    days = training_days(rng, date(2026, 8, 17), date(2026, 11, 12), {0, 2, 4}, 0.6)
    wos = make_workouts(rng, days, tpl, [12, 13, 18, 19], "kg", warmups=False)
    for w in wos:
        w.dur = rng.randrange(30 * 60, 80 * 60)
    wos[0].dur = 35 * 60
    wos[1].dur = 65 * 60
    left = wos[len(wos) // 2]
    left.dur = (24 * 60 + 13) * 60
    left.label = "left running (`24h 13min`)"
    lines = write_strong_a(wos, dur=dur_min)
    drop_long_durations(lines, "Durée", dur_min)
    h = ("Date,Nom de l'entraînement,Durée,Nom de l'exercice,Ordre de la série,Poids,Réps,Distance,Secondes,"
         "Notes,Notes d'entraînement,RPE")
    o.add("camille", "exports/camille.csv", h, lines, True, "Strong, French", "CRLF", eol="\r\n")
    return wos


def gen_jonas(o, rng):
    """Strong in German: `Dauer` `1h 24min`, `Wiederh.` `12.0`, `Ruhezeit` rest rows, CRLF, no final newline."""
    tpl = [("Ganzkörper", [("Chest Press (Machine)", 50, 12, 3), ("Squat (Barbell)", 70, 8, 3),
                           ("Lat Pulldown (Cable)", 50, 10, 3), ("Plank", None, (None, 60), 2)]),
           ("Push ", [("Bench Press (Barbell)", 65, 8, 3), ("Shoulder Press (Machine)", 35, 10, 3),
                      ("Triceps Pushdown (Cable - Straight Bar)", 25, 12, 3)]),
           ("", [("Romanian Deadlift (Barbell)", 80, 8, 3), ("Seated Row (Cable)", 50, 10, 3),
                 ("Hammer Curl (Cable)", 17.5, 8, 3)])]
    days = training_days(rng, date(2026, 8, 24), date(2026, 11, 25), {0, 2, 5}, 0.6)
    wos = make_workouts(rng, days, tpl, [7, 12, 18, 19], "kg")
    for w in wos:
        if not w.name:
            w.name = {7: "Morgen-Workout", 12: "Mittags-Workout"}.get(w.start.hour, "Abend-Workout")
        w.dur = rng.randrange(13 * 60, 150 * 60)
    wos[0].notes = "Erstes Training"
    wos[1].dur = 84 * 60
    rest_on = {id(w) for w in wos[-8:]}
    zero = wos[-8]

    def pseudo(wo, ex):
        if id(wo) not in rest_on:
            return []
        return [("Ruhezeit", 0 if wo is zero and ex == wo.sets[0].ex else (90 if "Curl" in ex else 120))]

    lines = write_strong_a(wos, dur=dur_min, reps_f1=True, secs_f1=True, pseudo=pseudo)
    for l in lines:
        if l.kind == "ignored":
            l.col = "Reihenfolge festlegen"
    h = ("Datum,Workout-Name,Dauer,Name der Übung,Reihenfolge festlegen,Gewicht,Wiederh.,Entfernung,Sekunden,"
         "Notizen,Workout-Notizen,RPE")
    o.add("jonas", "exports/jonas.csv", h, lines, False, "Strong, German", "CRLF, no final newline", eol="\r\n")
    return wos


SL_HEADER = ("Date,Note,Body Weight (KG),Body Weight (LB),"
             + ",".join(f"Exercise {i},Weight (KG),Weight (LB),Set 1,Set 2,Set 3,Set 4,Set 5" for i in range(1, 5)) + ",")


def stronglifts_workouts(rng, first, last, weekdays, kg, extras, fail=None, empty=None):
    """StrongLifts 5x5 "spreadsheet" export: one row per workout, up to four exercise blocks side by
    side, date only, weight in the `(KG)` or the `(LB)` column, one cell per set (empty: not done).

    extras: {workout index: a fourth block}; fail: {index: (block, cells)} forced failed sets;
    empty: index of a workout opened and never logged (no set at all)."""
    w0 = {"Squat": 40, "Bench Press": 30, "Barbell Row": 30, "Overhead Press": 25, "Deadlift": 50} if kg else \
         {"Squat": 95, "Bench Press": 65, "Barbell Row": 65, "Overhead Press": 55, "Deadlift": 115}
    step = {"Deadlift": 5 if kg else 10}
    cur = dict(w0)
    days = sorted(set(training_days(rng, first, last, weekdays, 0.85)) | {first, last})
    wos = []
    for i, d in enumerate(days):
        prog = ["Squat", "Bench Press", "Barbell Row"] if i % 2 == 0 else ["Squat", "Overhead Press", "Deadlift"]
        blocks_ = []
        for ex in prog:
            w = cur[ex]
            cells = [5, None, None, None, None] if ex == "Deadlift" else [5] * 5
            if ex != "Deadlift" and i > 4 and rng.random() < 0.07:
                cells = rng.choice(([5, 5, 3, 3, 3], [5, 5, 5, 5, 4], [5, 5, 5, 4, 3]))
            blocks_.append([ex, w, cells])
        if i in extras:
            blocks_.append(list(extras[i]))
        if fail and i in fail:
            blocks_[fail[i][0]][2] = list(fail[i][1])
        if i == empty:
            for b in blocks_:
                b[2] = [None] * 5
        wo = Wo(datetime(d.year, d.month, d.day), "", 0, [])
        wo.blocks = blocks_
        wos.append(wo)
        for ex, w, cells in blocks_:
            done = [c for c in cells if c is not None]
            if done and all(c == 5 for c in done) and ex in cur:
                cur[ex] = w + step.get(ex, 2.5 if kg else 5)
    return wos


def stronglifts_lines(wos, datefmt, kg, body):
    lines = []
    for k, wo in enumerate(wos):
        bw = body(k)
        f = [wo.start.strftime(datefmt), "", num(bw) if kg else "", "" if kg else num(bw)]
        for ex, w, cells in wo.blocks:
            f += [ex, num(w) if kg else "", "" if kg else num(w)] + ["" if c is None else str(c) for c in cells]
            for c in cells:
                if c is not None:
                    wo.sets.append(St(ex, float(w) if kg else w * LB, c))
        f += [""] * (7 if len(wo.blocks) == 3 else 1)   # 35 fields with three blocks, 37 with four
        if wo.sets:
            lines.append(Line(",".join(f), wo=wo))
        else:
            lines.append(Line(",".join(f), "ignored", None, None, "no set: every `Set N` cell is empty"))
    return lines


def unambiguous(wos, fmt):
    """The first date of the file that only one day/month order can read."""
    return next(t for t in (w.start.strftime(fmt) for w in wos) if max(int(t[:2]), int(t[3:5])) > 12)


def gen_owen(o, rng):
    """StrongLifts, kg, dates `dd/mm/yy` (the order is inferred from the file), Europe/Dublin."""
    extras = {3: ("Planks", 0, [None] * 5), 6: ("Barbell Curls", 20, [8, 8, None, None, None]),
              9: ("Planks", 0, [30, 30, 30, None, None]), 14: ("Barbell Curls", 20, [8, 8, 8, None, None]),
              21: ("Dips", 0, [8, 8, 6, None, None])}
    # A bench session failed as `5,5,3,3,3` (EXPORT-FORMATS 9.6); a workout opened and never logged.
    wos = stronglifts_workouts(rng, date(2026, 9, 1), date(2026, 11, 21), {1, 3, 5}, True, extras,
                               fail={8: (1, [5, 5, 3, 3, 3])}, empty=17)
    lines = stronglifts_lines(wos, "%d/%m/%y", True, lambda k: round(84.6 - 0.05 * k, 1))
    o.add("owen", "exports/owen.csv", SL_HEADER, lines, True, "StrongLifts (dd/mm/yy)", "date order inferred")
    first = wos[0]
    what = f"day-first date, inferred from the file (`{unambiguous(wos, '%d/%m/%y')}` further down)"
    o.specials.append(("owen", "Europe/Dublin", what, first.start.strftime("%d/%m/%y"),
                       iso(utc_of_local(first.start, "Europe/Dublin"))))
    return [w for w in wos if w.sets]


def gen_tyler(o, rng):
    """StrongLifts, lb, dates `mm/dd/yy` (the order is inferred from the file), America/Denver."""
    extras = {4: ("Barbell Curls", 45, [8, 8, 8, None, None]), 11: ("Planks", 0, [None] * 5),
              15: ("Dips", 0, [10, 8, 8, None, None])}
    wos = stronglifts_workouts(rng, date(2026, 9, 2), date(2026, 11, 23), {0, 2, 4}, False, extras)
    lines = stronglifts_lines(wos, "%m/%d/%y", False, lambda k: round(183.4 + 0.1 * k, 1))
    o.add("tyler", "exports/tyler.csv", SL_HEADER, lines, True, "StrongLifts (mm/dd/yy)", "date order inferred")
    first = wos[0]
    what = f"month-first date, inferred from the file (`{unambiguous(wos, '%m/%d/%y')}` further down)"
    o.specials.append(("tyler", "America/Denver", what, first.start.strftime("%m/%d/%y"),
                       iso(utc_of_local(first.start, "America/Denver"))))
    return [w for w in wos if w.sets]


GYMBOOK_EX = {
    # Italian name: (Zona, Gruppi muscolari (Primari), Gruppi muscolari (Secondari))
    "Panca piana con bilanciere": ("Torace", "Pettorali", "Muscoli della spalla, Estensori del braccio"),
    "Squat con bilanciere": ("Gambe", "Muscoli glutei, Quadricipite",
                             "Muscoli lombari, Addominali, Obliqui, Adduttori, Flessori della coscia"),
    "Alzate di Gambe alla Macchina": ("Addome", "Addominali", "Obliqui, Quadricipite"),
    "Lat Pull-Downs al Cavo Alto a Presa Larga": ("Schiena", "Trapezio, Muscoli dorsali", "Flessori del braccio"),
    "Rematore a Una Mano con Manubrio": ("Schiena", "Muscoli dorsali", "Flessori del braccio, Muscoli della spalla"),
    "Curls con Bilanciere": ("Braccia", "Flessori del braccio", ""),
    "Tricipiti al Cavo": ("Braccia", "Estensori del braccio", ""),
    "Lento Frontale Con Asta": ("Spalle", "Muscoli della spalla", "Estensori del braccio, Trapezio"),
    "Stacco da terra": ("Schiena", "Muscoli lombari, Muscoli glutei, Flessori della coscia", "Trapezio, Quadricipite"),
    "Planks": ("Addome", "Muscoli lombari, Addominali, Obliqui",
              "Muscoli della spalla, Trapezio, Muscoli glutei, Quadricipite"),
    "Walking su Tapis Roulant": ("Cardio", "Muscoli glutei, Quadricipite, Flessori della coscia, Polpacci", "Adduttori"),
}
GB_SET, GB_WARM, GB_COOL = "Set", "Set di riscaldamento", "Set di defaticamento"
GB_SKIPPED = "Si"   # what the real Italian export writes (not `Sì`); `No` otherwise


def gen_giulia(o, rng):
    """GymBook (iOS) in Italian, Europe/Rome: one row per set with its own time, units in the cells,
    decimal commas, `dd/mm/yy`, warm-up and cool-down sets, skipped sets (`Saltato` `Si`)."""
    progs = {"Scheda Forza Giorno 1": [("Panca piana con bilanciere", 42.5, 8, 4), ("Lat Pull-Downs al Cavo Alto a Presa Larga", 40, 10, 3),
                                       ("Lento Frontale Con Asta", 25, 8, 3), ("Tricipiti al Cavo", 17.5, 12, 3),
                                       ("Alzate di Gambe alla Macchina", 0, 15, 3)],
             "Scheda Forza Giorno 2": [("Squat con bilanciere", 55, 8, 4), ("Stacco da terra", 65, 6, 3),
                                       ("Rematore a Una Mano con Manubrio", 16, 10, 3), ("Curls con Bilanciere", 20, 10, 3),
                                       ("Planks", None, 30, 3)]}
    names = list(progs)
    days = training_days(rng, date(2026, 9, 1), date(2026, 11, 26), {1, 3, 5}, 0.7)
    sessions = []   # (date, Programma, [(minute offset, exercise, kind, amount cell, load cell, skipped, St or None)])
    for i, d in enumerate(days):
        pname = names[i % 2]
        years = (d - days[0]).days / 365.0
        t = datetime(d.year, d.month, d.day, rng.choice((18, 19)), rng.randrange(0, 50))
        rows = []
        for j, (ex, base, reps, n) in enumerate(progs[pname]):
            w = 0.0 if not base else round_to(base * (1 + 0.3 * years) * rng.uniform(0.97, 1.03), 2.5)
            kinds = ([GB_WARM] if j == 0 else []) + [GB_SET] * n
            for k, kind in enumerate(kinds):
                ww = round_to(w * 0.5, 2.5) if kind == GB_WARM else w
                skipped = k == len(kinds) - 1 and ex in ("Planks", "Alzate di Gambe alla Macchina") and rng.random() < 0.35
                if base is None:
                    amount, st = f"{reps} secondi", St(ex, None, None, secs=reps)
                else:
                    r = max(1, reps + rng.choice((-1, 0, 0, 1)))
                    amount, st = f"{r} ripetizioni", St(ex, ww, r, "warmup" if kind == GB_WARM else "normal")
                rows.append([t, ex, kind, amount, f"{ww:.2f}".replace(".", ",") + " kg", skipped, st])
                t += timedelta(minutes=rng.choice((1, 2, 2, 3)))
        if i % 3 == 2:   # a cool-down walk: time and distance
            km = rng.choice((0.8, 1.0, 1.2))
            rows.append([t, "Walking su Tapis Roulant", GB_COOL, "10 minuti", f"{km:.2f}".replace(".", ",") + " km", False,
                         St("Walking su Tapis Roulant", None, None, "warmup", dist=km, secs=600)])
        sessions.append((d, pname, rows))
    # Saturday-morning cardio on two days that also have a strength session in the evening.
    for d in [d for d in days if d.weekday() == 5][1:3]:
        t = datetime(d.year, d.month, d.day, 9, 5)
        sessions.append((d, "Cardio Mattina", [
            [t, "Walking su Tapis Roulant", GB_SET, "25 minuti", "2,50 km", False, St("Walking su Tapis Roulant", None, None, dist=2.5, secs=1500)],
            [t + timedelta(minutes=26), "Planks", GB_SET, "30 secondi", "0,00 kg", False, St("Planks", None, None, secs=30)],
            [t + timedelta(minutes=27), "Planks", GB_SET, "30 secondi", "0,00 kg", True, None]]))
    # A session logged without a program (Programma empty, as in the real export).
    d = days[len(days) // 2] + timedelta(days=1)
    t = datetime(d.year, d.month, d.day, 17, 40)
    sessions.append((d, "", [[t + timedelta(minutes=2 * k), "Panca piana con bilanciere", GB_SET, "8 ripetizioni",
                              "50,00 kg", False, St("Panca piana con bilanciere", 50.0, 8)] for k in range(3)]))
    sessions.sort(key=lambda x: x[2][0][0], reverse=True)   # newest first; sets within one in time order
    lines, wos = [], []
    for d, pname, rows in sessions:
        wo = Wo(rows[0][0], pname, 0, [])
        assert not rows[0][5], "a session's first row is never skipped (its time is the start)"
        wos.append(wo)
        for t, ex, kind, amount, load, skipped, st in rows:
            zona, prim, sec = GYMBOOK_EX[ex]
            f = [t.strftime("%d/%m/%y"), q(pname) if pname else "", t.strftime("%H:%M"), q(ex), zona,
                 q(prim) if prim else "", q(sec) if sec else "", kind, q(amount), q(load), "",
                 GB_SKIPPED if skipped else "No"]
            if skipped:
                lines.append(Line(",".join(f), "ignored", None, "Saltato", f"skipped set (`Saltato` `{GB_SKIPPED}`)"))
            else:
                wo.sets.append(st)
                lines.append(Line(",".join(f), wo=wo))
    h = ("Data,Programma,Orario,Esercizio,Zona,Gruppi muscolari (Primari),Gruppi muscolari (Secondari),"
         "Set / Set di riscaldamento / Set di defaticamento,Ripetizioni / Tempo,Peso / Distanza,Appunti,Saltato")
    o.add("giulia", "exports/giulia.csv", h, lines, False, "GymBook, Italian", "newest first, no final newline")
    first = min(wos, key=lambda w: w.start)
    o.specials.append(("giulia", "Europe/Rome", "GymBook `Data` (dd/mm/yy) at the session's first `Orario`",
                       first.start.strftime("%d/%m/%y %H:%M"), iso(utc_of_local(first.start, "Europe/Rome"))))
    return wos


# ----------------------------------------------------------------------------------------------
# Output

USERS_CSV = """user,timeZone,weightUnit,distanceUnit,firstWeekday
alexandros,Europe/Athens,kg,km,monday
dakheera,Europe/London,kg,km,Monday
ingrid,Europe/Oslo,kg,km,monday
ethan,America/New_York,lb,mi,sunday
sofia,America/Santiago,kg,km,
kenji,Asia/Tokyo,kg,km,SUNDAY
lena,,kg,,monday
noah,Australia/Sydney,,,
mason,America/Chicago,lb,mi,sunday
tom,America/Toronto,lb,mi,sunday
sam,,,,
marta,Europe/Madrid,kg,km,monday
camille,Europe/Paris,kg,km,monday
jonas,Europe/Zurich,kg,km,monday
owen,Europe/Dublin,kg,km,monday
tyler,America/Denver,lb,mi,sunday
giulia,Europe/Rome,kg,km,monday
"""
MAPPED_USERS_CSV = """user,timeZone,weightUnit,distanceUnit,firstWeekday
greta,Europe/Vienna,kg,km,monday
"""
# What each user ends up with (SPEC 9.4: the file beats users.csv beats the defaults).
EFFECTIVE = {
    "alexandros": ("Europe/Athens", "kg", "km", "monday", "users.csv; Strong A states no unit"),
    "dakheera": ("Europe/London", "kg (file)", "km (file)", "monday", "users.csv `Monday`; units stated by both files"),
    "ingrid": ("Europe/Oslo", "kg (file)", "km", "monday", "users.csv; D has `Weight Unit` kg, E `Weight (kg)`"),
    "ethan": ("America/New_York", "lb", "mi", "sunday", "users.csv; A0/A state no unit"),
    "sofia": ("America/Santiago", "kg/lbs per row (file)", "km/mi. per row (file)", "monday", "users.csv, week start blank → default"),
    "kenji": ("Asia/Tokyo", "kg", "km", "sunday", "users.csv `SUNDAY` (any case)"),
    "lena": ("Europe/Berlin (file)", "kg (file)", "km", "monday", "users.csv zone blank; the JSON says `timeZone`"),
    "noah": ("Australia/Sydney", "kg", "km", "monday", "users.csv units and week start blank → defaults"),
    "mason": ("America/Chicago", "lb (file)", "mi (file)", "sunday", "Hevy header `weight_lbs`/`distance_miles`"),
    "tom": ("America/Toronto", "lbs/kgs (file)", "mi (file)", "sunday", "header `Weight (lbs)`, then per row"),
    "sam": ("UTC", "kg (file)", "m (file)", "monday", "users.csv row all blank → defaults; Fitbod offsets `+0000`"),
    "uma": ("UTC", "lb (file)", "km", "monday", "no users.csv row; JSON `weightUnit` lb"),
    "greta": ("Europe/Vienna", "kg", "km", "monday", "mapped/users.csv"),
    "marta": ("Europe/Madrid", "kg (file)", "km (file)", "monday", "legacy header names its units: `kg`, `km`"),
    "camille": ("Europe/Paris", "kg", "km", "monday", "users.csv; French Strong states no unit"),
    "jonas": ("Europe/Zurich", "kg", "km", "monday", "users.csv; German Strong states no unit"),
    "owen": ("Europe/Dublin", "kg (file)", "km", "monday", "users.csv; weights in the `Weight (KG)` columns"),
    "tyler": ("America/Denver", "lb (file)", "mi", "sunday", "users.csv; weights in the `Weight (LB)` columns"),
    "giulia": ("Europe/Rome", "kg (file)", "km (file)", "monday", "users.csv; units inside the cells (`62,50 kg`, `2,50 km`)"),
}


def ranges(nums):
    nums = sorted(nums)
    out, i = [], 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append(str(nums[i]) if i == j else f"{nums[i]}–{nums[j]}")
        i = j + 1
    return ", ".join(out)


def account(lines, first_line):
    st = {"rowsRead": len(lines), "rowsAccepted": 0, "rowsRejected": 0, "rowsDuplicate": 0,
          "rowsIgnored": 0, "rowsRepaired": 0, "rowsValueDropped": 0,
          "rejected": [], "duplicate": [], "ignored": [], "repaired": [], "valueDropped": []}
    for n, l in enumerate(lines, start=first_line):
        if l.kind == "accepted":
            st["rowsAccepted"] += 1
        else:
            st[{"rejected": "rowsRejected", "duplicate": "rowsDuplicate", "ignored": "rowsIgnored"}[l.kind]] += 1
            st[l.kind].append({"line": n, "column": l.col, "reason": l.reason})
        if l.repaired:
            st["rowsRepaired"] += 1
            st["repaired"].append({"line": n, "column": "Exercise",
                                   "reason": "unquoted comma in the exercise name: 11 fields under 10 columns, "
                                             "the extra one fits only the name"})
        if l.dropped:
            assert l.kind == "accepted"
            st["rowsValueDropped"] += 1
            st["valueDropped"].append({"line": n, "column": l.dropped[0], "reason": l.dropped[1]})
    assert st["rowsRead"] == st["rowsAccepted"] + st["rowsRejected"] + st["rowsDuplicate"] + st["rowsIgnored"]
    return st


GENERATORS = [("ingrid", gen_ingrid), ("ethan", gen_ethan), ("sofia", gen_sofia), ("kenji", gen_kenji),
              ("lena", gen_lena), ("noah", gen_noah), ("mason", gen_mason), ("tom", gen_tom),
              ("sam", gen_sam), ("uma", gen_uma), ("greta", gen_greta),
              ("alexandros", gen_alexandros), ("dakheera", gen_dakheera), ("marta", gen_marta),
              ("camille", gen_camille), ("jonas", gen_jonas), ("owen", gen_owen), ("tyler", gen_tyler),
              ("giulia", gen_giulia)]


def build():
    o = Out()
    for name, fn in GENERATORS:
        fn(o, random.Random(f"{SEED}-{name}"))   # one stream per user: editing one leaves the others
    for rel in ("exports/lena.json", "exports/uma.json"):
        o.files[rel][2]["json"] = True
    return o


CATALOG_JSON = os.path.join(HERE, "..", "Resources", "catalog.json")


def load_catalog():
    """The built-in catalog, the data file the binary embeds.

    Returns {key: catalog name} over names and aliases, key = trimmed, NFC, case-folded."""
    cat = json.load(open(CATALOG_JSON, encoding="utf-8"))
    names, clashes = {}, []
    for e in cat["exercises"]:
        for n in [e["name"]] + e.get("aliases", []):
            k = key_of(n)
            if names.get(k, e["name"]) != e["name"]:
                clashes.append((n, names[k], e["name"]))
            names.setdefault(k, e["name"])
    for n, x, y in clashes:
        print(f"warning: built-in catalog: {n!r} names both {x!r} and {y!r} (the first is used here)", file=sys.stderr)
    return names


def key_of(name):
    return unicodedata.normalize("NFC", name.strip()).casefold()


def lookup(names, name):
    """Catalog name of an exercise, or None: trimmed, NFC, case-folded; failing that, without a
    trailing ` (…)` (the equipment Strong and Hevy append)."""
    k = key_of(name)
    if k in names:
        return names[k]
    if k.endswith(")") and " (" in k:
        return names.get(k[:k.rindex(" (")].strip())
    return None


def compress(entries):
    """Long runs of lines with one column and reason as [first, last] ranges."""
    by = {}
    for r in entries:
        by.setdefault((r["column"], r["reason"]), []).append(r["line"])
    return [{"lines": [[int(x) for x in (p.split("–") * 2)[:2]] for p in ranges(ns).split(", ")],
             "count": len(ns), "column": c, "reason": why} for (c, why), ns in by.items()]


def facts(o, names):
    files, users = {}, {}
    for rel in sorted(o.files):
        data, lines, meta = o.files[rel]
        if meta.get("json"):
            st = account(lines, 1)
            for k in ("rejected", "duplicate", "ignored", "repaired", "valueDropped"):
                assert not st[k]
        else:
            st = account(lines, 2 if meta["header"] else 1)
        st = {"user": meta["user"], "format": meta["format"], "bytes": len(data),
              "sha256": hashlib.sha256(data).hexdigest(), **st}
        files[rel] = st
        u = users.setdefault(meta["user"], {"files": [], "wos": {}, "unmapped": {}})
        u["files"].append(rel)
        for l in lines:
            if l.kind == "accepted" and l.wo is not None:
                u["wos"][id(l.wo)] = l.wo
    out = {}
    for user, u in sorted(users.items()):
        wos = sorted(u["wos"].values(), key=lambda w: w.start)
        unm = {}
        for w in wos:
            for s in w.sets:
                n = unicodedata.normalize("NFC", s.ex.strip())
                if lookup(names, n) is None and n not in SET_LEVEL_IDS:
                    unm.setdefault(n, set()).add(id(w))
        zone, wu, du, wk, why = EFFECTIVE[user]
        out[user] = {"files": u["files"], "timeZone": zone, "weightUnit": wu, "distanceUnit": du,
                     "firstWeekday": wk, "settingsFrom": why, "sessions": len(wos),
                     "firstSessionLocal": wos[0].start.strftime("%Y-%m-%d %H:%M:%S"),
                     "lastSessionLocal": wos[-1].start.strftime("%Y-%m-%d %H:%M:%S"),
                     "unmappedExercises": [{"name": n, "sessions": len(v)} for n, v in
                                           sorted(unm.items(), key=lambda kv: (-len(kv[1]), kv[0]))]}
    return files, out


def readme_block(files, users, specials):
    L = ["<!-- BEGIN GENERATED by make_samples.py: do not edit by hand -->", "",
         "### Files and row accounting", "",
         "`read = accepted + rejected + duplicate + ignored` holds for every file; *repaired* and *value "
         "dropped* rows are also accepted rows. Line 1 is the header (NDJSON has none: line 1 is its first "
         "set). JSON rows are sets, so they have no line.", "",
         "| file | user | format | bytes | read | accepted | rejected | duplicate | ignored | repaired | value dropped |",
         "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for rel, f in files.items():
        L.append(f"| `{rel}` | {f['user']} | {f['format']} | {f['bytes']} | {f['rowsRead']} | {f['rowsAccepted']} | "
                 f"{f['rowsRejected']} | {f['rowsDuplicate']} | {f['rowsIgnored']} | {f['rowsRepaired']} | "
                 f"{f['rowsValueDropped']} |")
    L += ["", "### Expected rejects (one line each)", "", "| file:line | column | reason |", "|---|---|---|"]
    for rel, f in files.items():
        for r in f["rejected"]:
            L.append(f"| `{rel}`:{r['line']} | {r['column'] or '—'} | {r['reason']} |")
    L += ["", "### Expected duplicate, ignored, repaired and value-dropped rows", "",
          "| file | lines | count | column | what |", "|---|---|---:|---|---|"]
    for rel, f in files.items():
        for kind, label in (("duplicate", "duplicate"), ("ignored", "ignored"), ("repaired", "repaired"),
                            ("valueDropped", "value dropped")):
            by = {}
            for r in f[kind]:
                by.setdefault((r["column"], r["reason"]), []).append(r["line"])
            for (col, reason), ns in by.items():
                L.append(f"| `{rel}` | {ranges(ns)} | {len(ns)} | {col or '—'} | {label}: {reason} |")
    L += ["", "### Users", "",
          "Sessions: distinct sessions with at least one accepted row, after duplicates are removed "
          "(all of them start on or before 2026-11-29). First/last: local start as written. Unmapped: "
          "against the built-in catalog.", "",
          "| user | zone | weight | distance | week starts | sessions | first | last | unmapped exercises (sessions) |",
          "|---|---|---|---|---|---:|---|---|---|"]
    for user, u in users.items():
        unm = ", ".join(f"`{x['name']}` ({x['sessions']})" for x in u["unmappedExercises"]) or "—"
        L.append(f"| {user} | {u['timeZone']} | {u['weightUnit']} | {u['distanceUnit']} | {u['firstWeekday']} | "
                 f"{u['sessions']} | {u['firstSessionLocal']} | {u['lastSessionLocal']} | {unm} |")
    L += ["", "### Local times that need the DST, midnight and date-order rules", "",
          "| user | zone | what | written in the file | expected start (UTC) |", "|---|---|---|---|---|"]
    for user, zone, what, local, utc in specials:
        L.append(f"| {user} | {zone} | {what} | `{local}` | {utc} |")
    L += ["", "<!-- END GENERATED -->"]
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a generated file would change")
    args = ap.parse_args()
    o = build()
    names = load_catalog()
    files, users = facts(o, names)
    unmapped = {x["name"] for u in users.values() for x in u["unmappedExercises"]}
    assert unmapped == UNMAPPED, f"unmapped against the built-in catalog: {sorted(unmapped)}"
    raw = json.loads(json.dumps(files))   # line-by-line copy for the README tables
    for f in files.values():
        for kind in ("duplicate", "ignored", "valueDropped"):
            f[kind] = compress(f[kind])
    expected = {"asOf": "2026-11-29", "catalog": "Resources/catalog.json",
                "files": files, "users": users,
                "localTimes": [{"user": u, "timeZone": z, "what": w, "written": l, "expectedUTC": t}
                               for u, z, w, l, t in o.specials]}
    outputs = {rel: data for rel, (data, _, meta) in o.files.items()}
    outputs["exports/users.csv"] = USERS_CSV.encode()
    outputs["mapped/users.csv"] = MAPPED_USERS_CSV.encode()
    outputs["expected.json"] = (json.dumps(expected, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
    readme_path = os.path.join(HERE, "README.md")
    readme = open(readme_path, encoding="utf-8").read() if os.path.exists(readme_path) else ""
    a, b = readme.find("<!-- BEGIN GENERATED"), readme.find("<!-- END GENERATED -->")
    if a >= 0 and b > a:
        block = readme_block(raw, users, o.specials)
        outputs["README.md"] = (readme[:a] + block + readme[b + len("<!-- END GENERATED -->\n"):]).encode("utf-8")
    # The hand-written part of the README names rows as `file`:line or `file`:first–last; each
    # must be a listed row, and a range exactly a run of listed rows.
    prose = readme[:a] if a >= 0 else readme
    for rel, first, last in re.findall(r"`((?:exports|mapped)/[^`]+)`:(\d+)(?:–(\d+))?", prose):
        f = raw[rel]
        listed = {r["line"] for k in ("rejected", "duplicate", "ignored", "repaired", "valueDropped") for r in f[k]}
        lo, hi = int(first), int(last or first)
        assert set(range(lo, hi + 1)) <= listed and not (last and {lo - 1, hi + 1} & listed), \
            f"README names {rel}:{first}{'–' + last if last else ''}, which is not a listed row or run of rows"
    # Nothing under exports/ or mapped/ that this script does not write.
    stray = sorted(os.path.relpath(os.path.join(dp, f), HERE) for top in ("exports", "mapped")
                   for dp, _, fs in os.walk(os.path.join(HERE, top)) for f in fs
                   if os.path.relpath(os.path.join(dp, f), HERE) not in outputs)
    changed = []
    for rel, data in sorted(outputs.items()):
        path = os.path.join(HERE, rel)
        old = open(path, "rb").read() if os.path.exists(path) else None
        if old != data:
            changed.append(rel)
            if not args.check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as f:
                    f.write(data)
    for rel in changed:
        print(("would change " if args.check else "wrote ") + rel)
    for rel in stray:
        print(f"stray file (not written by this script): {rel}")
    total = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(HERE) for f in fs
                if "__pycache__" not in dp)
    print(f"{len(o.files)} export files, SampleData {total} bytes", file=sys.stderr)
    return 1 if args.check and (changed or stray) else 0


if __name__ == "__main__":
    sys.exit(main())
