"""A season as one web page a club mails or posts (``companion results --season NAME
--html FILE``): the standings (the teams' beside them), each race's result, the corrections
and penalties with their reasons, and each driver's places as a chart.

One self-contained file: its style inline, its charts inline SVG, no script, no font, no
picture, no link it needs to load; it reads on a phone (390 px) as on a desktop. Every text
from the journal (names are typed by the players, a file from another box is anyone's) is
escaped where it is written.
"""

from __future__ import annotations

import time
from html import escape
from typing import Any

from companion.core.journal import Journal
from companion.league import exchange, ledger, seasons, steward, teams


def corrections(journal: Journal, season: seasons.Season) -> list[dict[str, Any]]:
    """The season's corrections and penalties as the page lists them, in the order its races
    finished: each ``{"race": its number in the season (None: a voided race), "kind", "text",
    "reason"}``, from :func:`steward.season_corrections` (the text already says the reason)."""
    out = []
    for race in steward.season_corrections(journal, season.game, season.name):
        for change, note in zip(race["changes"], race["notes"]):
            text = note if race["number"] is not None else f"{note} (the race of {ledger.when(race['started'])})"
            out.append({"race": race["number"], "kind": str(change["kind"]), "text": text, "reason": ""})
    return out


STYLE = """
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0 auto;max-width:64rem;padding:1rem;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:#111;background:#fff;overflow-wrap:anywhere}
h1{font-size:1.6rem;margin:.2rem 0}h2{font-size:1.25rem;margin:1.6rem 0 .5rem;border-bottom:2px solid #c00}
h3{font-size:1rem;margin:1rem 0 .3rem}p{margin:.3rem 0}.quiet{color:#555}
table{border-collapse:collapse;width:100%;max-width:40rem}
th,td{padding:.3rem .4rem;text-align:left;border-bottom:1px solid #ddd;vertical-align:top}
th{font-size:.85rem;color:#444}td.n,th.n{width:1%;text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.cols{display:grid;grid-template-columns:repeat(auto-fill,minmax(17rem,1fr));gap:0 1.5rem}
figure{margin:0 0 1rem}figcaption{font-weight:600}
svg{display:block;width:100%;max-width:30rem;height:auto}
svg text{font:12px system-ui,sans-serif;fill:#444}svg .line{fill:none;stroke:#c00;stroke-width:2.5}
svg .dot{fill:#c00}svg .grid{stroke:#ddd;stroke-width:1}
li{margin:.3rem 0}footer{margin-top:2rem;font-size:.85rem;color:#555}
@media (prefers-color-scheme:dark){body{color:#eee;background:#111}.quiet,th,footer{color:#bbb}
th,td{border-color:#333}svg text{fill:#bbb}svg .grid{stroke:#333}svg .line{stroke:#f55}svg .dot{fill:#f55}}
"""


def season_page(journal: Journal, season: seasons.Season, now: float | None = None) -> str:
    """The page of ``season``, as text (UTF-8 when written)."""
    title = f"{ledger.title(season.game)}, season {season.name}"
    rows = seasons.table(journal, season)
    races = exchange.race_rows(journal, season)
    said = season.label() + (f"; each driver's {season.drop} worst results dropped" if season.drop else "")
    parts = [f"<header><h1>{escape(title)}</h1><p class=quiet>{escape(said)}</p></header>",
             _standings(rows, "Player" if ledger.rows_are(journal, season.game) == "players" else "Driver"),
             _teams(teams.table(journal, season)), _corrections(corrections(journal, season)),
             _races(races), _places(rows, races, seasons.merges(journal))]
    made = time.strftime("%Y-%m-%d %H:%M", time.localtime(time.time() if now is None else now))
    return ("<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
            "<meta name=viewport content=\"width=device-width,initial-scale=1\">"
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>\n<body>\n"
            + "\n".join(p for p in parts if p)
            + f"\n<footer>Made by Race Companion on {escape(made)}, from the club's journal.</footer>\n</body></html>\n")


def _table(head: list[tuple[str, bool]], body: list[list[Any]]) -> str:
    """A table: ``head`` its columns (title, numeric), ``body`` its rows of cells."""
    th = "".join(f"<th{' class=n' if n else ''}>{escape(t)}</th>" for t, n in head)
    trs = "".join("<tr>" + "".join(f"<td{' class=n' if head[k][1] else ''}>{escape(str(c))}</td>"
                                   for k, c in enumerate(row)) + "</tr>" for row in body)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>"


def _standings(rows: list[dict[str, Any]], who: str) -> str:
    if not rows:
        return "<section id=standings><h2>Standings</h2><p>No race yet.</p></section>"
    dropped = any(r["dropped"] for r in rows)
    head = [("Pos", True), (who, False), ("Pts", True), ("Races", True), ("Wins", True), ("Best", True)]
    body = [[r["position"], r["name"], r["points"], r["races"], r["wins"], r["best"] or "-"] for r in rows]
    notes = "".join(f"<li>{escape(line)}</li>" for line in seasons.dropped_note(rows))
    return ("<section id=standings><h2>Standings</h2>" + _table(head, body)
            + (f"<p class=quiet>Results dropped:</p><ul>{notes}</ul>" if dropped else "") + "</section>")


def _teams(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return ""
    body = [[t["position"], t["name"], ", ".join(t["drivers"]), t["points"]] for t in rows]
    return ("<section id=teams><h2>Teams</h2>"
            + _table([("Pos", True), ("Team", False), ("Drivers", False), ("Pts", True)], body) + "</section>")


def _corrections(items: list[dict[str, Any]]) -> str:
    if not items:
        return "<section id=corrections><h2>Corrections and penalties</h2><p>None.</p></section>"
    lis = "".join(f"<li>{'Race ' + escape(str(i['race'])) + ': ' if i.get('race') is not None else ''}"
                  f"{escape(str(i['text']))}"
                  + (f" <span class=quiet>({escape(str(i['reason']))})</span>" if i.get("reason") else "") + "</li>"
                  for i in items)
    return f"<section id=corrections><h2>Corrections and penalties</h2><ul>{lis}</ul></section>"


def _races(races: list[dict[str, Any]]) -> str:
    if not races:
        return ""
    out = ["<section id=races><h2>Races</h2><div class=cols>"]
    for r in races:
        early = " (ended early, as it stood)" if r["ended_early"] else ""
        body = [[e["position"] or "-", e["name"] + ("" if e["status"] == "finished" else f" ({e['status']})"),
                 e["points"]] for e in r["standings"]]
        out.append(f"<article class=race><h3>Race {r['number']} <span class=quiet>{escape(r['date'])}"
                   f"{escape(early)}</span></h3>" + _table([("Pos", True), ("Driver", False), ("Pts", True)], body)
                   + "</article>")
    return "".join(out) + "</div></section>"


def _places(rows: list[dict[str, Any]], races: list[dict[str, Any]], merged: dict[str, str]) -> str:
    """Each driver's place in every race of the season, a chart each (two races or more)."""
    if len(races) < 2 or not rows:
        return ""
    cars = max(max((e["position"] or 0) for e in r["standings"]) for r in races) or 1
    figures = []
    for row in rows:
        who = row["name"].casefold()
        places = [next((e["position"] for e in r["standings"]
                        if merged.get(e["name"].casefold(), e["name"]).casefold() == who), None) for r in races]
        figures.append(f"<figure><figcaption>{escape(row['name'])}</figcaption>"
                       f"{places_svg(row['name'], places, cars)}</figure>")
    return ("<section id=places><h2>Each driver's places</h2><p class=quiet>Place in each race (1 on top; "
            "a gap: not in that race).</p><div class=cols>" + "".join(figures) + "</div></section>")


def places_svg(name: str, places: list[int | None], cars: int) -> str:
    """A driver's place in each race as an inline SVG chart: the races across, place 1 on
    top, a line through the races they ran (broken where they did not), a dot on each."""
    width, left, top, right, bottom = 320, 26, 10, 10, 24
    height = top + bottom + max(60, min(160, 14 * cars))
    n = len(places)

    def x(k: int) -> float:
        return left + (width - left - right) * (k / (n - 1) if n > 1 else 0.5)

    def y(p: int) -> float:
        return top + (height - top - bottom) * ((p - 1) / (cars - 1) if cars > 1 else 0.5)

    marks = []
    for p in sorted({1, cars, *(q for q in places if q and cars <= 12)}):
        marks.append(f"<line class=grid x1={left} x2={width - right} y1={y(p):.1f} y2={y(p):.1f} />"
                     f"<text x={left - 6} y={y(p) + 4:.1f} text-anchor=end>{p}</text>")
    step = max(1, -(-n // 10))
    for k in range(0, n, step):
        marks.append(f"<text x={x(k):.1f} y={height - 6} text-anchor=middle>{k + 1}</text>")
    runs, run = [], []
    for k, p in enumerate(places):
        if p:
            run.append(f"{x(k):.1f},{y(p):.1f}")
        elif run:
            runs.append(run)
            run = []
    runs += [run] if run else []
    lines = "".join(f"<polyline class=line points=\"{' '.join(r)}\" />" for r in runs if len(r) > 1)
    dots = "".join(f"<circle class=dot cx={x(k):.1f} cy={y(p):.1f} r=3.5><title>Race {k + 1}: {p}</title></circle>"
                   for k, p in enumerate(places) if p)
    label = escape(f"{name}: places " + ", ".join(str(p) if p else "-" for p in places), quote=True)
    return (f"<svg viewBox=\"0 0 {width} {height}\" role=img aria-label=\"{label}\" "
            f"xmlns=\"http://www.w3.org/2000/svg\">{''.join(marks)}{lines}{dots}</svg>")
