"""Atlantis option report_formats: `text` writes the text report and the orders template
alone, as the Atlantis server does; the text is the same as with all three formats, and
player text is cleaned of control characters all the same."""

from __future__ import annotations

from engine import registry
from engine.service import GameService
from tests.atlantis_generated import run_generated

RS = registry.get("atlantis")


def _game(tmp_path, name: str, formats: str, faction_name: str = "") -> GameService:
    def adjust(scen):
        scen.options.set("report_formats", formats)
        if faction_name:  # as the faction is in the starting state
            scen.factions[1].name = faction_name
            next(f for f in scen.initial.tables["factions"] if f.number == 2).name = faction_name
    return run_generated(tmp_path, name, 7, adjust=adjust)


def test_text_alone_writes_the_server_s_files_with_the_same_text(tmp_path):
    every, text = _game(tmp_path, "all", "all"), _game(tmp_path, "text", "text")
    assert RS.formats(every.scenario) == ("text", "html", "json")
    assert RS.formats(text.scenario) == ("text",)
    with text.store.reading() as c:
        assert {fmt for _who, fmt in text.store.report_keys(c, 1)} == {"text"}
    a = {p.name: p.read_bytes() for p in every.export(tmp_path / "a")}
    b = {p.name: p.read_bytes() for p in text.export(tmp_path / "b", gm=True)}
    assert sorted(n for n in a if n.endswith(".txt")) == sorted(n for n in b if "-gm." not in n)
    for p in text.export(tmp_path / "b2"):
        assert p.suffix == ".txt"
        assert p.read_bytes() == (tmp_path / "a" / p.name).read_bytes()
    assert text.report(1, None, "text").startswith("Atlantis Report For:")  # the GM's, when asked
    every.close()
    text.close()


def test_text_alone_is_cleaned_of_control_characters(tmp_path):
    svc = _game(tmp_path, "g", "text", faction_name="Evil\x1b[2J\u202e Folk")
    mine = svc.report(1, 2, "text")
    assert "Evil" in mine and "\x1b" not in mine and "\u202e" not in mine
    svc.close()


def test_a_text_alone_bundle_opens_with_its_report_and_template(tmp_path):
    from engine.bundle import open_bundle, write_bundle
    from engine.viewer_model import from_bundle

    svc = _game(tmp_path, "g", "text")
    path = write_bundle(svc, 3, tmp_path / "f3.rsbundle")
    view = from_bundle(open_bundle(path))
    assert view.report_text.startswith("Atlantis Report For:") and "Faction 3" in view.report_text
    assert view.template.startswith("#atlantis 3")
    svc.close()
