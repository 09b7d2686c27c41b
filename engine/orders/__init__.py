"""Orders: one tokenizer for every ruleset, diagnostics with line numbers, lenient sheets."""

from engine.orders.diagnostics import AMBIGUOUS, ILLEGAL, INVALID, Diagnostic, Severity
from engine.orders.sheet import Order, OrderSheet
from engine.orders.tokenizer import Token, Tokenizer, keyword, split_lines, tokenize, unhide_spaces

__all__ = [
    "AMBIGUOUS", "ILLEGAL", "INVALID", "Diagnostic", "Severity", "Order", "OrderSheet",
    "Token", "Tokenizer", "keyword", "split_lines", "tokenize", "unhide_spaces",
]
