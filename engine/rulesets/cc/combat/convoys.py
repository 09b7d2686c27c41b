"""A convoy as combat sees it: single vehicles with their own damage, troops, rockets,
experts and the modifiers of [CONVOY STATISTICS] and [COMBAT AGAINST CONVOYS].

`CombatConvoy.from_state` builds one from the state's rows (the vehicle stacks are split
into single vehicles so each can take its own damage); `fleet()` and `damage_by_type()`
turn the result back into stacks for the state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from engine.rulesets.cc.catalog import Book
from engine.rulesets.cc.combat.rules import CombatRules, condition_pct, parse_damage, scale
from engine.rulesets.cc.convoy_stats import expert_pct, more_morale


@dataclass
class CombatVehicle:
    type: str
    vclass: str = "small_combat"
    size: int = 3
    hit_points: int = 30        # Armsmaster's +10% included
    damage_dice: str = "2d6+1"
    troops: int = 3             # capacity it gives the convoy
    scrap_parts: int = 6
    damage: int = 0             # hit points lost so far
    destroyed: bool = False

    @property
    def left(self) -> int:
        return max(0, self.hit_points - self.damage)

    def max_damage(self) -> int:
        n, sides, plus = parse_damage(self.damage_dice)
        return n * sides + plus


@dataclass
class CombatConvoy:
    id: int
    owner: int = 0
    type: str = "land"
    vehicles: list[CombatVehicle] = field(default_factory=list)
    troops: int = 0
    rockets: int = 0
    morale: int = 30
    training: int = 30
    health: int = 100
    experts: frozenset[str] = frozenset()
    kill_mode: str = "N"        # N | T | V (T and V need a Gunner)
    police: bool = False        # visited a Police Station this turn
    patrolling: bool = False
    hunting: bool = False
    hidden: bool = False
    in_water: bool = False      # amphibious convoys fight at half on open water (X25)
    troop_capacity_pct: int = 100   # a Politician's +15%
    morale_gain_pct: int = 0        # a Gourmet's share more morale gained (X251)

    # ---- building ------------------------------------------------------------------

    @classmethod
    def build(cls, book: Book, id: int, fleet: dict[str, int] | Iterable[tuple[str, int]],
              experts: Collection[str] = (), **kw) -> CombatConvoy:
        """From vehicle counts (`{"truck": 1}`) and expert codes, with the catalogs'
        figures; other fields (troops, morale...) as keywords."""
        items = fleet.items() if isinstance(fleet, dict) else fleet
        experts = frozenset(experts)
        hp_pct = 100 + expert_pct(book, "ARM", experts)
        vehicles = []
        for vtype, count in items:
            row = book.vehicles[vtype]
            for _ in range(count):
                vehicles.append(CombatVehicle(
                    vtype, row["class"], row["size"], row["hit_points"] * hp_pct // 100,
                    row["damage"], row["troops"], row["scrap_parts"]))
        kw.setdefault("troop_capacity_pct", 100 + expert_pct(book, "POL", experts))
        kw.setdefault("morale_gain_pct", expert_pct(book, "GOU", experts))
        if "GUN" not in experts:
            kw["kill_mode"] = "N"       # the Kill Mode reverts without a Gunner
        return cls(id, vehicles=vehicles, experts=experts, **kw)

    @classmethod
    def from_state(cls, book: Book, convoy, vehicles: Iterable, experts: Iterable,
                   game_turn: int = 0, **kw) -> CombatConvoy:
        """From a cc state Convoy, its Vehicle rows and Expert rows (or codes). A stack's
        recorded damage falls on its first vehicles."""
        vehicles = list(vehicles)
        codes = [e if isinstance(e, str) else e.code for e in experts]
        c = cls.build(book, convoy.id, [(v.type, v.count) for v in vehicles], codes,
                      owner=convoy.owner, type=convoy.type, troops=convoy.troops,
                      rockets=convoy.rockets, morale=convoy.morale, training=convoy.training,
                      health=convoy.health, kill_mode=convoy.kill_mode,
                      police=bool(game_turn) and convoy.police_turn == game_turn,
                      patrolling=convoy.patrolling, hidden=convoy.hidden, **kw)
        for stack in vehicles:
            owed = stack.damage
            for v in c.vehicles:
                if owed <= 0:
                    break
                if v.type == stack.type and not v.damage:
                    v.damage = min(owed, v.hit_points - 1)
                    owed -= v.damage
        return c

    # ---- what it has left ----------------------------------------------------------------

    @property
    def alive(self) -> list[CombatVehicle]:
        return [v for v in self.vehicles if not v.destroyed]

    @property
    def wiped_out(self) -> bool:
        return not self.alive

    def size(self) -> int:
        return sum(v.size for v in self.alive)

    def troop_capacity(self) -> int:
        return sum(v.troops for v in self.alive) * self.troop_capacity_pct // 100

    def rocket_launchers(self) -> int:
        return sum(1 for v in self.alive if v.vclass == "large_assault")

    def morale_gain(self, gain: int, rules: CombatRules) -> int:
        """A morale gain of this convoy's (X55), raised by its Gourmet (X251)."""
        return more_morale(gain, self.morale_gain_pct if rules.gourmet_morale else 0)

    def fleet(self) -> dict[str, int]:
        return dict(Counter(v.type for v in self.alive))

    def damage_by_type(self) -> dict[str, int]:
        out: Counter[str] = Counter()
        for v in self.alive:
            out[v.type] += v.damage
        return dict(out)

    def write_to(self, convoy, vehicles: Iterable) -> dict[str, int]:
        """Write the outcome back to a cc state Convoy (troops, rockets, hidden, morale,
        training) and its Vehicle rows' damage; returns, per vehicle type, how many to add (negative: remove)
        so the rows match the survivors - the turn's own `add_vehicles` does that."""
        convoy.troops, convoy.rockets, convoy.hidden = self.troops, self.rockets, self.hidden
        convoy.morale, convoy.training = self.morale, self.training
        now, damage = self.fleet(), self.damage_by_type()
        had: Counter[str] = Counter()
        for row in vehicles:     # a type's damage goes on its first row
            row.damage = 0 if row.type in had else damage.get(row.type, 0)
            had[row.type] += row.count
        return {t: now.get(t, 0) - n for t, n in had.items() if now.get(t, 0) != n}

    # ---- the book's modifiers ----------------------------------------------------------

    def damage_pct(self, rules: CombatRules) -> int:
        """Percent of a salvo after training, morale, health, Gunner, Pilot and Police."""
        pct = 100 + condition_pct(rules, self.training, self.morale, self.health)
        pct += rules.gunner_pct if "GUN" in self.experts else 0
        pct += rules.pilot_pct if "PIL" in self.experts else 0
        if self.police and rules.police_convoy:
            pct += rules.police_pct * (2 if "SER" in self.experts else 1)
        return pct

    def strength(self, rules: CombatRules, enemy: CombatConvoy | None = None,
                 defending: bool = False) -> int:
        """What its commander weighs: the most damage it can still do in a round (vehicles'
        best rolls, 1 a troop, 20 a rocket) with its modifiers (X32, X33)."""
        base = sum(v.max_damage() for v in self.alive) + self.troops
        base += 20 * min(self.rockets, self.rocket_launchers())
        return scale(scale(base, self.damage_pct(rules)), self.situation_pct(rules, enemy, defending))

    def situation_pct(self, rules: CombatRules, enemy: CombatConvoy | None,
                      defending: bool) -> int:
        """An air convoy attacked by a non-air one (as the defender only, X170), and an
        amphibious convoy on open water (X25), fight at half."""
        pct = 100
        if defending and self.type == "air" and enemy is not None and enemy.type != "air":
            pct = pct * rules.air_defending_pct // 100
        if self.type == "amphibious" and self.in_water:
            pct = pct * rules.amphibious_water_pct // 100
        return pct
