// Raw system zlib for the baseline measurement (inflateInit2 is a macro Swift cannot call).
#ifndef IMWIRE_CZLIB_BASELINE_H
#define IMWIRE_CZLIB_BASELINE_H
#include <zlib.h>
static inline int CZlibBaseline_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
#endif
