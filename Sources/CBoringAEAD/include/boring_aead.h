#ifndef IMWIRE_BORING_AEAD_H
#define IMWIRE_BORING_AEAD_H

#include <stddef.h>
#include <stdint.h>

// One AEAD key's BoringSSL context, made once and used for every record under that key.
// swift-crypto's AES.GCM.open and ChaChaPoly.open make a fresh context per call and wrap every
// argument in Data; at 1 KiB records that costs several times the decryption itself.

/// The AEADs: 0 AES-128-GCM, 1 AES-256-GCM, 2 ChaCha20-Poly1305.
typedef enum {
    imwire_aead_aes128gcm = 0,
    imwire_aead_aes256gcm = 1,
    imwire_aead_chacha20poly1305 = 2
} imwire_aead_kind;

/// A context for `key` (16-byte tags), or NULL when BoringSSL is not linked in (the caller falls
/// back to swift-crypto) or the key does not fit the AEAD.
void *imwire_aead_new(imwire_aead_kind kind, const uint8_t *key, size_t key_length);

/// Opens `in` (ciphertext then tag) with `nonce` and additional data `ad` into `out` (room for
/// `in_length` - 16 bytes). Returns the plaintext's length, or -1 when the tag does not verify.
long imwire_aead_open(
    const void *context, uint8_t *out, const uint8_t *nonce, size_t nonce_length, const uint8_t *in,
    size_t in_length, const uint8_t *ad, size_t ad_length);

void imwire_aead_free(void *context);

#endif
