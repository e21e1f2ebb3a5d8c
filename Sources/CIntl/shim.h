#ifndef BILLFOLD_CINTL_SHIM_H
#define BILLFOLD_CINTL_SHIM_H
// Parts of glibc that Swift's Glibc module leaves out: gettext (libintl.h), locale queries
// and malloc's tuning (malloc.h).
#include <libintl.h>
#include <malloc.h>
#include <locale.h>
#include <langinfo.h>
#include <stdint.h>

// glibc answers LC_PAPER queries with a number (millimetres) in place of the string pointer.
static inline int bf_locale_paper_width_mm(void) { return (int)(intptr_t)nl_langinfo(_NL_PAPER_WIDTH); }
static inline int bf_locale_paper_height_mm(void) { return (int)(intptr_t)nl_langinfo(_NL_PAPER_HEIGHT); }
#endif
