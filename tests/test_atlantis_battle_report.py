"""The battle in the faction's report: "Battles during turn:" in the server's layout in
text, escaped in HTML, as data in JSON; each faction sees only its own battle events and
only the factions it identifies; and the same seed gives byte-identical battle reports."""

from __future__ import annotations

import json

from atlantis_report_world import scenario

from engine import registry
from engine.dice import Dice
from engine.events import EventLog
from engine.rulesets.atlantis.combat import Combatant, fight
from engine.rulesets.atlantis.combat.report import battle_events, battle_lines

RS = registry.get("atlantis")
WHERE = "plain (11,15) in Turia"


def _armies():
    attackers = [
        Combatant(15, 14, 12, name="Hans <b>Shadowspawn</b>", faction_name="Pranksters",
                  levels={"combat": 2, "tactics": 1, "riding": 1},
                  items={"sword": 12, "horse": 6, "silver": 300}),
        Combatant(16, 14, 1, name="Merlin", faction_name="Pranksters",
                  levels={"magic": 3, "fireball": 3}, combat_spell="fireball", behind=True,
                  items={"amulet of true seeing": 1}),
        Combatant(17, 14, 5, name="Archers", faction_name="Pranksters", behind=True,
                  levels={"longbow": 2}, items={"longbow": 5})]
    defenders = [
        Combatant(13, 3, 30, name="Vox Populi", faction_name="The Silent",
                  levels={"combat": 1}, items={"chain armor": 10, "silver": 900}, protected=10,
                  identified_by=frozenset()),
        Combatant(9, 7, 4, name="Crossbows", faction_name="Red Dragon Clan",
                  levels={"crossbow": 1}, items={"crossbow": 4}, identified_by=frozenset({14}))]
    return attackers, defenders


def _battle(seed: int):
    a, d = _armies()
    return fight(a, d, terrain="plain", dice=Dice(seed, "battle", 622))


def test_the_same_seed_gives_byte_identical_battle_reports():
    for viewer in (14, 3, 7):
        one = "\n".join(battle_lines(_battle(42), viewer, where=WHERE)).encode()
        two = "\n".join(battle_lines(_battle(42), viewer, where=WHERE)).encode()
        assert one == two
    assert battle_lines(_battle(42), 14, where=WHERE) != battle_lines(_battle(43), 14, where=WHERE)


def test_a_faction_sees_only_the_factions_it_identifies():
    r = _battle(5)
    mine = battle_lines(r, 14, where=WHERE)
    assert "Vox Populi (13), 30 men [MAN], 10 chain armor [CARM], combat 1." in mine
    assert any(ln.startswith("Crossbows (9), Red Dragon Clan (7),") for ln in mine)
    theirs = "\n".join(battle_lines(r, 3, where=WHERE))
    assert "Vox Populi (13), The Silent (3)," in theirs        # its own unit
    assert "Crossbows (9), 4 men" in theirs                   # 7 not identified by 3
    assert "amulet" not in theirs and "silver" not in theirs.split("Spoils:")[0]


def _report(tmp_path, fmt: str, seed: int = 8):
    scen = scenario(tmp_path)
    state = RS.initial_state(scen)
    log = EventLog()
    for e in battle_events(_battle(seed), 622, (14, 3), where=WHERE):
        log.emit(e)
    return RS.render(RS.report(state, log, 14, scen), fmt)


def test_battles_during_turn_in_text_html_and_json(tmp_path):
    lines = battle_lines(_battle(8), 14, where=WHERE)
    text = _report(tmp_path, "text")
    block = text.split("Battles during turn:\n", 1)[1].split("Events during turn:")[0]
    assert block.startswith("Hans <b>Shadowspawn</b> (15) attacks Vox Populi (13) in "
                            "plain (11,15)\n  in Turia!\n\nAttackers:\n")   # wrapped at 70
    assert "Total Casualties:" in block and "Spoils:" in block
    assert all(ln in text for ln in lines if len(ln) < 60)
    page = _report(tmp_path, "html")
    assert "Hans &lt;b&gt;Shadowspawn&lt;/b&gt; (15) attacks" in page and "<b>Shadowspawn" not in page
    data = json.loads(_report(tmp_path, "json"))
    (battle,) = data["battles"]
    assert battle["lines"] == lines and battle["winner"] in ("attackers", "defenders", "")
    assert battle["attacking_unit"] == 15 and battle["target_unit"] == 13


def test_the_gm_reads_each_battle_once_with_every_faction(tmp_path):
    events = battle_events(_battle(8), 622, (14, 3), where=WHERE)
    assert [e.faction for e in events] == [0, 3, 14]
    gm = "\n".join(events[0].lines)
    assert "Vox Populi (13), The Silent (3)," in gm and "Crossbows (9), Red Dragon Clan (7)," in gm
    scen = scenario(tmp_path)
    log = EventLog()
    for e in events:
        log.emit(e)
    text = RS.render(RS.report(RS.initial_state(scen), log, None, scen), "text")
    assert text.count("attacks Vox Populi (13)") == 1
