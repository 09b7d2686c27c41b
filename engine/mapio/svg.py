"""SVG export as plain text (no Qt): terrain paths grouped per terrain, rivers, roads, area
outlines, sites, labels, optional grid lines and cell coordinates. The viewBox is in map units
(hex circumradius 1, square side 1), so the drawing scales cleanly; `scale` sets the default
pixel size. One <path> per terrain keeps a 500x500 hex map to a few seconds and ~20 MB.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from engine.map import GameMap
from engine.mapio.common import cell_rings, link_chains
from engine.palette import hash_colour, load_palette, terrain_colour  # noqa: F401 (re-exported)

LINK_STYLE = {"river": 'stroke="#2f6db5" stroke-width="0.22"',
              "road": 'stroke="#7a4b22" stroke-width="0.12" stroke-dasharray="0.3 0.15"'}


def _cell_paths(rings: np.ndarray) -> str:
    """Cells as one path string: absolute start corner, then the (shared) relative steps."""
    if not len(rings):
        return ""
    steps = np.round(np.diff(rings[0], axis=0), 4)
    suffix = "".join(f"l{dx:g} {dy:g}" for dx, dy in steps) + "z"
    starts = rings[:, 0, :].ravel()
    out = []
    chunk = 20_000
    for i in range(0, len(starts), 2 * chunk):
        part = starts[i:i + 2 * chunk]
        out.append((("M%.3f %.3f" + suffix) * (len(part) // 2)) % tuple(part.tolist()))
    return "".join(out)


def _geom_path(geom: Any) -> str:
    polys = getattr(geom, "geoms", [geom])
    parts = []
    for p in polys:
        for ring in [p.exterior, *p.interiors]:
            xy = np.asarray(ring.coords)[:-1]
            parts.append("M" + "L".join(f"{x:.3f} {y:.3f}" for x, y in xy) + "z")
    return "".join(parts)


TEXT_SCALE = 0.02  # text is drawn 50x larger and scaled down: Qt's SVG renderer rounds font sizes to whole pixels


def _text(x: float, y: float, size: float, text: str, cls: str = "name") -> str:
    one = (f'<text class="{{}}" transform="translate({x:.3f} {y:.3f}) scale({TEXT_SCALE})" '
           f'style="font-size:{size / TEXT_SCALE:.1f}px">{escape(text)}</text>')
    if cls != "name":
        return one.format(cls)
    # a white halo drawn first, then the text: paint-order is not in SVG Tiny (Qt ignores it)
    return one.format("halo") + one.format("name")


def write_svg(m: GameMap, grid: bool = False, coords: bool = False, scale: float = 16.0,
              palette: str = "default", labels: bool = True) -> bytes:
    rings = cell_rings(m.grid)
    lo, hi = rings.reshape(-1, 2).min(axis=0) - 0.5, rings.reshape(-1, 2).max(axis=0) + 0.5
    w, h = hi - lo
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * scale:.0f}" height="{h * scale:.0f}" '
           f'viewBox="{lo[0]:.3f} {lo[1]:.3f} {w:.3f} {h:.3f}">',
           f"<title>{escape(m.name or 'Realmsmith map')}</title>",
           "<style>text{font-family:sans-serif;text-anchor:middle;dominant-baseline:middle}"
           ".site{fill:#fff;stroke:#000;stroke-width:0.06}"
           ".halo{fill:#fff;stroke:#fff;stroke-width:5px;stroke-linejoin:round;fill-opacity:0.8;stroke-opacity:0.8}"
           ".name{fill:#111}.coord{fill:#000;fill-opacity:0.6}</style>",
           '<g id="terrain">']
    for code in np.unique(m.terrain):
        t = m.terrains[int(code)]
        col = terrain_colour(t, palette)
        d = _cell_paths(rings[m.terrain == code])
        # a hairline stroke in the fill colour hides anti-aliasing seams between cells
        out.append(f'<path data-terrain={quoteattr(t)} fill="{col}" stroke="{col}" stroke-width="0.03" d="{d}"/>')
    out.append("</g>")
    if grid:
        out.append(f'<path id="grid" fill="none" stroke="#000" stroke-opacity="0.35" stroke-width="0.03" '
                   f'd="{_cell_paths(rings)}"/>')
    centres = m.grid.centers_array()
    out.append('<g id="links" fill="none" stroke-linecap="round" stroke-linejoin="round">')
    for kind in sorted(m.links):
        chains = link_chains(m.links[kind])
        if not chains:
            continue
        d = "".join("M" + "L".join(f"{x:.3f} {y:.3f}" for x, y in centres[c]) for c in chains)
        style = LINK_STYLE.get(kind, 'stroke="#555" stroke-width="0.1"')
        out.append(f'<path data-kind={quoteattr(kind)} {style} d="{d}"/>')
    out.append("</g>")
    out.append('<g id="areas" fill="none">')
    for a in sorted(m.areas.values(), key=lambda a: a.name):
        if not a.cells:
            continue
        col = hash_colour(a.name)
        out.append(f'<path data-area={quoteattr(a.name)} fill-rule="evenodd" stroke="{col}" '
                   f'stroke-width="0.15" d="{_geom_path(m.area_outline(a.name))}"/>')
        if labels:
            x, y = m.area_label_point(a.name)
            out.append(_text(x, y, 0.8, a.name))
    out.append("</g>")
    out.append('<g id="sites">')
    for s in sorted(m.sites.values(), key=lambda s: s.id):
        x, y = centres[s.cell]
        out.append(f'<circle class="site" data-kind={quoteattr(s.kind)} cx="{x:.3f}" cy="{y:.3f}" r="0.28"/>')
        if s.name and labels:
            out.append(_text(x, y + 0.6, 0.5, s.name))
    out.append("</g>")
    if labels and m.labels:
        out.append('<g id="labels">')
        for lb in m.labels:
            out.append(_text(lb.x, lb.y, 0.8 * lb.size, lb.text))
        out.append("</g>")
    if coords:
        out.append('<g id="coords">')
        dy = 0.55 if m.grid.kind == "hex" else 0.3
        out.extend(_text(x, y + dy, 0.28, m.grid.label(c), "coord") for c, (x, y) in enumerate(centres))
        out.append("</g>")
    out.append("</svg>\n")
    return "\n".join(out).encode()
