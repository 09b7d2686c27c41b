"""Whose orders: the `#atlantis N "password"` line, as on the Atlantis server.

Only the header is read (quickly, without parsing the orders). Atlantis orders carry no
turn number: they are for the turn being collected. A mail with sets for several factions
is split (`split_sets`, called by the importer) into one submission per set, each judged on
its own: a wrong password refuses only its own set.
"""

from __future__ import annotations

import dataclasses

from engine.orders.tokenizer import NUMBER, STRING, split_lines
from engine.ruleset import Match, Submission
from engine.rulesets.atlantis.parser import TOKENS
from engine.scenario import Scenario


def headers(text: str) -> list[tuple[int, int | None, str | None]]:
    """(line, faction or None, password or None) of every `#atlantis` line of a text."""
    out = []
    for n, raw in split_lines(text):
        s = raw.strip()
        if not s[:9].casefold() == "#atlantis":
            continue
        toks = TOKENS.tokenize(s[9:], n)
        faction = int(toks[0].text) if toks and toks[0].kind == NUMBER and int(toks[0].text) > 0 \
            else None
        rest = toks[1:] if toks and toks[0].kind == NUMBER else toks
        pw = (rest[0].text if rest[0].kind == STRING else rest[0].raw) if rest else None
        out.append((n, faction, pw))
    return out


def identify(submission: Submission, scenario: Scenario) -> Match:
    found = headers(submission.text)
    if not found:
        return Match(reason="no #atlantis line")
    line, faction, password = found[0]
    if faction is None:
        return Match(reason=f"the #atlantis line (line {line}) has no faction number")
    why = f"faction {faction} from the #atlantis line (line {line})"
    others = sorted({f for _, f, _ in found[1:] if f is not None and f != faction})
    if others:
        why += (f"; this text also holds sets for faction(s) {', '.join(map(str, others))}, "
                "which need importing on their own")
    # A faction without a password accepts any; the intake compares when one is set.
    return Match(faction=faction, password=password if password is not None else "", reason=why)


def split_sets(submission: Submission) -> list[Submission]:
    """One submission per `#atlantis` set of a text with two or more: the set's lines (its
    header to its `#end`, or to the next header) in their places, every other line blank,
    so line numbers stay those of the mail. Each part notes which set it is (meta "set")."""
    found = headers(submission.text)
    if len(found) < 2:
        return [submission]
    lines = split_lines(submission.text)
    starts = [n for n, _f, _p in found]
    out = []
    for i, start in enumerate(starts):
        stop = starts[i + 1] - 1 if i + 1 < len(starts) else len(lines)
        end = next((n for n, raw in lines[start:stop] if raw.split()[:1] and raw.split()[0].casefold() == "#end"), stop)
        text = "\n".join(raw if start <= n <= end else "" for n, raw in lines)
        meta = {**submission.meta, "set": f"set {i + 1} of {len(starts)}, lines {start}-{end}"}
        out.append(dataclasses.replace(submission, text=text, meta=meta))
    return out
