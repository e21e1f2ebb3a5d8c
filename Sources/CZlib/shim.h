#ifndef BILLFOLD_CZLIB_SHIM_H
#define BILLFOLD_CZLIB_SHIM_H
// Deflate for the streams Billfold adds to PDFs (pages, fonts, attachments, ICC profile).
#include <zlib.h>

// deflateInit2 is a macro.
static inline int bf_deflate_init(z_streamp stream, int level, int window_bits, int memory_level) {
    return deflateInit2(stream, level, Z_DEFLATED, window_bits, memory_level, Z_DEFAULT_STRATEGY);
}
#endif
