"""Tiled XML maps (.tmx): parsed into and written from the same document shape as TMJ."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from engine.map import GameMap
from engine.mapio import tiled, tiled_read
from engine.mapio.common import bad

_MAP_INTS = ("width", "height", "tilewidth", "tileheight", "hexsidelength", "nextlayerid",
             "nextobjectid", "infinite", "compressionlevel")
_TS_INTS = ("firstgid", "tilewidth", "tileheight", "tilecount", "columns", "margin", "spacing")


def _xml(raw: bytes, what: str) -> ET.Element:
    if b"<!DOCTYPE" in raw or b"<!ENTITY" in raw:  # no entity expansion bombs
        raise bad(f"{what} declares a DTD or entities; Tiled files never do")
    try:
        return ET.fromstring(raw)
    except ET.ParseError as e:
        raise bad(f"{what} is not well-formed XML ({e})") from None
    except LookupError as e:  # a damaged encoding declaration, e.g. encoding="TTF-8"
        raise bad(f"{what} declares an encoding Python does not know ({e})") from None


def _num(v: str | None, where: str) -> float | int:
    try:
        f = float(v or 0)
    except ValueError:
        raise bad(f"{where}: {v!r} is not a number") from None
    return int(f) if f.is_integer() and "." not in (v or "") else f


def _props(el: ET.Element) -> list[dict[str, Any]]:
    out = []
    pe = el.find("properties")
    if pe is None:
        return out
    for p in pe.findall("property"):
        value: Any = p.get("value")
        if value is None:
            value = p.text or ""
        out.append({"name": p.get("name", ""), "type": p.get("type", "string"), "value": value})
    return out


def _tileset(el: ET.Element, where: str) -> dict[str, Any]:
    ts: dict[str, Any] = {k: v for k, v in el.attrib.items()}
    for k in _TS_INTS:
        if k in ts:
            ts[k] = int(_num(ts[k], where))
    tiles = []
    for t in el.findall("tile"):
        tile: dict[str, Any] = {"id": int(_num(t.get("id"), where)), "properties": _props(t)}
        if t.get("type") or t.get("class"):
            tile["type"] = t.get("type") or t.get("class")
        tiles.append(tile)
    ts["tiles"] = tiles
    img = el.find("image")
    if img is not None:
        ts["image"] = img.get("source", "")
    return ts


def parse_tileset_xml(raw: bytes, source: str) -> dict[str, Any]:
    root = _xml(raw, f"tileset {source!r}")
    if root.tag != "tileset":
        raise bad(f"tileset {source!r} is not a tileset")
    return _tileset(root, f"tileset {source!r}")


def _object(o: ET.Element, where: str) -> dict[str, Any]:
    d: dict[str, Any] = {k: v for k, v in o.attrib.items()}
    for k in ("id", "x", "y", "width", "height", "rotation"):
        if k in d:
            d[k] = _num(d[k], where)
    if "class" in d and "type" not in d:
        d["type"] = d.pop("class")
    d["properties"] = _props(o)
    if o.find("point") is not None:
        d["point"] = True
    for key in ("polygon", "polyline"):
        pe = o.find(key)
        if pe is not None:
            pts = []
            for pair in (pe.get("points") or "").split():
                x, _, y = pair.partition(",")
                pts.append({"x": _num(x, where), "y": _num(y, where)})
            d[key] = pts
    te = o.find("text")
    if te is not None:
        d["text"] = {"text": te.text or "", "pixelsize": _num(te.get("pixelsize", "16"), where)}
    return d


def _layers(parent: ET.Element, where: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for el in parent:
        if el.tag == "layer":
            lay: dict[str, Any] = {"type": "tilelayer", "name": el.get("name", ""),
                                   "width": int(_num(el.get("width"), where)),
                                   "height": int(_num(el.get("height"), where))}
            data = el.find("data")
            if data is None:
                raise bad(f"layer {lay['name']!r} has no data")
            if data.find("chunk") is not None:
                lay["chunks"] = True
            enc, comp = data.get("encoding"), data.get("compression")
            if enc in ("csv", "base64"):
                lay["data"], lay["encoding"] = (data.text or "").strip(), enc
                if comp:
                    lay["compression"] = comp
            elif enc is None:
                lay["data"] = [int(_num(t.get("gid", "0"), where)) for t in data.findall("tile")]
            else:
                raise bad(f"layer {lay['name']!r}: unknown data encoding {enc!r}")
            out.append(lay)
        elif el.tag == "objectgroup":
            out.append({"type": "objectgroup", "name": el.get("name", ""),
                        "objects": [_object(o, f"{where} object") for o in el.findall("object")]})
        elif el.tag == "group":
            out.append({"type": "group", "name": el.get("name", ""), "layers": _layers(el, where)})
    return out


def parse_tmx(raw: bytes, folder: Path) -> dict[str, Any]:
    root = _xml(raw, "the file")
    if root.tag != "map":
        raise bad(f"not a Tiled map (root element <{root.tag}>)")
    doc: dict[str, Any] = {k: v for k, v in root.attrib.items()}
    for k in _MAP_INTS:
        if k in doc:
            doc[k] = int(_num(doc[k], "map"))
    doc["type"] = "map"
    doc["properties"] = _props(root)
    tilesets = []
    for el in root.findall("tileset"):
        if el.get("source"):
            from engine.mapio.tmj import load_external_tileset

            tilesets.append(load_external_tileset(folder, el.get("source", ""), int(_num(el.get("firstgid"), "tileset"))))
        else:
            tilesets.append(_tileset(el, "tileset"))
    doc["tilesets"] = tilesets
    doc["layers"] = _layers(root, "layer")
    return doc


def read_tmx(path: Path, raw: bytes) -> GameMap:
    return tiled_read.from_tiled(parse_tmx(raw, path.parent))


# ---- writing ------------------------------------------------------------------------------

def _s(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v) if not v.is_integer() else str(int(v)) if abs(v) < 1e15 else repr(v)
    return str(v)


def _add_props(el: ET.Element, props: list[dict[str, Any]]) -> None:
    if not props:
        return
    pe = ET.SubElement(el, "properties")
    for p in props:
        attrs = {"name": p["name"]}
        if p.get("type", "string") != "string":
            attrs["type"] = p["type"]
        q = ET.SubElement(pe, "property", attrs)
        value = _s(p["value"])
        if "\n" in value:
            q.text = value  # Tiled keeps multi-line strings as element text
        else:
            q.set("value", value)


def write_tmx(m: GameMap, path: Path, layer_format: str = "csv", tileset_image: str | None = None) -> bytes:
    doc = tiled.to_tiled(m, "csv" if layer_format == "csv" else layer_format, tileset_image)
    keys = ("version", "tiledversion", "orientation", "renderorder", "width", "height", "tilewidth",
            "tileheight", "hexsidelength", "staggeraxis", "staggerindex", "infinite", "nextlayerid",
            "nextobjectid")
    root = ET.Element("map", {k: _s(int(doc[k]) if k == "infinite" else doc[k]) for k in keys if k in doc})
    _add_props(root, doc["properties"])
    for ts in doc["tilesets"]:
        te = ET.SubElement(root, "tileset", {k: _s(ts[k]) for k in ("firstgid", "name", "tilewidth", "tileheight",
                                                                    "tilecount", "columns")})
        if "image" in ts:
            ET.SubElement(te, "image", {"source": ts["image"], "width": _s(ts["imagewidth"]),
                                        "height": _s(ts["imageheight"])})
        for t in ts["tiles"]:
            tel = ET.SubElement(te, "tile", {"id": _s(t["id"]), "type": t["type"]})
            _add_props(tel, t["properties"])
    for lay in doc["layers"]:
        if lay["type"] == "tilelayer":
            le = ET.SubElement(root, "layer", {"id": _s(lay["id"]), "name": lay["name"],
                                               "width": _s(lay["width"]), "height": _s(lay["height"])})
            if isinstance(lay["data"], list):
                w = lay["width"]
                rows = [",".join(map(str, lay["data"][i:i + w])) for i in range(0, len(lay["data"]), w)]
                de = ET.SubElement(le, "data", {"encoding": "csv"})
                de.text = "\n" + ",\n".join(rows) + "\n"
            else:
                attrs = {"encoding": "base64"}
                if lay.get("compression"):
                    attrs["compression"] = lay["compression"]
                de = ET.SubElement(le, "data", attrs)
                de.text = lay["data"]
            continue
        ge = ET.SubElement(root, "objectgroup", {"id": _s(lay["id"]), "name": lay["name"]})
        for o in lay["objects"]:
            attrs = {"id": _s(o["id"])}
            if o.get("name"):
                attrs["name"] = o["name"]
            if o.get("type"):
                attrs["type"] = o["type"]
            attrs.update(x=_s(o["x"]), y=_s(o["y"]))
            if o.get("width"):
                attrs.update(width=_s(o["width"]), height=_s(o["height"]))
            oe = ET.SubElement(ge, "object", attrs)
            _add_props(oe, o.get("properties", []))
            if o.get("point"):
                ET.SubElement(oe, "point")
            for key in ("polygon", "polyline"):
                if key in o:
                    ET.SubElement(oe, key, {"points": " ".join(f"{_s(p['x'])},{_s(p['y'])}" for p in o[key])})
            if "text" in o:
                t = ET.SubElement(oe, "text", {"pixelsize": _s(o["text"]["pixelsize"]), "wrap": "0"})
                t.text = o["text"]["text"]
    ET.indent(root, " ")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n").encode()
