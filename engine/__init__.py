"""Realmsmith engine: pure Python, no Qt. Rulesets plug in through engine.registry."""

__version__ = "0.1.0"
