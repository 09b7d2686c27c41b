"""app.render.palette_image: the 8-bit PNGs of political maps and docs screenshots keep a rare
but distinct colour (a small faction's hue, a legend swatch) instead of folding it into a
common one."""

from __future__ import annotations


def test_a_rare_distinct_colour_survives_many_common_shades():
    from PySide6.QtGui import QColor, QImage

    from app.render import palette_image

    img = QImage(200, 100, QImage.Format.Format_RGB32)
    img.fill(QColor("#b8322a"))  # the cities' red, everywhere
    # 300 shades (antialiased edges), each on 60 pixels: more than the swatch below
    for k in range(300):
        shade = QColor(60 + k // 20 * 5, 60 + k % 20 * 5, 60)
        for j in range(60):
            img.setPixelColor((k * 60 + j) % 200, (k * 60 + j) // 200, shade)
    for x in range(180, 190):  # a 10x5 magenta swatch: 50 pixels
        for y in range(92, 97):
            img.setPixelColor(x, y, QColor("#d81b9c"))
    out = palette_image(img)
    assert out.format() == QImage.Format.Format_Indexed8 and len(out.colorTable()) == 256
    assert QColor(out.pixel(185, 94)).name() == "#d81b9c"
    assert QColor(out.pixel(5, 95)).name() == "#b8322a"  # beyond the shades (rows 0-89)
