#ifndef BILLFOLD_CCAIRO_SHIM_H
#define BILLFOLD_CCAIRO_SHIM_H
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>

// PANGO_SCALE and PANGO_PIXELS are macros.
static inline int bf_pango_scale(void) { return PANGO_SCALE; }

static inline gboolean bf_cairo_at_least(int major, int minor) {
    return CAIRO_VERSION >= CAIRO_VERSION_ENCODE(major, minor, 0);
}
#endif
