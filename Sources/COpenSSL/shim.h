#ifndef HEARTH_COPENSSL_SHIM_H
#define HEARTH_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#endif
