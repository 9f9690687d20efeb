#ifndef HEARTH_CZLIB_SHIM_H
#define HEARTH_CZLIB_SHIM_H
#include <zlib.h>

/// deflateInit2 and inflateInit2 are macros; Swift cannot call them.
static inline int hearth_deflateInit2(z_streamp stream, int level, int method, int windowBits, int memLevel, int strategy) {
    return deflateInit2(stream, level, method, windowBits, memLevel, strategy);
}

static inline int hearth_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
#endif
