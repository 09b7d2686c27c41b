"""The actions: each checks everything first (raising Impossible leaves the state untouched),
then charges its AP and carries itself out, emitting typed events."""

from __future__ import annotations

from typing import Any

from engine.rulesets.coi import actions as A
from engine.rulesets.coi import battle
from engine.rulesets.coi.catalog import GOODS
from engine.rulesets.coi.events import (
    AllianceBroken,
    AllianceDeclared,
    Battle,
    Built,
    EndVoted,
    ExpeditionSent,
    Harvested,
    HexTaken,
    Moved,
    PlayerSplit,
    Recruited,
    TradeAccepted,
    TradeOffered,
    TradeRescinded,
)
from engine.rulesets.coi.state import Offer, Player
from engine.rulesets.coi.world import Impossible, World


class Act:
    """One action of one player at one time."""

    def __init__(self, world: World, player: Player, time: str):
        self.w, self.p, self.time = world, player, time

    def pay(self, ap: int) -> int:
        if ap > self.p.ap:
            raise Impossible(f"needs {ap} AP, has {self.p.ap}")
        self.p.ap -= ap
        return ap

    def goods(self, p: Player, need: dict[str, int]) -> None:
        short = [f"{n} {g} (has {getattr(p, g)})" for g, n in need.items() if getattr(p, g) < n]
        if short:
            raise Impossible(f"{p.name} lacks " + ", ".join(short))

    # ---- picking units ----------------------------------------------------------------

    def pick(self, cell: int, units: A.UnitList, owner: int | None = None) -> list[tuple[str, int]]:
        owner = self.p.number if owner is None else owner
        comp = dict(self.w.composition(cell, owner))
        if not comp:
            raise Impossible(f"{self.w.name(owner)} has no units at {self.w.label(cell)}")
        out: dict[str, int] = {}
        for uid, count in units:
            if uid == "*":
                for u, n in comp.items():
                    out[u] = n
                continue
            have = comp.get(uid, 0)
            want = have if count is None else count
            if want == 0 or have < out.get(uid, 0) + want:
                raise Impossible(f"has {have} {self.w.rules.label(uid, have)} at {self.w.label(cell)}, "
                                 f"not {out.get(uid, 0) + want}")
            out[uid] = out.get(uid, 0) + want
        return sorted(out.items(), key=lambda kv: self.w.rules.order(kv[0]))

    # ---- harvest ------------------------------------------------------------------------

    def harvest(self, o: A.Harvest) -> int:
        w, me = self.w, self.p.number
        linked = w.linked(me)
        got = dict.fromkeys(GOODS, 0)
        cut_off = 0
        producing = []
        for h in w.state["hexes"]:
            if h.owner != me:
                continue
            t = w.terrain(h.cell)
            if not any(t[g] for g in GOODS):
                continue
            if t["stock"] and h.harvested >= t["stock"]:
                continue  # a used-up ruin
            if h.cell not in linked:
                cut_off += 1
                continue
            producing.append((h, t))
        ap = self.pay(w.rules.ap("harvest"))
        for h, t in producing:
            for g in GOODS:
                got[g] += t[g]
            if t["stock"]:
                h.harvested += 1
        for g in GOODS:
            setattr(self.p, g, getattr(self.p, g) + got[g])
        w.emit(Harvested(me, got["food"], got["wood"], got["iron"], cut_off))
        return ap

    # ---- build and recruit ----------------------------------------------------------------

    def build(self, o: A.Build) -> int:
        w, me = self.w, self.p.number
        cell = w.cell(o.at)
        b = w.rules.buildings.get(o.building)
        if b is None:
            raise Impossible(f"{o.building} is not a building of this game")
        t = w.terrain(cell)
        if w.owner(cell) != me:
            raise Impossible(f"{w.label(cell)} is not your hex")
        if not t["buildable"]:
            raise Impossible(f"nothing can be built on {t['name']}")
        if w.building(cell):
            raise Impossible(f"{w.label(cell)} has a {w.building(cell)} already")
        if b["shore_only"] and not any(w.map.terrain_at(n) == "shallow" for n in w.grid.neighbours(cell)):
            raise Impossible(f"a {b['name']} must be built next to shallow water")
        self.goods(self.p, {"wood": b["wood"]})
        ap = self.pay(w.rules.ap("build"))
        self.p.wood -= b["wood"]
        w.hex_for(cell).building = o.building
        w.emit(Built(me, cell, o.building, b["wood"]))
        return ap

    def recruit(self, o: A.Recruit) -> int:
        w, me = self.w, self.p.number
        cell = w.cell(o.at)
        t = w.terrain(cell)
        ships = {w.is_ship(u) for u, _ in o.units}
        if len(ships) > 1:
            raise Impossible("ships and land units are recruited in different places; use two lines")
        if ships == {True}:
            if not t["water"] or t["deep"]:
                raise Impossible(f"ships are recruited on shallow water next to your port, not on {t['name']}")
            if not any(w.owner(n) == me and w.building(n) == "port" for n in w.grid.neighbours(cell)):
                raise Impossible(f"{w.label(cell)} is not next to a port of yours")
            if any(s.owner != me and not w.allied(s.owner, me) for s in w.stacks(cell)):
                raise Impossible(f"enemy ships hold {w.label(cell)}")
        else:
            if w.owner(cell) != me:
                raise Impossible(f"{w.label(cell)} is not your hex")
            if not w.rules.buildings.get(w.building(cell), {}).get("land_recruitment"):
                raise Impossible(f"{w.label(cell)} has no recruitment centre")
        need = dict.fromkeys(GOODS, 0)
        n_units = 0
        for uid, count in o.units:
            u = w.rules.units[uid]
            if u["availability"] not in ("all", t["id"]):
                raise Impossible(f"{u['plural']} are recruited only on {u['availability']}")
            for g in GOODS:
                need[g] += u[g] * count
            n_units += count
        self.goods(self.p, need)
        ap = self.pay(w.rules.ap("recruit") * n_units)
        for g in GOODS:
            setattr(self.p, g, getattr(self.p, g) - need[g])
        for uid, count in o.units:
            u = w.rules.units[uid]
            w.add(cell, me, uid, count)
            w.emit(Recruited(me, cell, uid, count, u["food"] * count, u["wood"] * count, u["iron"] * count))
        w.crowding_check(cell, me)
        return ap

    # ---- move and attack --------------------------------------------------------------------

    def _force(self, o: A.Move | A.Attack) -> tuple[int, int, list[tuple[str, int]], list[tuple[str, int]], int]:
        """Origin, destination, units moving under their own power, cargo carried, AP cost."""
        w, me = self.w, self.p.number
        a, b = w.cell(o.frm), w.cell(o.to)
        if not w.grid.are_neighbours(a, b):
            raise Impossible(f"{w.label(a)} and {w.label(b)} are not adjacent")
        ta, tb = w.terrain(a), w.terrain(b)
        force = self.pick(a, o.units)
        if o.units == [("*", None)] and ta["water"] and not tb["water"]:
            force = [(u, n) for u, n in force if not w.is_ship(u)]   # "all" lands what is aboard
            if not force:
                raise Impossible(f"no land units aboard at {w.label(a)}")
        ships = [(u, n) for u, n in force if w.is_ship(u)]
        land = [(u, n) for u, n in force if not w.is_ship(u)]
        if ships and not tb["water"]:
            raise Impossible("ships move only on water")
        cargo: list[tuple[str, int]] = []
        if ta["water"]:
            comp = dict(w.composition(a, me))
            moving_tr = sum(n for u, n in ships if w.rules.units[u]["transport"])
            staying_tr = sum(n for u, n in comp.items() if w.rules.units[u]["transport"]) - moving_tr
            aboard = {u: n for u, n in comp.items() if not w.is_ship(u)}
            if tb["water"] and ships and not land and aboard:
                room = moving_tr   # cargo goes with its transports, cheapest last
                for uid in sorted(aboard, key=lambda u: (-w.rules.cost(u), w.rules.order(u))):
                    k = min(room, aboard[uid])
                    if k:
                        cargo.append((uid, k))
                        room -= k
            left_aboard = sum(aboard.values()) - sum(n for _, n in land) - sum(n for _, n in cargo)
            if left_aboard > max(0, staying_tr):
                raise Impossible(f"{left_aboard} land units would be left at sea without transports")
        if tb["water"] and land:
            room = sum(n for u, n in w.composition(b, me) if w.rules.units[u]["transport"])
            room += sum(n for u, n in ships if w.rules.units[u]["transport"])
            aboard_b = sum(n for u, n in w.composition(b, me) if not w.is_ship(u))
            if aboard_b + sum(n for _, n in land) > room:
                raise Impossible(f"not enough transports at {w.label(b)} for the land units")
        carried = ta["water"] and tb["water"]
        slow = any(w.rules.units[u]["slow"] for u, _ in (ships if carried else force))
        ap = tb["move_cost"] + (1 if slow else 0)
        return a, b, force, cargo, ap

    def _shift(self, a: int, b: int, units: list[tuple[str, int]]) -> None:
        for uid, n in units:
            self.w.remove(a, self.p.number, uid, n)
            self.w.add(b, self.p.number, uid, n)

    def _take(self, cell: int) -> None:
        w = self.w
        if w.is_water(cell):
            return
        prev = w.owner(cell)
        if prev != self.p.number:
            w.hex_for(cell).owner = self.p.number
            w.emit(HexTaken(self.p.number, cell, prev))

    def _deep_water(self, cell: int, pool: list[tuple[str, int]], order: list[str]) -> None:
        """Entering or attacking in deep water costs one unit, and one only: the first of
        the player's loss order that can go, else the cheapest. Oceanfaring ships are
        immune; a transport whose loss would drown the cargo it carries is never taken
        (that would be a second loss)."""
        w = self.w
        if not w.terrain(cell)["deep"]:
            return
        have = dict(w.composition(cell, self.p.number))
        room = sum(n for u, n in have.items() if w.rules.units[u]["transport"])
        cargo = sum(n for u, n in have.items() if not w.is_ship(u))

        def can_go(u: str) -> bool:
            if not have.get(u) or w.rules.units[u]["oceanfaring"]:
                return False
            return not (w.rules.units[u]["transport"] and cargo > room - 1)

        cands = [u for u, _ in pool if can_go(u)]
        if not cands:
            return
        pick = next((u for u in order if u in cands), None) or w.cheapest_first(cands)[0]
        w.destroy(cell, self.p.number, pick, 1, "deep_water")

    def move(self, o: A.Move) -> int:
        w, me = self.w, self.p.number
        a, b, force, cargo, ap = self._force(o)
        owner = w.owner(b)
        if owner not in (0, me) and not w.allied(owner, me):
            raise Impossible(f"{w.label(b)} belongs to {w.name(owner)}; attack it instead")
        if any(s.owner != me and not w.allied(s.owner, me) for s in w.stacks(b)):
            raise Impossible(f"units of another player hold {w.label(b)}; attack them instead")
        ap = self.pay(ap)
        self._shift(a, b, force + cargo)
        w.emit(Moved(me, a, b, tuple(force + cargo)))
        if owner == 0:
            self._take(b)
        self._deep_water(b, force + cargo, o.losses)
        w.crowding_check(b, me)
        w.capacity_check(a)
        w.capacity_check(b)
        return ap

    def attack(self, o: A.Attack, free: bool = False) -> int:
        w, me = self.w, self.p.number
        a, b, force, cargo, ap = self._force(o)
        owner = w.owner(b)
        if owner == me:
            raise Impossible(f"{w.label(b)} is your own hex")
        defenders = [(s.owner, s.unit, s.count) for s in w.stacks(b) if s.owner != me]
        for d in sorted({owner, *(x[0] for x in defenders)} - {0}):
            if w.allied(me, d):
                raise Impossible(f"you declared alliance to {w.name(d)}; break it first")
        if any(not w.is_ship(u) for u, _ in force) and w.is_water(b):
            raise Impossible("only ships fight at sea")
        ap = 0 if free else self.pay(ap)
        fort = w.rules.buildings.get(w.building(b)) if w.building(b) == "fort" else None
        self._battle(a, b, force, cargo, defenders, owner, fort, o.losses)
        return ap

    def _battle(self, a: int, b: int, force: list[tuple[str, int]], cargo: list[tuple[str, int]],
                defenders: list[tuple[int, str, int]], owner: int, fort: dict[str, Any] | None,
                loss_order: list[str]) -> None:
        w, me = self.w, self.p.number
        if not defenders and not fort:
            self._shift(a, b, force + cargo)
            w.emit(Moved(me, a, b, tuple(force + cargo)))
            self._take(b)
            self._after_entry(a, b, force + cargo, loss_order)
            return
        tb = w.terrain(b)
        if tb["deep"] and defenders:   # the defender's cheapest unit goes before the battle
            cands = [u for _, u, _ in defenders if not w.rules.units[u]["oceanfaring"]]
            if cands:
                uid = w.cheapest_first(cands)[0]
                d_owner = next(o for o, u, _ in defenders if u == uid)
                w.destroy(b, d_owner, uid, 1, "deep_water")
                defenders = [(s.owner, s.unit, s.count) for s in w.stacks(b) if s.owner != me]
        origin_b = w.rules.buildings.get(w.building(a)) if w.building(a) == "fort" else None
        out, lost = self._fight(b, force, defenders, owner, fort, loss_order, origin_b)
        if out.attacker_won:
            for o_, uid, n in defenders:
                w.destroy(b, o_, uid, n, "annihilated")
            for (o_, uid), n in sorted(lost.items()):
                w.destroy(a, o_, uid, n, "battle")
            dead = {u: n for (o_, u), n in lost.items() if o_ == me}
            survivors = [(u, n - dead.get(u, 0)) for u, n in force if n > dead.get(u, 0)]
            self._shift(a, b, survivors + cargo)
            w.emit(Moved(me, a, b, tuple(survivors + cargo)))
            self._take(b)
            self._after_entry(a, b, survivors + cargo, loss_order)
        else:
            for uid, n in force + cargo:
                w.destroy(a, me, uid, n, "annihilated")
            for (o_, uid), n in sorted(lost.items()):
                w.destroy(b, o_, uid, n, "battle")
            w.capacity_check(a)
            w.capacity_check(b)

    def _fight(self, cell: int, force: list[tuple[str, int]], defenders: list[tuple[int, str, int]],
               owner: int, fort: dict[str, Any] | None, loss_order: list[str],
               origin_fort: dict[str, Any] | None) -> tuple[battle.Outcome, dict[tuple[int, str], int]]:
        """Resolve a battle in `cell` and emit it; the winner's losses by (owner, unit)."""
        w, me = self.w, self.p.number
        tb = w.terrain(cell)
        fighters_d = [d for d in defenders if not tb["water"] or w.is_ship(d[1])]  # cargo sits out
        att = [(me, u, n) for u, n in force]
        sa = battle.side(w.rules, att, fighters_d, True, tb, None, origin_fort)
        sd = battle.side(w.rules, fighters_d, att, False, tb, fort)
        out = battle.resolve(w.rules, sa, sd, loss_order)
        d_main = owner or (defenders[0][0] if defenders else 0)
        w.emit(Battle(me, d_main, cell, out.attack, out.defense, me if out.attacker_won else d_main,
                      out.damage, out.absorbed, tuple(force), tuple((u, n) for _, u, n in defenders),
                      tuple(out.loss_order)))
        lost: dict[tuple[int, str], int] = {}
        for f in out.losses:
            lost[(f.owner, f.unit)] = lost.get((f.owner, f.unit), 0) + 1
        return out, lost

    def _after_entry(self, a: int, b: int, pool: list[tuple[str, int]], order: list[str]) -> None:
        self._deep_water(b, pool, order)
        self.w.crowding_check(b, self.p.number)
        self.w.capacity_check(a)
        self.w.capacity_check(b)

    # ---- alliances -----------------------------------------------------------------------

    def _other(self, name: str) -> Player:
        other = self.w.player_named(name)
        if other is None:
            raise Impossible(f"{name!r} is not a player")
        if other.number == self.p.number:
            raise Impossible("that is yourself")
        return other

    def declare_alliance(self, o: A.DeclareAlliance) -> int:
        other = self._other(o.name)
        if self.w.allied(self.p.number, other.number):
            raise Impossible(f"already allied to {other.name}")
        ap = self.pay(self.w.rules.ap("declare_alliance"))
        self.w.ally(self.p.number, other.number, self.time)
        self.w.emit(AllianceDeclared(self.p.number, other.number))
        return ap

    def break_alliance(self, o: A.BreakAlliance) -> int:
        w, me = self.w, self.p.number
        other = self._other(o.name)
        if not (w.allied(me, other.number) or w.allied(other.number, me)):
            raise Impossible(f"there is no alliance with {other.name}")
        ap = self.pay(w.rules.ap("break_alliance"))
        w.state["alliances"][:] = [x for x in w.state["alliances"]
                                   if {x.player, x.ally} != {me, other.number}]
        w.emit(AllianceBroken(me, other.number))
        # Armies left in what is now enemy territory attack where they stand.
        for guest, host in ((me, other.number), (other.number, me)):
            for cell in sorted({s.cell for s in w.stacks_of(guest)}):
                if w.owner(cell) == host and not w.allied(guest, host):
                    Act(w, w.player(guest), self.time).fight_in_place(cell)
        return ap

    def fight_in_place(self, cell: int) -> None:
        w, me = self.w, self.p.number
        force = w.composition(cell, me)
        defenders = [(s.owner, s.unit, s.count) for s in w.stacks(cell) if s.owner != me]
        owner = w.owner(cell)
        fort = w.rules.buildings.get(w.building(cell)) if w.building(cell) == "fort" else None
        if not defenders and not fort:
            self._take(cell)
            return
        # The guests fight where they stand, as attackers, with the default loss order.
        out, lost = self._fight(cell, force, defenders, owner, fort, [], None)
        beaten = defenders if out.attacker_won else [(me, u, n) for u, n in force]
        for o_, uid, n in beaten:
            w.destroy(cell, o_, uid, n, "annihilated")
        for (o_, uid), n in sorted(lost.items()):
            w.destroy(cell, o_, uid, n, "battle")
        if out.attacker_won:
            self._take(cell)
        w.capacity_check(cell)

    # ---- trade ---------------------------------------------------------------------------

    def offer_trade(self, o: A.OfferTrade) -> int:
        w = self.w
        names = []
        for n in o.only_to:
            names.append(self._other(n).name)
        ap = self.pay(w.rules.ap("offer_trade"))
        game = w.state.one("game")
        num = game.next_offer
        game.next_offer += 1
        w.state["offers"].append(Offer(num, self.p.number,
                                       *(o.give.get(g, 0) for g in GOODS),
                                       *(o.want.get(g, 0) for g in GOODS),
                                       ",".join(names), self.time))
        w.emit(TradeOffered(self.p.number, num, tuple(sorted(o.give.items())),
                            tuple(sorted(o.want.items())), tuple(names)))
        return ap

    def _open_offer(self, number: int | None, by: Player | None) -> Offer:
        offers = self.w.state["offers"]
        if number is not None:
            hit = [x for x in offers if x.offer == number]
            if not hit:
                raise Impossible(f"there is no open offer {number}")
            return hit[0]
        mine = [x for x in offers if by is not None and x.player == by.number]
        if len(mine) != 1:
            raise Impossible(f"{by.name if by else '?'} has {len(mine)} open offers; name its number")
        return mine[0]

    def accept_trade(self, o: A.AcceptTrade) -> int:
        w, me = self.w, self.p
        offer = self._open_offer(o.offer, self._other(o.name) if o.name else None)
        if offer.player == me.number:
            raise Impossible("you cannot accept your own offer")
        allowed = [n.casefold() for n in offer.only_to.split(",") if n]
        if allowed and me.name.casefold() not in allowed:
            raise Impossible(f"offer {offer.offer} is only for {offer.only_to}")
        seller = w.player(offer.player)
        give = {g: getattr(offer, f"give_{g}") for g in GOODS}
        want = {g: getattr(offer, f"want_{g}") for g in GOODS}
        self.goods(seller, {g: n for g, n in give.items() if n})
        self.goods(me, {g: n for g, n in want.items() if n})
        ap = self.pay(w.rules.ap("accept_trade"))
        for g in GOODS:
            setattr(seller, g, getattr(seller, g) - give[g] + want[g])
            setattr(me, g, getattr(me, g) + give[g] - want[g])
        w.state["offers"].remove(offer)
        w.emit(TradeAccepted(me.number, offer.offer, seller.number))
        return ap

    def rescind_trade(self, o: A.RescindTrade) -> int:
        offer = self._open_offer(o.offer, self.p)
        if offer.player != self.p.number:
            raise Impossible(f"offer {offer.offer} is not yours")
        ap = self.pay(self.w.rules.ap("rescind_trade"))
        self.w.state["offers"].remove(offer)
        self.w.emit(TradeRescinded(self.p.number, offer.offer))
        return ap

    # ---- split and expeditionary force -----------------------------------------------------

    def split(self, o: A.Split) -> int:
        w, me = self.w, self.p
        if w.player_named(o.name) is not None:
            raise Impossible(f"{o.name} plays already; a split needs a non-playing forum member")
        if w.state.one("game").gm.casefold() == o.name.casefold():
            raise Impossible("the GM cannot take over a split")
        cells = []
        for c in o.cells:
            cell = w.cell(c)
            if w.owner(cell) != me.number:
                raise Impossible(f"{w.label(cell)} is not your hex")
            cells.append(cell)
        units = []
        for uid, count, at in o.units:
            cell = w.cell(at)
            for u, n in self.pick(cell, [(uid, count)]):
                units.append((cell, u, n))
        self.goods(me, o.goods)
        ap = self.pay(w.rules.ap("split"))
        new = Player(max(p.number for p in w.state["players"]) + 1, o.name,
                     ap=w.options["split_ap"], ap_at=self.time, country=me.country or me.number,
                     joined_at=self.time)
        w.state["players"].append(new)
        for g, n in o.goods.items():
            setattr(me, g, getattr(me, g) - n)
            setattr(new, g, n)
        for cell in cells:
            w.hex_for(cell).owner = new.number
        for cell, u, n in units:
            w.remove(cell, me.number, u, n)
            w.add(cell, new.number, u, n)
        w.ally(me.number, new.number, self.time)
        w.ally(new.number, me.number, self.time)
        w.emit(PlayerSplit(me.number, new.number, new.name, tuple(cells), tuple(units),
                           tuple(sorted(o.goods.items()))))
        return ap

    def expedition(self, o: A.Expedition) -> int:
        w, me = self.w, self.p.number
        other = self._other(o.name)
        if not w.allied(me, other.number):
            raise Impossible(f"{other.name} is not your ally (declare alliance first)")
        cell = w.cell(o.at)
        host = w.owner(cell)
        if not (host == other.number or (host and w.allied(host, other.number))):
            raise Impossible(f"{w.label(cell)} is not a hex of {other.name} or of their ally")
        units = self.pick(cell, o.units)
        ap = self.pay(w.rules.ap("expedition"))
        for u, n in units:
            w.remove(cell, me, u, n)
            w.add(cell, other.number, u, n)
        w.emit(ExpeditionSent(me, other.number, cell, tuple(units)))
        return ap

    def end_game(self, o: A.EndGame) -> int:
        if self.p.end_vote:
            raise Impossible("you agreed to end the game already")
        ap = self.pay(self.w.rules.ap("end_game"))
        self.p.end_vote = True
        self.w.emit(EndVoted(self.p.number))
        return ap


HANDLERS = {A.Harvest: Act.harvest, A.Build: Act.build, A.Recruit: Act.recruit, A.Move: Act.move,
            A.Attack: Act.attack, A.DeclareAlliance: Act.declare_alliance,
            A.BreakAlliance: Act.break_alliance, A.OfferTrade: Act.offer_trade,
            A.AcceptTrade: Act.accept_trade, A.RescindTrade: Act.rescind_trade,
            A.Split: Act.split, A.Expedition: Act.expedition, A.EndGame: Act.end_game}

__all__ = ["Act", "HANDLERS", "Impossible"]
