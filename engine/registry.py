"""Finds rulesets through the `realmsmith.rulesets` entry point group, so a GM's house-rule
variant installed as its own package plugs in like the built-in ones."""

from __future__ import annotations

import importlib
from functools import cache

from engine.ruleset import Ruleset

GROUP = "realmsmith.rulesets"
# Used when running from a source tree that was never pip-installed.
BUILTIN = {"kok": "engine.rulesets.kok:RULESET", "artnes": "engine.rulesets.artnes:RULESET",
           "coi": "engine.rulesets.coi:RULESET", "atlantis": "engine.rulesets.atlantis:RULESET",
           "cc": "engine.rulesets.cc:RULESET"}


class UnknownRuleset(LookupError):
    pass


@cache
def _targets() -> dict[str, str]:
    from importlib.metadata import entry_points

    found = dict(BUILTIN)
    for ep in entry_points(group=GROUP):
        found[ep.name] = ep.value
    return found


def available() -> list[str]:
    """Names of rulesets that load; broken ones are left out (see `problems`)."""
    return sorted({n for n in _targets() if _try(n) is not None} | set(_RUNTIME))


def problems() -> dict[str, str]:
    out = {}
    for n in sorted(_targets()):
        try:
            get(n)
        except Exception as e:  # a broken plug-in must not take the app down
            out[n] = f"{type(e).__name__}: {e}"
    return out


def _try(name: str) -> Ruleset | None:
    try:
        return get(name)
    except Exception:
        return None


_RUNTIME: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> None:
    """Add a ruleset at run time (tests, scripts); entry points are the normal way."""
    _RUNTIME[ruleset.name.lower()] = ruleset


def get(name: str) -> Ruleset:
    if name.lower() in _RUNTIME:
        return _RUNTIME[name.lower()]
    return _load(name.lower())


@cache
def _load(name: str) -> Ruleset:
    # a built-in by its own name without reading every installed package's entry points
    # (a tenth of a command's start); a plug-in takes a name of its own
    target = BUILTIN.get(name.lower()) or _targets().get(name.lower())
    if target is None:
        raise UnknownRuleset(f"unknown ruleset {name!r}; known: {', '.join(sorted(_targets()))}")
    module, _, attr = target.partition(":")
    obj = getattr(importlib.import_module(module), attr)
    ruleset = obj() if isinstance(obj, type) else obj
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{target} is not a Ruleset")
    return ruleset
