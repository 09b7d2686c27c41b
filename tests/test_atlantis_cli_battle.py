"""End to end through the command line: `realmsmith new` from a scenario file, `import` of
an orders file with an ATTACK, `run`, then `report`: the battle is in each side's text
report under "Battles during turn:" (the section players' tools read), with its sides,
rounds, casualties and spoils."""

from __future__ import annotations

from app.cli import main

SCENARIO = '''format = 1
ruleset = "atlantis"
name = "Skirmish"
[[factions]]
number = 1
name = "Raiders"
[[factions]]
number = 2
name = "Farmers"
[map]
kind = "hex"
grid = { kind = "hex", width = 3, height = 2, orientation = "flat" }
terrain_rows = ["opp", "pfo"]
areas = [ { name = "Turia", kind = "province", cells = ["(1,1)", "(2,0)"] } ]
[state.factions]
rows = [ { number = 1, name = "Raiders" }, { number = 2, name = "Farmers" } ]
[state.regions]
rows = [ { cell = "(1,1)", terrain = "plain", peasants = 800, silver = 2500, wages = 15 } ]
[state.units]
rows = [ { number = 5, faction = 1, cell = "(1,1)", name = "Reavers", men = 10, seq = 1 },
         { number = 7, faction = 2, cell = "(1,1)", name = "Hayward", men = 1, seq = 2 },
         { number = 8, faction = 2, cell = "(1,1)", name = "Reeve", men = 1, seq = 3 } ]
[state.unit_items]
rows = [ { unit = 5, item = "silver", count = 200 }, { unit = 5, item = "sword", count = 10 },
         { unit = 7, item = "silver", count = 50 }, { unit = 8, item = "silver", count = 50 } ]
[state.unit_skills]
rows = [ { unit = 5, skill = "combat", days = 900 } ]
'''


def test_a_battle_reaches_the_players_text_reports_through_the_cli(tmp_path, capsys):
    (tmp_path / "war.toml").write_text(SCENARIO)
    (tmp_path / "raid.txt").write_text("#atlantis 1\nunit 5\nATTACK 7\n#end\n")
    db = str(tmp_path / "g.db")
    assert main(["new", db, "--scenario", str(tmp_path / "war.toml"), "--seed", "4"]) == 0
    assert main(["import", db, str(tmp_path / "raid.txt")]) == 0
    assert main(["run", db, "--quiet"]) == 0
    capsys.readouterr()
    texts = {}
    for f in (1, 2):
        assert main(["report", db, "--faction", str(f)]) == 0
        texts[f] = capsys.readouterr().out
    for f, text in texts.items():
        head, _, rest = text.partition("Battles during turn:\n")
        assert rest, f"faction {f}: no 'Battles during turn:' section"
        battle, _, after = rest.partition("Events during turn:")
        assert battle.startswith("Reavers (5) attacks Hayward (7) in plain (1,1) in Turia!")
        for part in ("Attackers:\nReavers (5), ", "10 men [MAN], 10 swords [SWOR]",
                     "Defenders:\nHayward (7), ", "\nReeve (8), ",
                     "Round 1:", "Total Casualties:", "Spoils:"):
            assert part in battle, f"faction {f}: {part!r} not in\n{battle}"
        assert "Atlantis Report For:" in head and "Faction Status:" in head
    # nobody's Observation beats the other side's Stealth: each side names only its own faction
    assert "Hayward (7), man [MAN]." in texts[1] and "Hayward (7), Farmers (2)" in texts[2]
    assert "Reavers (5), Raiders (1)" in texts[1] and "Reavers (5), 10 men" in texts[2]
    assert "Reavers (5) attacks Hayward (7)" not in texts[1].partition("Events during turn:")[2]


def test_the_last_faction_standing_ends_the_game(tmp_path, capsys):
    """The farmers lose their last units: the raiders are the last faction in the game, the
    status says the game is finished (option victory, the book's closed-ended aim)."""
    from engine.service import GameService

    (tmp_path / "war.toml").write_text(SCENARIO)
    (tmp_path / "raid.txt").write_text("#atlantis 1\nunit 5\nATTACK 7\n#end\n")
    db = str(tmp_path / "g.db")
    assert main(["new", db, "--scenario", str(tmp_path / "war.toml"), "--seed", "4"]) == 0
    with GameService.open(db) as s:
        assert not s.status().finished
    assert main(["import", db, str(tmp_path / "raid.txt")]) == 0
    assert main(["run", db, "--quiet"]) == 0
    with GameService.open(db) as s:
        assert s.status().finished
    capsys.readouterr()
    assert main(["report", db, "--faction", "2"]) == 0
    assert "Raiders (1) is the last faction standing and wins the game." in capsys.readouterr().out
