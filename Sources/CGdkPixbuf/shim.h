#ifndef BILLFOLD_CGDKPIXBUF_SHIM_H
#define BILLFOLD_CGDKPIXBUF_SHIM_H
// gdk-pixbuf decodes JPEG/PNG (and whatever loaders are installed) without a display.
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <math.h>

// What a decode may allocate: the picture is scaled down while decoding (libjpeg's DCT
// scaling) so it never exceeds the box or the pixel budget. The box is in displayed
// orientation, which is unknown until the pixels arrive, so the larger of the two
// candidate scales is used: never blurrier than asked, at most the aspect ratio larger.
typedef struct {
    int box_width;      // 0: no box
    int box_height;
    double max_pixels;  // upper bound on width * height
    int source_width;   // filled in by the loader
    int source_height;
    int prepared;       // 1 once pixels are allocated (orientation is known then)
    int too_large;      // 1 when decoding would need more memory than is sensible
} bf_pixbuf_limits;

// Only libjpeg scales while decoding (by up to 8 in each direction); other loaders decode
// at full size first, so a picture is refused when that alone would take too much memory.
#define BF_PIXBUF_FULL_SIZE_LIMIT 100000000.0

static inline void bf_pixbuf_size_prepared(GdkPixbufLoader *loader, int width, int height, gpointer data) {
    bf_pixbuf_limits *limits = data;
    limits->source_width = width;
    limits->source_height = height;
    if (width <= 0 || height <= 0) return;
    double pixels = (double)width * (double)height;
    GdkPixbufFormat *format = gdk_pixbuf_loader_get_format(loader);
    gchar *name = format ? gdk_pixbuf_format_get_name(format) : NULL;
    gboolean scalable = name && g_str_equal(name, "jpeg");
    g_free(name);
    if (pixels > BF_PIXBUF_FULL_SIZE_LIMIT * (scalable ? 64.0 : 1.0)) {
        limits->too_large = 1;
        // A requested size of zero makes the loader stop before allocating anything.
        gdk_pixbuf_loader_set_size(loader, 0, 0);
        return;
    }
    double scale = 1.0;
    if (limits->box_width > 0 && limits->box_height > 0) {
        double upright = fmin((double)limits->box_width / width, (double)limits->box_height / height);
        double turned = fmin((double)limits->box_width / height, (double)limits->box_height / width);
        scale = fmin(1.0, fmax(upright, turned));
    }
    if (limits->max_pixels > 0) {
        double budget = sqrt(limits->max_pixels / ((double)width * (double)height));
        scale = fmin(scale, budget);
    }
    if (scale < 1.0) {
        int w = (int)fmax(1.0, floor(width * scale + 0.5));
        int h = (int)fmax(1.0, floor(height * scale + 0.5));
        gdk_pixbuf_loader_set_size(loader, w, h);
    }
}

static inline void bf_pixbuf_area_prepared(GdkPixbufLoader *loader, gpointer data) {
    (void)loader;
    ((bf_pixbuf_limits *)data)->prepared = 1;
}

// g_signal_connect is a macro; the handlers above keep the arithmetic in one place.
static inline void bf_pixbuf_loader_apply_limits(GdkPixbufLoader *loader, bf_pixbuf_limits *limits) {
    g_signal_connect(loader, "size-prepared", G_CALLBACK(bf_pixbuf_size_prepared), limits);
    g_signal_connect(loader, "area-prepared", G_CALLBACK(bf_pixbuf_area_prepared), limits);
}

// gdk_pixbuf_save_to_buffer is variadic.
static inline gboolean bf_pixbuf_save_jpeg(GdkPixbuf *pixbuf, gchar **buffer, gsize *size, const char *quality, GError **error) {
    return gdk_pixbuf_save_to_buffer(pixbuf, buffer, size, "jpeg", error, "quality", quality, NULL);
}
static inline gboolean bf_pixbuf_save_png(GdkPixbuf *pixbuf, gchar **buffer, gsize *size, GError **error) {
    return gdk_pixbuf_save_to_buffer(pixbuf, buffer, size, "png", error, NULL);
}
#endif
