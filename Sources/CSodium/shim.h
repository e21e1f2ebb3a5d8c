#ifndef BILLFOLD_CSODIUM_SHIM_H
#define BILLFOLD_CSODIUM_SHIM_H
#include <sodium.h>

// Sizes are macros in libsodium: fixed functions for Swift.
static inline size_t bf_sign_publickeybytes(void) { return crypto_sign_PUBLICKEYBYTES; }
static inline size_t bf_sign_secretkeybytes(void) { return crypto_sign_SECRETKEYBYTES; }
static inline size_t bf_sign_bytes(void) { return crypto_sign_BYTES; }
#endif
