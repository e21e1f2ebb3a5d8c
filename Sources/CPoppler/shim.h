#ifndef BILLFOLD_CPOPPLER_SHIM_H
#define BILLFOLD_CPOPPLER_SHIM_H
#include <poppler.h>
#endif
