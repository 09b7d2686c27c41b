"""Order intake: bytes and files and mail in, matched Submissions out. See docs/intake.md."""

from engine.intake.decode import DEFAULT_MAX_BYTES, Decoded, decode, plausibility
from engine.intake.match import (
    BAD_PASSWORD,
    OK,
    STATUS,
    UNKNOWN_FACTION,
    UNMATCHED,
    WRONG_GAME,
    WRONG_STEP,
    is_matched,
    match_submission,
)
from engine.intake.read import IntakeBatch, read_path, read_text, submission_diagnostics

__all__ = [
    "BAD_PASSWORD", "DEFAULT_MAX_BYTES", "OK", "STATUS", "UNKNOWN_FACTION", "UNMATCHED",
    "WRONG_GAME", "WRONG_STEP", "Decoded", "IntakeBatch", "decode", "is_matched",
    "match_submission", "plausibility", "read_path", "read_text", "submission_diagnostics",
]
