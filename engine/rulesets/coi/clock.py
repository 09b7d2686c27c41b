"""The forum clock: timestamps and action points.

A player gains one AP each time the forum's clock passes a full hour (hh:00:00 on the
forum's clock: the game option `forum_timezone`, default UTC) between the time their AP
were last brought up to date and the time of their post, up to the cap. For a zone whose
offset from UTC is whole hours this is the same as counting UTC hours; a zone such as
+05:30 has its full hours at half past on the UTC clock. Bringing the AP up to date at
each of the player's posts keeps the cap exact: a player sitting at the cap gains nothing
until they spend.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.threads import normalise_time, parse_time

_OFFSET = re.compile(r"^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$", re.I)


def zone_of(name: str) -> tzinfo:
    """`UTC`, a fixed offset (`+05:30`, `UTC-3`) or an IANA name (`Europe/Berlin`).
    Raises ValueError with a readable message for anything else."""
    text = (name or "UTC").strip()
    if text.upper() in ("UTC", "GMT", "Z"):
        return UTC
    m = _OFFSET.match(text)
    if m:
        hours, minutes = int(m.group(2)), int(m.group(3) or 0)
        if hours > 14 or minutes >= 60:
            raise ValueError(f"{name!r} is not a UTC offset (at most +14:00)")
        delta = timedelta(hours=hours, minutes=minutes)
        return timezone(-delta if m.group(1) == "-" else delta)
    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"{name!r} is not a time zone (write UTC, an offset such as +05:30, "
                         "or a name such as Europe/Berlin)") from None


def normalise(text: str, zone: tzinfo | None = None) -> str | None:
    return normalise_time(text, zone)


def _shift(when: datetime, zone: tzinfo | None) -> int:
    """Seconds past the UTC hour at which the zone's clock shows a full hour."""
    if zone is None:
        return 0
    off = when.astimezone(zone).utcoffset()
    return int(off.total_seconds()) % 3600 if off is not None else 0


def hours_between(earlier: str, later: str, zone: tzinfo | None = None) -> int:
    """Full hours of the forum clock passed after `earlier` up to and including `later`."""
    a, b = parse_time(earlier), parse_time(later)
    if a is None or b is None or b <= a:
        return 0
    shift = _shift(b, zone)
    return int((b.timestamp() + shift) // 3600) - int((a.timestamp() + shift) // 3600)


def ap_at(ap: int, since: str, now: str, cap: int, per_hour: int = 1,
          zone: tzinfo | None = None) -> int:
    """AP at `now` for a player who had `ap` at `since` and did nothing in between."""
    if ap >= cap:
        return ap
    return min(cap, ap + per_hour * hours_between(since, now, zone))


def game_zone(options) -> tzinfo:
    """The forum clock of a game; an unreadable option falls back to UTC (validation says so)."""
    try:
        return zone_of(str(options["forum_timezone"]))
    except (KeyError, ValueError):
        return UTC


__all__ = ["ap_at", "game_zone", "hours_between", "normalise", "zone_of", "UTC"]
