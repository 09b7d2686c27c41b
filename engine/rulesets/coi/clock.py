"""The forum clock: timestamps and action points.

A player gains one AP at every full hour (hh:00:00 UTC) that passes between the time their
AP were last brought up to date and the time of their post, up to the cap. Bringing the
AP up to date at each of the player's posts keeps the cap exact: a player sitting at the
cap gains nothing until they spend.
"""

from __future__ import annotations

from engine.threads import normalise_time, parse_time


def normalise(text: str) -> str | None:
    return normalise_time(text)


def hours_between(earlier: str, later: str) -> int:
    """Full hours (on the hour) passed after `earlier` up to and including `later`."""
    a, b = parse_time(earlier), parse_time(later)
    if a is None or b is None or b <= a:
        return 0
    return int(b.timestamp() // 3600) - int(a.timestamp() // 3600)


def ap_at(ap: int, since: str, now: str, cap: int, per_hour: int = 1) -> int:
    """AP at `now` for a player who had `ap` at `since` and did nothing in between."""
    if ap >= cap:
        return ap
    return min(cap, ap + per_hour * hours_between(since, now))

