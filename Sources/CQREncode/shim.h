#ifndef BILLFOLD_CQRENCODE_SHIM_H
#define BILLFOLD_CQRENCODE_SHIM_H
#include <qrencode.h>

// Bit 0 of each module byte is "dark"; the other bits describe the module's role.
static inline int bf_qr_module_is_dark(const QRcode *code, int index) {
    return code->data[index] & 1;
}
#endif
