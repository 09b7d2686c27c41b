"""Generated hostile-sized intake inputs for the import benchmarks (and a quick manual run):

    python -m benchmarks.intake_inputs /tmp/in      # writes the four files, prints their sizes

- a mail of ~655 KB with 2,000 small text attachments (SP<f>.R1 names, four factions);
- forum thread exports (plain text) of 10,000 and 100,000 posts by the CoI demo players;
- an mbox of 10,000 short order mails for the KoK demo game.
"""

from __future__ import annotations

import sys
from pathlib import Path

KOK_SENDERS = ["achaeans@example.org", "persians@example.org", "egyptians@example.org",
               "scythians@example.org"]
COI_PLAYERS = ["scapheap", "GWG", "Remuthra"]


def many_attachments_mail(path: Path, n: int = 2000) -> Path:
    boundary = "b0undary"
    parts = [f"From: {KOK_SENDERS[2]}\nTo: gm@example.org\nSubject: DEMO 1\n"
             "Date: Mon, 2 Mar 2026 10:00:00 +0000\nMessage-ID: <many@example.org>\n"
             f"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"{boundary}\"\n\n"
             f"--{boundary}\nContent-Type: text/plain\n\nsee attachments\n"]
    for i in range(n):
        parts.append(f"--{boundary}\nContent-Type: text/plain\nContent-Disposition: attachment; "
                     f"filename=\"SP{i % 4 + 1}.R1\"\n\nBEGIN\n# set {i}\n"
                     f"DEF 6 8 C 7 7 T\nEND\n{'x' * 180}\n")
    parts.append(f"--{boundary}--\n")
    path.write_text("".join(parts), encoding="ascii")
    return path


def thread_text(path: Path, n: int) -> Path:
    with path.open("w", encoding="utf-8") as f:
        for i in range(1, n + 1):
            h, m = divmod(i, 60)
            d, h = divmod(h, 24)
            f.write(f"--- post {i} | {COI_PLAYERS[i % 3]} | 2026-{1 + d // 28:02d}-"
                    f"{1 + d % 28:02d}T{h:02d}:{m:02d}:00Z | lines 1\nHarvest\n\n")
    return path


def mbox(path: Path, n: int = 10_000) -> Path:
    with path.open("w", encoding="ascii") as f:
        for i in range(n):
            who = KOK_SENDERS[i % 4]
            f.write(f"From {who} Mon Mar  2 10:00:00 2026\nFrom: {who}\nSubject: DEMO 1\n"
                    f"Date: Mon, 2 Mar 2026 10:{i % 60:02d}:00 +0000\n"
                    f"Message-ID: <m{i}@example.org>\n\nBEGIN\nDEF 6 8 C 7 7 T\nEND\n\n")
    return path


def main(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for p in (many_attachments_mail(out / "many.eml"), thread_text(out / "t10k.txt", 10_000),
              thread_text(out / "t100k.txt", 100_000), mbox(out / "inbox.mbox")):
        print(f"{p}: {p.stat().st_size:,} bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "intake-inputs")
