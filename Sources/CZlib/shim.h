// System zlib (Debian: zlib1g-dev). deflateInit2/inflateInit2 are function-like macros that
// Swift cannot import, so they are wrapped here as static inline functions.
#ifndef IMWIRE_CZLIB_SHIM_H
#define IMWIRE_CZLIB_SHIM_H

#include <zlib.h>

static inline int CZlib_deflateInit2(z_streamp stream, int level, int windowBits, int memLevel, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, strategy);
}

static inline int CZlib_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
