#ifndef BILLFOLD_CPOPPLER_SHIM_H
#define BILLFOLD_CPOPPLER_SHIM_H
// Poppler's header gives the types and prototypes; nothing links libpoppler-glib. It is opened
// with dlopen when a PDF is first read, so Poppler and what it pulls in (libpoppler, NSS, NSPR,
// lcms2, openjpeg) cost nothing at start-up. Without pkg-config (whose flags would also link
// it) the header is found by its path: under /usr/include on Debian, under /app/include in the
// Flatpak, which builds Poppler into the app's prefix. Glib and Cairo come from CCairo's flags.
#if __has_include(<poppler/glib/poppler.h>)
#include <poppler/glib/poppler.h>
#elif __has_include("/app/include/poppler/glib/poppler.h")
#include "/app/include/poppler/glib/poppler.h"
#else
#error "Poppler's GLib headers are missing: install libpoppler-glib-dev"
#endif
#include <dlfcn.h>
#include <stdbool.h>

// Every Poppler function Billfold calls, as X(name) for poppler_<name>. Swift calls them through
// a BFPoppler table; calling poppler_<name> itself fails to link, as nothing provides it.
#define BF_POPPLER_FUNCTIONS(X) \
    X(error_quark) \
    X(document_new_from_bytes) \
    X(document_get_n_pages) \
    X(document_get_page) \
    X(document_get_title) \
    X(document_get_author) \
    X(document_get_subject) \
    X(document_get_keywords) \
    X(document_get_creator) \
    X(document_get_producer) \
    X(document_get_creation_date_time) \
    X(document_get_attachments) \
    X(attachment_get_name) \
    X(attachment_get_size) \
    X(attachment_save_to_callback) \
    X(page_get_size) \
    X(page_render) \
    X(page_render_for_printing) \
    X(page_get_text) \
    X(page_get_text_layout) \
    X(page_find_text) \
    X(rectangle_free)

// One pointer type per function, taken from Poppler's own prototype so a call cannot drift
// from the real signature: bf_poppler_page_render_fn is the type of &poppler_page_render.
#define BF_POPPLER_TYPEDEF(name) typedef __typeof__(&poppler_##name) bf_poppler_##name##_fn;
BF_POPPLER_FUNCTIONS(BF_POPPLER_TYPEDEF)
#undef BF_POPPLER_TYPEDEF

// The resolved functions; every field is set when the loader returns true.
#define BF_POPPLER_FIELD(name) bf_poppler_##name##_fn _Nonnull name;
typedef struct BFPoppler {
    BF_POPPLER_FUNCTIONS(BF_POPPLER_FIELD)
} BFPoppler;
#undef BF_POPPLER_FIELD

// Opens `library` and resolves every function into *table. On failure returns false with
// *error set to dlerror's message (read it before the thread's next dl* call). The library is
// never closed: the GObject types Poppler registers cannot be unregistered.
static inline bool bf_poppler_load(const char *_Nonnull library, BFPoppler *_Nonnull table,
                                   const char *_Nullable *_Nonnull error) {
    *error = NULL;
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        *error = dlerror();
        return false;
    }
#define BF_POPPLER_RESOLVE(name) \
    if ((table->name = (bf_poppler_##name##_fn)dlsym(handle, "poppler_" #name)) == NULL) { \
        *error = dlerror(); \
        return false; \
    }
    BF_POPPLER_FUNCTIONS(BF_POPPLER_RESOLVE)
#undef BF_POPPLER_RESOLVE
    return true;
}
#endif
