/* An empty ICU common-data package (the header ICU checks, then a table of contents with
   no entries), built as libicudata.so.NN for the viewer bundle: Qt links ICU but the viewer
   never asks it for data (no collation, locale case rules or legacy codecs), and the real
   data library is 32 MB. ICU answers "missing resource" should anything ask. */
#include <stdint.h>
struct stub {
    uint16_t headerSize; uint8_t magic1, magic2;
    uint16_t size, reservedWord;
    uint8_t isBigEndian, charsetFamily, sizeofUChar, reservedByte;
    uint8_t dataFormat[4], formatVersion[4], dataVersion[4];
    uint32_t pad[2];
    uint32_t count;
};
/* compile with -DICUV=73 for libicudata.so.73: the symbol is icudt73_dat */
#define NAME2(v) icudt##v##_dat
#define NAME(v) NAME2(v)
__attribute__((visibility("default"), aligned(16)))
const struct stub NAME(ICUV) = {32, 0xda, 0x27, 20, 0, 0, 0, 2, 0,
                                {'C', 'm', 'n', 'D'}, {1, 0, 0, 0}, {ICUV, 0, 0, 0}, {0, 0}, 0};
