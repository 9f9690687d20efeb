#ifndef HEARTH_COPENSSL_SHIM_H
#define HEARTH_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/x509v3.h>

/// A fresh RSA key pair of `bits` bits (EVP_PKEY_Q_keygen is variadic, which Swift cannot call).
static inline EVP_PKEY *hearth_generate_rsa_key(size_t bits) {
    return EVP_PKEY_Q_keygen(NULL, NULL, "RSA", bits);
}

/// A fresh EC key pair on the named curve (e.g. "P-256").
static inline EVP_PKEY *hearth_generate_ec_key(const char *curve) {
    return EVP_PKEY_Q_keygen(NULL, NULL, "EC", curve);
}

/// BIO_get_mem_data is a macro.
static inline long hearth_bio_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

/// Adds an RSA public key's parameters to `builder`. OSSL_PARAM_BLD keeps the parameter
/// names by reference, even in the parameters it builds, so they must be C literals rather
/// than Swift strings bridged for one call.
static inline int hearth_param_bld_push_rsa_public_key(OSSL_PARAM_BLD *builder, const BIGNUM *n, const BIGNUM *e) {
    return OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, n)
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, e);
}

/// Adds a P-256 public key's parameters to `builder`: the group and the encoded point, which
/// must stay valid until OSSL_PARAM_BLD_to_param.
static inline int hearth_param_bld_push_p256_public_key(OSSL_PARAM_BLD *builder, const unsigned char *point, size_t length) {
    return OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0)
        && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, length);
}

/// Adds a P-256 key pair's parameters to `builder`: the group, the private scalar and the
/// encoded public point (which must stay valid until OSSL_PARAM_BLD_to_param).
static inline int hearth_param_bld_push_p256_key_pair(OSSL_PARAM_BLD *builder, const BIGNUM *scalar, const unsigned char *point, size_t length) {
    return OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0)
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_PRIV_KEY, scalar)
        && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, length);
}

/// EVP_PKEY_KEYPAIR is a macro combining selection bits, which Swift does not import.
static inline int hearth_evp_pkey_key_pair_selection(void) {
    return EVP_PKEY_KEYPAIR;
}

/// EVP_CTRL_GCM_GET_TAG through EVP_CIPHER_CTX_ctrl: the tag of a finished AES-GCM encryption.
static inline int hearth_evp_gcm_get_tag(EVP_CIPHER_CTX *context, unsigned char *tag, int length) {
    return EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, length, tag);
}

/// EVP_CTRL_GCM_SET_TAG through EVP_CIPHER_CTX_ctrl: the tag an AES-GCM decryption must verify.
static inline int hearth_evp_gcm_set_tag(EVP_CIPHER_CTX *context, unsigned char *tag, int length) {
    return EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, length, tag);
}

/// EVP_PKEY_PUBLIC_KEY is a macro combining selection bits, which Swift does not import.
static inline int hearth_evp_pkey_public_key_selection(void) {
    return EVP_PKEY_PUBLIC_KEY;
}


// OpenSSL spells these as function-like macros, which Swift cannot call.

/// SSL_CTX_set_min_proto_version.
static inline int hearth_ssl_ctx_set_min_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_min_proto_version(context, version);
}

/// SSL_CTX_set_mode; returns the new mode.
static inline long hearth_ssl_ctx_set_mode(SSL_CTX *context, long mode) {
    return SSL_CTX_set_mode(context, mode);
}

/// SSL_set_tlsext_host_name: the SNI extension of the ClientHello.
static inline int hearth_ssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}
#endif
