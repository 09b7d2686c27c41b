"""Player text made safe for every output: text reports, HTML, BBCode, mail headers.

Player-supplied strings (tribe and province names, forum author names, post text, order
lines quoted back) reach reports that other players read in a terminal, a browser, a
forum or a mail program. Nothing a player types may become markup or move the reader's
cursor:

    clean(s)       control characters, terminal escape sequences and bidirectional
                   overrides removed (newlines and tabs kept)
    one_line(s)    clean, and any line break or tab made a space (names, table cells)
    html(s)        one clean string as HTML text (also safe in attribute values)
    bbcode(s)      one clean line in which no BBCode tag can start: brackets become
                   look-alike full-width brackets, so `[url]` reads as text
    header(s)      a mail header value: one line, no CR/LF, no control characters
    clean_data(x)  `clean` applied to every string of a report's plain data (dict/list)
    whole(s)       text that can be stored: stray surrogates (undecodable mail header
                   bytes) decoded as UTF-8 or replaced

Report renderers call `bbcode`/`html` on each player string they put into markup; the
service also cleans every report's data before rendering and the text it stores, so a
ruleset that forgets a field still cannot emit a control character.
"""

from engine.markup.escape import (
    bbcode,
    clean,
    clean_data,
    header,
    html,
    is_clean,
    json_is_clean,
    one_line,
    whole,
)

__all__ = ["bbcode", "clean", "clean_data", "header", "html", "is_clean", "json_is_clean",
           "one_line", "whole"]
