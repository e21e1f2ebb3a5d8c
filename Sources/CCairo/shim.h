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

// Pango glyph sentinels are macros.
static inline PangoGlyph bf_pango_glyph_empty(void) { return PANGO_GLYPH_EMPTY; }
static inline PangoGlyph bf_pango_glyph_unknown_flag(void) { return PANGO_GLYPH_UNKNOWN_FLAG; }

// PANGO_CAIRO_FONT is a checked cast macro.
static inline cairo_scaled_font_t *bf_pango_font_scaled_font(PangoFont *font) {
    return pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(font));
}
// Whether a font draws colour glyphs (a bitmap or layered emoji font). Cairo 1.16's PDF
// surface paints those as images, which carry no text; FT_HAS_COLOR is a macro.
#include <cairo-ft.h>
static inline gboolean bf_scaled_font_has_color_glyphs(cairo_scaled_font_t *font) {
    if (cairo_scaled_font_get_type(font) != CAIRO_FONT_TYPE_FT) return FALSE;
    FT_Face face = cairo_ft_scaled_font_lock_face(font);
    if (!face) return FALSE;
    gboolean color = FT_HAS_COLOR(face) ? TRUE : FALSE;
    cairo_ft_scaled_font_unlock_face(font);
    return color;
}

// The HarfBuzz face of a font that a PDF can embed as it is, for PDFContentWriter: TrueType
// outlines (glyf), not variable, not colour, drawn without synthetic bold or slant. NULL
// otherwise, and Cairo writes the text. The face belongs to Pango's font map.
#include <hb-subset.h>
#include <hb-ot.h>
#include <pango/pangofc-font.h>
static inline hb_face_t *bf_embeddable_face(PangoFont *font) {
    if (!PANGO_IS_FC_FONT(font)) return NULL;
    FcPattern *pattern = pango_fc_font_get_pattern(PANGO_FC_FONT(font));
    FcBool embolden = FcFalse;
    if (FcPatternGetBool(pattern, FC_EMBOLDEN, 0, &embolden) == FcResultMatch && embolden) return NULL;
    FcMatrix *matrix = NULL;
    if (FcPatternGetMatrix(pattern, FC_MATRIX, 0, &matrix) == FcResultMatch && matrix
        && (matrix->xx != 1 || matrix->xy != 0 || matrix->yx != 0 || matrix->yy != 1)) return NULL;
    hb_font_t *hb = pango_font_get_hb_font(font);
    if (!hb) return NULL;
    hb_face_t *face = hb_font_get_face(hb);
    hb_blob_t *glyf = hb_face_reference_table(face, HB_TAG('g', 'l', 'y', 'f'));
    unsigned int outlines = hb_blob_get_length(glyf);
    hb_blob_destroy(glyf);
    if (outlines == 0 || hb_ot_var_has_data(face) || hb_ot_color_has_layers(face) || hb_ot_color_has_png(face)
        || hb_ot_color_has_svg(face)) return NULL;
    return face;
}
#endif
