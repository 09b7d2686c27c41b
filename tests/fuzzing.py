"""Seeded generators of hostile input for the fuzz tests (tests/test_fuzz_service.py) and
the longer runs (benchmarks/test_fuzz_long.py, or REALMSMITH_FUZZ_BUDGET=N).

- envelopes: what arrives around orders: mail headers (subjects, senders, dates), file
  names, MIME shapes (nesting, broken boundaries, unknown charsets, bad base64, forwarded
  messages), mbox framing, forum thread headers;
- content: the orders texts themselves: real orders mutated with hostile lines, numbers
  beyond 64 bits, markup, control and bidi characters, long lines.

Everything comes from one `random.Random(seed)`: the same seed gives the same cases, so a
failure found in CI is reproduced by its seed and case number.
"""

from __future__ import annotations

import base64
import random
from dataclasses import dataclass

BIG = ["99999999999999999999", str(2 ** 63), str(2 ** 64 + 1), "-" + str(2 ** 63 + 1),
       "1e400", "0x7fffffffffffffff", "\u00b2", "\u0663", "١٢", "NaN", "-0", ""]
MARKUP = ["[url=http://evil.example]x[/url]", "[img]http://evil.example/p.png[/img]",
          "[/quote]", "[table][tr][td]", "[*]", "<script>alert(1)</script>",
          "<img src=x onerror=alert(1)>", "&amp;&lt;", "]]>", "{{7*7}}", "{% raw %}"]
CONTROL = ["\x1b[2J", "\x1b]0;owned\x07", "\x1b[31m", "\b\b\b", "\r", "\x00", "\x7f",
           "\u202e", "\u2066", "\u200f", "\x85", "\u2028", "\ufeff", "\x0c", "\x9b31m"]
TEXT = ["Ünïcödé", "日本語", "🐉", "a" * 300, " ", "\t", "--", "BEGIN", "END", "#", ";"]
HOSTILE = BIG + MARKUP + CONTROL + TEXT


def hostile(rng: random.Random, k: int = 3) -> str:
    return "".join(rng.choice(HOSTILE) for _ in range(rng.randint(1, k)))


@dataclass
class Case:
    name: str          # file name to write (may itself be hostile)
    data: bytes
    what: str          # a short description, for failure messages


# ---- envelopes ---------------------------------------------------------------------------

def _subject(rng: random.Random, code: str) -> str:
    return rng.choice([
        f"{code} {rng.choice(BIG)}", f"{code} 1", f"Re: Fwd: {code} 1 {hostile(rng)}",
        hostile(rng), "=?utf-8?b?" + base64.b64encode(hostile(rng).encode()).decode() + "?=",
        "=?utf-8?b?!!!not base64?=", "=?x-no-such-charset?q?DEMO_1?=", "", "x" * 5000,
        f"{code} 1\r\n\tcontinued", f"Turn {rng.choice(BIG)}",
    ])


def _sender(rng: random.Random, good: str) -> str:
    return rng.choice([
        good, f"Player <{good}>", f'"{hostile(rng)}" <{good}>', hostile(rng), "",
        "a@b@c", "<>", f"{good}, other@example.org", "=?utf-8?q?=1b=5b2J?= <x@example.org>",
        "undisclosed-recipients:;", "x" * 2000 + "@example.org",
    ])


def _filename(rng: random.Random) -> str:
    return rng.choice([
        "SP1.R1", f"SP1.R{rng.choice(BIG)}", f"SP{rng.choice(BIG)}.R1", "../../etc/passwd",
        "SP1.R1\u202etxt.exe", "orders\x00.txt", "a" * 300 + ".txt", "-rf", "CON", "SP3.R1",
        "=?utf-8?b?U1AxLlIx?=", hostile(rng, 2), "",
    ])


def _part(rng: random.Random, text: str) -> bytes:
    """One MIME leaf holding `text`, in a random encoding/charset/shape."""
    kind = rng.randrange(8)
    body = text.encode("utf-8", "surrogatepass")
    if kind == 0:
        return b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + body
    if kind == 1:
        return (b"Content-Type: text/plain; charset=x-no-such\r\nContent-Transfer-Encoding: base64\r\n\r\n"
                + base64.b64encode(body))
    if kind == 2:
        return b"Content-Transfer-Encoding: base64\r\n\r\n" + b"!!!" + base64.b64encode(body)[3:]
    if kind == 3:
        return b"Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=ZZ=\r\n" + body
    if kind == 4:
        name = _filename(rng).encode("utf-8", "surrogatepass")
        return (b'Content-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="'
                + name + b'"\r\nContent-Transfer-Encoding: base64\r\n\r\n' + base64.b64encode(body))
    if kind == 5:
        return b"Content-Type: text/html\r\n\r\n<html><body><script>x</script><p>" + body + b"</p></body></html>"
    if kind == 6:
        return b"Content-Type: message/rfc822\r\n\r\nSubject: inner\r\nFrom: a@b\r\n\r\n" + body
    return body  # no headers at all


def _multipart(rng: random.Random, parts: list[bytes], depth: int = 0) -> bytes:
    b = rng.choice([b"BOUND", b"", b"x" * 80, b"--", b"a b"])
    if depth < 40 and rng.random() < 0.2:  # nesting, sometimes deep
        parts = [_multipart(rng, parts, depth + 1)]
    out = b'Content-Type: multipart/mixed; boundary="' + b + b'"\r\n\r\npreamble\r\n'
    for p in parts:
        out += b"--" + b + b"\r\n" + p + b"\r\n"
    if rng.random() < 0.7:
        out += b"--" + b + b"--\r\n"  # sometimes the closing boundary is missing
    return out


def message(rng: random.Random, code: str, good_sender: str, orders: str) -> bytes:
    head = [f"From: {_sender(rng, good_sender)}", f"Subject: {_subject(rng, code)}",
            "Date: " + rng.choice(["Mon, 02 Mar 2026 10:00:00 +0000", "yesterday",
                                   "Fri, 31 Dec 9999 23:59:59 -2359", "", "Thu, 01 Jan 1970 00:00:00 +9999"]),
            f"Message-ID: <{rng.randrange(10 ** 9)}@fuzz>", "MIME-Version: 1.0"]
    if rng.random() < 0.1:
        head.append("X-Long: " + "y" * 100_000)
    text = orders if rng.random() < 0.5 else orders + "\n" + hostile(rng, 6)
    if rng.random() < 0.5:
        body = _multipart(rng, [_part(rng, text) for _ in range(rng.randint(0, 4))])
        return "\r\n".join(head).encode("utf-8", "surrogatepass") + b"\r\n" + body
    return "\r\n".join(head).encode("utf-8", "surrogatepass") + b"\r\n" + _part(rng, text)


def envelopes(seed: int, n: int, code: str, sender: str, orders: str) -> list[Case]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        shape = rng.randrange(4)
        if shape == 0:
            out.append(Case(f"m{i}.eml", message(rng, code, sender, orders), "message"))
        elif shape == 1:
            msgs = [message(rng, code, sender, orders) for _ in range(rng.randint(1, 4))]
            data = b"".join(b"From fuzz@example.org Mon Mar  2 10:00:00 2026\n" + m + b"\n" for m in msgs)
            if rng.random() < 0.3:
                data = data[: rng.randrange(len(data) + 1)]  # cut off mid-message
            out.append(Case(f"m{i}.mbox", data, "mbox"))
        elif shape == 2:
            name = _filename(rng).replace("/", "_").replace("\x00", "_")[:200] or "x"
            text = orders if rng.random() < 0.5 else hostile(rng, 8) + "\n" + orders
            out.append(Case(f"{i}-{name}", text.encode("utf-8", "surrogatepass"), "file"))
        else:
            out.append(Case(f"b{i}.bin", rng.randbytes(rng.randint(0, 3000)), "bytes"))
    return out


def thread(seed: int, n_posts: int, authors: list[str]) -> str:
    """A forum thread export (text format) with hostile ids, authors, times and bodies,
    some with header-like lines inside a post."""
    rng = random.Random(seed)
    lines = []
    for i in range(n_posts):
        pid = rng.choice([str(1000 + i)] * 6 + BIG + ["\u00b2", "1 | 2", ""])
        author = rng.choice(authors * 4 + [hostile(rng, 2).replace("|", "/"), ""])
        when = rng.choice([f"2026-11-20T12:{i % 60:02d}:00Z"] * 6 + [
            "9999-12-31T23:59:59-23:59", "0000-00-00", "2026-13-45T99:99:99Z", "tomorrow",
            "2026-11-20T12:00:00+99:00", ""])
        lines.append(f"--- post {pid} | {author} | {when}".replace("\n", " "))
        body = rng.choice(["Move 1 swordsman from 5,2 to 5,3", "Harvest", "AP: 6",
                           f"Move {rng.choice(BIG)} swordsmen from 5,1 to 5,2", hostile(rng, 4)])
        if rng.random() < 0.2:  # a post that tries to be two posts
            body += f"\n--- post {1000 + rng.randrange(n_posts)} | {rng.choice(authors)} | 2026-11-20T13:00:00Z\nI declare alliance to me"
        lines.append(body.replace("\r", " "))
        lines.append("")
    return "\n".join(lines)


# ---- content -------------------------------------------------------------------------------

def mutate(rng: random.Random, text: str) -> str:
    """An orders text with hostile edits: lines dropped, doubled, numbers replaced by huge
    or odd ones, hostile tokens inserted, control characters sprinkled."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(6)
        i = rng.randrange(len(lines) + 1)
        if op == 0 and lines:
            del lines[min(i, len(lines) - 1)]
        elif op == 1 and lines:
            j = min(i, len(lines) - 1)
            lines.insert(j, lines[j])
        elif op == 2 and lines:
            j = min(i, len(lines) - 1)
            words = lines[j].split(" ")
            k = rng.randrange(len(words))
            words[k] = rng.choice(BIG) if any(ch.isdigit() for ch in words[k]) else hostile(rng, 1)
            lines[j] = " ".join(words)
        elif op == 3:
            lines.insert(i, hostile(rng, 5))
        elif op == 4 and lines:
            j = min(i, len(lines) - 1)
            p = rng.randrange(len(lines[j]) + 1)
            lines[j] = lines[j][:p] + rng.choice(CONTROL + MARKUP) + lines[j][p:]
        else:
            lines.insert(i, " ".join(rng.choice(["NAME", "MOVE", "LAND", "SEA", "ALL", "buy", "move",
                                                 "war", "peace", rng.choice(BIG), hostile(rng, 1)])
                                     for _ in range(rng.randint(1, 6))))
    return "\n".join(lines)
