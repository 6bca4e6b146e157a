#include "boring_aead.h"

// BoringSSL as swift-crypto links it on Linux (its CCryptoBoringSSL target, whose symbols carry
// that prefix; swift-crypto exports no module for it). The references are weak: where the symbols
// are absent (Apple platforms, where swift-crypto uses CryptoKit, or a swift-crypto that renames
// them) they are NULL and imwire_aead_new says so, so IMWire falls back to swift-crypto's API.
typedef struct evp_aead_st EVP_AEAD;
typedef struct evp_aead_ctx_st EVP_AEAD_CTX;

extern const EVP_AEAD *CCryptoBoringSSL_EVP_aead_aes_128_gcm(void) __attribute__((weak));
extern const EVP_AEAD *CCryptoBoringSSL_EVP_aead_aes_256_gcm(void) __attribute__((weak));
extern const EVP_AEAD *CCryptoBoringSSL_EVP_aead_chacha20_poly1305(void) __attribute__((weak));
extern EVP_AEAD_CTX *CCryptoBoringSSL_EVP_AEAD_CTX_new(
    const EVP_AEAD *aead, const uint8_t *key, size_t key_len, size_t tag_len) __attribute__((weak));
extern void CCryptoBoringSSL_EVP_AEAD_CTX_free(EVP_AEAD_CTX *ctx) __attribute__((weak));
extern int CCryptoBoringSSL_EVP_AEAD_CTX_open(
    const EVP_AEAD_CTX *ctx, uint8_t *out, size_t *out_len, size_t max_out_len, const uint8_t *nonce,
    size_t nonce_len, const uint8_t *in, size_t in_len, const uint8_t *ad, size_t ad_len) __attribute__((weak));

void *imwire_aead_new(imwire_aead_kind kind, const uint8_t *key, size_t key_length) {
    if (!CCryptoBoringSSL_EVP_AEAD_CTX_new || !CCryptoBoringSSL_EVP_AEAD_CTX_open
        || !CCryptoBoringSSL_EVP_AEAD_CTX_free) {
        return NULL;
    }
    const EVP_AEAD *(*which)(void) = kind == imwire_aead_aes128gcm ? CCryptoBoringSSL_EVP_aead_aes_128_gcm
        : kind == imwire_aead_aes256gcm ? CCryptoBoringSSL_EVP_aead_aes_256_gcm
        : CCryptoBoringSSL_EVP_aead_chacha20_poly1305;
    if (!which) return NULL;
    return CCryptoBoringSSL_EVP_AEAD_CTX_new(which(), key, key_length, 16);
}

long imwire_aead_open(
    const void *context, uint8_t *out, const uint8_t *nonce, size_t nonce_length, const uint8_t *in,
    size_t in_length, const uint8_t *ad, size_t ad_length) {
    if (in_length < 16) return -1;
    size_t written = 0;
    if (!CCryptoBoringSSL_EVP_AEAD_CTX_open(
            (const EVP_AEAD_CTX *)context, out, &written, in_length - 16, nonce, nonce_length, in, in_length, ad,
            ad_length)) {
        return -1;
    }
    return (long)written;
}

void imwire_aead_free(void *context) { CCryptoBoringSSL_EVP_AEAD_CTX_free((EVP_AEAD_CTX *)context); }
