#ifndef BILLFOLD_CINTL_SHIM_H
#define BILLFOLD_CINTL_SHIM_H
// gettext lives in glibc itself; Swift's Glibc module does not include libintl.h.
#include <libintl.h>
#include <locale.h>
#include <langinfo.h>
#endif
