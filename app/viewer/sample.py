"""Make the packaged sample bundles from the King of Kings demo (deterministic):

    python -m app.viewer.sample            # writes resources/samples/kok-demo-t00N-f01.rsbundle

The demo game is created in a temporary folder, its scripted orders are run for four
turns, and faction 1's bundles of turns 3 and 4 are written (open both to see merging).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

TURNS = 4
FACTION = 1
KEEP = (3, 4)


def make_demo_game(folder: Path, turns: int = TURNS) -> Path:
    """The KoK demo game with `turns` turns run, as `realmsmith demo` makes it."""
    from engine import registry
    from engine.service import GameService

    rs = registry.get("kok")
    scen, script = rs.demo()
    db = folder / "kok-demo.db"
    with GameService.create(db, scen) as svc:
        for turn in range(1, turns + 1):
            for faction, text in sorted(script.get(turn, {}).items()):
                svc.import_text(text, "file", f"faction-{faction:02d}.txt",
                                received_at=f"2026-01-{turn:02d}T12:00:00Z", faction=faction)
            svc.run()
    return db


def _fix_clock(path: Path, since: str, when: str = "2026-01-01T00:00:00Z") -> None:
    """Set the file's creation times (anything stamped since the script started) to a
    fixed time, so the same demo gives byte-identical sample files."""
    import sqlite3

    con = sqlite3.connect(path)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for t in tables:
            for col in [r[1] for r in con.execute(f'PRAGMA table_info("{t}")')]:
                con.execute(f'UPDATE "{t}" SET "{col}" = ? WHERE typeof("{col}") = \'text\' '
                            f'AND "{col}" GLOB \'20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*\' '
                            f'AND length("{col}") <= 32 AND "{col}" >= ?', (when, since))
        con.commit()
    finally:
        con.close()
    _canonical_copy(path)


def _canonical_copy(path: Path) -> None:
    """Rewrite the file with its tables, rows and indexes in a fixed order (the schema
    creates indexes in an order that varies between runs, which moves pages around)."""
    import sqlite3

    tmp = path.with_name(path.name + ".canon")
    tmp.unlink(missing_ok=True)
    src, dst = sqlite3.connect(path), sqlite3.connect(tmp)
    try:
        master = sorted(src.execute("SELECT type, name, sql FROM sqlite_master "
                                    "WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"))
        for kind, name, sql in master:
            if kind == "table":
                dst.execute(sql)
                cols = len(src.execute(f'SELECT * FROM "{name}" LIMIT 0').description)
                marks = ", ".join("?" * cols)
                dst.executemany(f'INSERT INTO "{name}" VALUES ({marks})',
                                src.execute(f'SELECT * FROM "{name}" ORDER BY rowid'))
        for kind, _name, sql in master:
            if kind != "table":
                dst.execute(sql)
        for (v,) in src.execute("PRAGMA user_version"):
            dst.execute(f"PRAGMA user_version = {int(v)}")
        dst.commit()
        dst.execute("VACUUM")
    finally:
        src.close()
        dst.close()
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    from app.viewer import resources_dir
    from engine.bundle import write_bundle
    from engine.db.store import now_iso
    from engine.service import GameService

    since = now_iso()
    out = resources_dir() / "samples"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = make_demo_game(Path(tmp))
        with GameService.open(db) as svc:
            for step in KEEP:
                p = write_bundle(svc, FACTION, out / f"kok-demo-t{step:03d}-f{FACTION:02d}.rsbundle", step)
                _fix_clock(p, since)
                print(f"{p} ({p.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
