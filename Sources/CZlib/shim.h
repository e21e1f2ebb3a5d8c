#ifndef BILLFOLD_CZLIB_SHIM_H
#define BILLFOLD_CZLIB_SHIM_H
// Deflate for the streams Billfold adds to PDFs (attachments, ICC profile).
#include <zlib.h>
#endif
