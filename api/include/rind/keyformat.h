/* SPDX-License-Identifier: MIT */
/*
 * Key encodings accepted and produced by the public-key types (sig, kpp,
 * akcipher, kem):
 *
 *   RIND_KEY_RAW        the algorithm's own raw form (32-byte X25519 or
 *                       Ed25519 key, SEC1 point, big-endian scalar, ...)
 *   RIND_KEY_SPKI_DER   SubjectPublicKeyInfo (RFC 5280), DER
 *   RIND_KEY_PKCS8_DER  PrivateKeyInfo / OneAsymmetricKey (RFC 5208, 5958),
 *                       DER; X25519/Ed25519 as RFC 8410
 *   RIND_KEY_PEM        the SPKI ("PUBLIC KEY") or PKCS#8 ("PRIVATE KEY")
 *                       DER in RFC 7468 armor
 *   RIND_KEY_JWK        a JSON Web Key object (RFC 7517; OKP per RFC 8037)
 *
 * Export calls return the number of bytes written (PEM and JWK are text,
 * written without a terminating NUL; one is appended when the buffer has
 * room for it, not counted), or -ENOSPC when the buffer is too small.
 * Import detects the format; malformed input is -EKEYREJECTED.
 */
#ifndef _RIND_KEYFORMAT_H
#define _RIND_KEYFORMAT_H

enum rind_key_format {
	RIND_KEY_RAW,
	RIND_KEY_SPKI_DER,
	RIND_KEY_PKCS8_DER,
	RIND_KEY_PEM,
	RIND_KEY_JWK,
};

#endif /* _RIND_KEYFORMAT_H */
