"""`realmsmith map ...` end to end through app.cli.main (in-process)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import tinyrules  # noqa: F401 - registers the tiny rulesets
from test_mapio_fixtures import sample_map

from app.cli import EXIT_INPUT, EXIT_OK, EXIT_OPEN, EXIT_USAGE, main
from engine.mapfile import load_map, save_map
from engine.mapio import import_map


def test_new_and_info(tmp_path, capsys):
    out = tmp_path / "blank.rsmap"
    assert main(["map", "new", str(out), "--kind", "hex", "--size", "12x9", "--orientation", "pointy",
                 "--terrain", "ocean", "--name", "Blank"]) == EXIT_OK
    m = load_map(out)
    assert (m.grid.width, m.grid.height, m.grid.orientation, m.name) == (12, 9, "pointy", "Blank")
    assert set(m.terrain_names()) == {"ocean"}
    capsys.readouterr()
    assert main(["map", "info", str(out)]) == EXIT_OK
    text = capsys.readouterr().out
    assert "hex 12x9 pointy-topped, 108 cells" in text and "ocean 108 (100%)" in text


def test_generate_is_deterministic_and_info_json(tmp_path, capsys):
    a, b = tmp_path / "a.rsmap", tmp_path / "b.tmx"
    args = ["--size", "40x32", "--seed", "9", "--style", "atlantis"]
    assert main(["map", "generate", str(a), *args]) == EXIT_OK
    assert main(["map", "generate", str(b), *args]) == EXIT_OK
    assert load_map(a).to_dict() == import_map(b).to_dict()
    capsys.readouterr()
    assert main(["map", "info", str(b), "--json"]) == EXIT_OK
    info = json.loads(capsys.readouterr().out)
    assert info["cells"] == 40 * 32 and len([x for x in info["areas"] if x["kind"] == "island"]) == 8
    assert set(info["terrain"]) <= {"ocean", "plain", "forest", "mountain", "swamp"}


def test_generate_kok_square(tmp_path):
    out = tmp_path / "kok.rsmap"
    assert main(["map", "generate", str(out), "--kind", "square", "--size", "30x30", "--seed", "2",
                 "--ruleset", "kok", "--cities", "4"]) == EXIT_OK
    m = load_map(out)
    assert "sea" in m.terrain_names() and m.kind == "square" and 1 <= len(m.sites) <= 4


@pytest.mark.parametrize("src_ext,dst_ext", [("rsmap", "tmj"), ("tmj", "tmx"), ("tmx", "geojson"),
                                             ("geojson", "rsmap.gz"), ("rsmap", "json")])
def test_convert_chain_keeps_the_map(tmp_path, src_ext, dst_ext):
    m = sample_map("hex")
    src = tmp_path / f"in.{src_ext}"
    from engine.mapio import export_map

    export_map(m, src)
    out = tmp_path / f"out.{dst_ext}"
    extra = ["--to", "geojson"] if dst_ext == "json" else []
    assert main(["map", "convert", str(src), str(out), *extra]) == EXIT_OK
    assert import_map(out).to_dict() == m.to_dict()


def test_export_everything(tmp_path):
    src = tmp_path / "m.rsmap"
    save_map(sample_map("square"), src)
    outs = {k: tmp_path / f"x.{k}" for k in ("svg", "geojson", "tmj", "tmx", "png")}
    assert main(["map", "export", str(src), "--svg", str(outs["svg"]), "--grid", "--coords",
                 "--geojson", str(outs["geojson"]), "--merged", "--tmj", str(outs["tmj"]),
                 "--tmx", str(outs["tmx"]), "--layer-format", "zlib",
                 "--png", str(outs["png"]), "--scale", "4"]) == EXIT_OK
    assert outs["svg"].read_text().startswith("<svg")
    assert json.loads(outs["geojson"].read_text())["type"] == "FeatureCollection"
    assert (tmp_path / "x.terrain.png").exists()
    assert 'compression="zlib"' in outs["tmx"].read_text()
    assert outs["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_map_from_a_game_database(tmp_path, capsys):
    db = tmp_path / "g.db"
    assert main(["new", str(db), "--ruleset", "tiny", "--seed", "5"]) == EXIT_OK
    capsys.readouterr()
    assert main(["map", "info", str(db)]) == EXIT_OK
    assert "square 4x3" in capsys.readouterr().out
    assert main(["map", "export", str(db), "--tmj", str(tmp_path / "g.tmj")]) == EXIT_OK
    m = import_map(tmp_path / "g.tmj")
    assert m.sites[1].name == "Ur" and m.areas["West"].cells == {0, 4}


@pytest.mark.parametrize("argv,code,needle", [
    (["map", "info", "{d}/missing.tmx"], EXIT_INPUT, "missing.tmx: cannot read"),
    (["map", "info", "{d}/bad.tmj"], EXIT_INPUT, "bad.tmj: the file is empty"),
    (["map", "convert", "{d}/bad.tmj", "{d}/out.tmx"], EXIT_INPUT, "bad.tmj"),
    (["map", "new", "{d}/x.rsmap", "--size", "0x5"], EXIT_USAGE, "--size '0x5'"),
    (["map", "new", "{d}/x.rsmap", "--size", "big"], EXIT_USAGE, "WIDTHxHEIGHT"),
    (["map", "new", "{d}/x.weird", "--size", "5x5"], EXIT_INPUT, "x.weird: cannot tell the format"),
    (["map", "new", "{d}/nofolder/x.rsmap", "--size", "5x5"], EXIT_INPUT, "does not exist"),
    (["map", "generate", "{d}/a.rsmap", "--size", "10x10", "--style", "atlantis"], EXIT_INPUT,
     "a.rsmap: an atlantis map for 8 players needs"),
    (["map", "export", "{d}/bad.tmj"], EXIT_USAGE, "name at least one of"),
    (["map", "info", "{d}/fake.db"], EXIT_OPEN, "fake.db: cannot open the game"),
    (["map"], EXIT_USAGE, "ACTION"),
])
def test_errors_name_the_file(tmp_path, capsys, argv, code, needle):
    (tmp_path / "bad.tmj").write_bytes(b"")
    (tmp_path / "fake.db").write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    assert main([a.format(d=tmp_path) for a in argv]) == code
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_cli_module_does_not_import_qt():
    code = ("import sys, app.cli.map_cmd as m, argparse; p = argparse.ArgumentParser(); "
            "m.register(p.add_subparsers()); print(any(k.startswith('PySide6') for k in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
