#ifndef BILLFOLD_CEXPAT_SHIM_H
#define BILLFOLD_CEXPAT_SHIM_H
// Expat, which fontconfig already loads into every Billfold process, reads e-invoice XML.
#include <expat.h>
#endif
