"""Writes the odd orders files the intake tests read. Run it to rebuild them:

    /work/venv/bin/python tests/data/intake/make_samples.py

The files are committed; tests/test_intake_samples.py checks that this script still
produces exactly them. The 3 MB file is not committed: the tests make it in a temp folder.
"""

from __future__ import annotations

import base64
import io
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).parent
GERMAN = "Grüße aus Köln\nLAND Düsseldorf Straße 3\nÄrger über Öl\n"


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        info = zipfile.ZipInfo("orders.txt", date_time=(2026, 11, 1, 12, 0, 0))
        z.writestr(info, "PLA 1 2\n")
    return buf.getvalue()


def _mail(headers: str, body: str | bytes) -> bytes:
    head = headers.strip("\n").replace("\n", "\r\n").encode("ascii") + b"\r\n\r\n"
    return head + (body.replace("\n", "\r\n").encode("ascii") if isinstance(body, str) else body)


ATTACHMENT = "PLA 3 4\nLAND Müllheim 2\n".encode("latin-1")

SAMPLES: dict[str, bytes] = {
    "utf8.txt": "PLA 1 2\nNAME 3 \"Neue Straße\"\n".encode(),
    "utf8_bom.txt": b"\xef\xbb\xbf" + "PLA 1 2\r\nNAME 3 \"Øresund\"\r\n".encode(),
    "utf16_bom.txt": "PLA 1 2\r\nNAME 3 \"Åland\"\r\n".encode("utf-16"),  # LE with BOM
    "latin1.txt": GERMAN.encode("latin-1"),
    "cp1252.txt": "NAME 4 “Königsberg” – don’t\nCOST 5 €\n".encode("cp1252"),
    "macroman.txt": GERMAN.encode("mac-roman"),
    "crlf.txt": b"PLA 1 2\r\nSEA 3 4\r\n",
    "cr.txt": b"PLA 1 2\rSEA 3 4\r",
    "empty.txt": b"",
    "blank.txt": b"  \r\n\t\n",
    "nul.txt": b"PLA 1 2\x00\x00SEA",
    "orders.doc": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(range(256)) * 2,
    "orders.zip": _zip(),
    "map.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01"
               b"\x08\x06\x00\x00\x00\x1f\x15\xc4\x89",
    "attachment.eml": _mail("""
From: Anna Berg <anna@example.org>
To: gm@example.net
Subject: KOK 14
Date: Mon, 16 Nov 2026 10:15:00 +0100
Message-ID: <a1@example.org>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="XX"
""", """--XX
Content-Type: text/plain; charset=us-ascii

Hello GM, my orders are attached.

--XX
Content-Type: application/octet-stream; name="SP3.R14"
Content-Disposition: attachment; filename="SP3.R14"
Content-Transfer-Encoding: base64

""" + base64.b64encode(ATTACHMENT).decode() + """

--XX
Content-Type: application/msword; name="orders.doc"
Content-Disposition: attachment; filename="orders.doc"
Content-Transfer-Encoding: base64

0M8R4KGxGuE=

--XX--
"""),
    "qp_latin1.eml": _mail("""
From: =?iso-8859-1?q?J=F6rg_Maier?= <J.Maier@Example.COM>
To: gm@example.net
Subject: =?iso-8859-1?q?KOK_14_Z=FCge?=
Date: Tue, 17 Nov 2026 23:30:00 -0500
MIME-Version: 1.0
Content-Type: text/plain; charset=iso-8859-1
Content-Transfer-Encoding: quoted-printable
""", """PLA 1 2
LAND M=FCnchen 3

On Mon, 16 Nov 2026, GM wrote:
> Please send your orders.
> Deadline is Wednesday.
--=20
J=F6rg
"""),
    "html_only.eml": _mail("""
From: carl@example.org
Subject: orders
Date: Wed, 18 Nov 2026 08:00:00 +0000
MIME-Version: 1.0
Content-Type: text/html; charset=utf-8
""", """<html><head><style>p {color: red}</style></head><body>
<p>PLA&nbsp;1 2</p><div>SEA 3 4<br>DEF 5</div>
<blockquote>old quoted text</blockquote>
</body></html>
"""),
    "forwarded.eml": _mail("""
From: gm@example.net
To: gm@example.net
Subject: Fwd: KOK 14
Date: Thu, 19 Nov 2026 09:00:00 +0000
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="FW"
""", """--FW
Content-Type: text/plain; charset=us-ascii

Forwarding Bob's orders, they came to my old address.

--FW
Content-Type: message/rfc822

From: bob@example.org
Subject: KOK 14
Date: Wed, 18 Nov 2026 21:00:00 +0100
Content-Type: text/plain; charset=utf-8

SEA 3 4
DEF 5

--FW--
"""),
    "two_attachments.eml": _mail("""
From: dora@example.org
Subject: KOK 14
Date: Thu, 19 Nov 2026 10:00:00 +0000
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="TA"
""", """--TA
Content-Type: text/plain; name="SP4.R14"
Content-Disposition: attachment; filename="SP4.R14"

PLA 7 8

--TA
Content-Type: text/plain; name="SP5.R14"
Content-Disposition: attachment; filename="SP5.R14"

PLA 9 10

--TA--
"""),
    "three.mbox": b"".join([
        b"From anna@example.org Mon Nov 16 10:15:00 2026\n",
        _mail("""
From: anna@example.org
Subject: KOK 14
Date: Mon, 16 Nov 2026 10:15:00 +0000
""", "PLA 1 2\n>From the north we come\n\n").replace(b"\r\n", b"\n"),
        b"From MAILER-DAEMON Mon Nov 16 11:00:00 2026\n",
        b"this is not a mail message at all\n\x7f\x7f garbage\n\n",
        b"From bob@example.org Mon Nov 16 12:00:00 2026\n",
        _mail("""
From: bob@example.org
Subject: KOK 14
Date: Mon, 16 Nov 2026 12:00:00 +0000
""", "SEA 3 4\n").replace(b"\r\n", b"\n"),
    ]),
    "folder/SP1.R14": b"PLA 1 2\n",
    "folder/sub/SP2.R14.txt": b"PLA 2 3\n",
    "folder/.hidden": b"not read\n",
    "folder/.svn/entries": b"not read either\n",
    "folder/a-empty.txt": b"",
}


def write(root: Path = HERE) -> list[Path]:
    out = []
    for rel, data in SAMPLES.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
        out.append(p)
    return out


if __name__ == "__main__":
    for p in write(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE):
        print(p)
