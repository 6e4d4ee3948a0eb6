// SPDX-License-Identifier: MIT
/*
 * The operations of the decrypting and decapsulating key types, inline on
 * the loop (each is one private-key operation; there is no batch form in
 * the library to share work between them): RSA-OAEP decryption with a key
 * made for decryption, and ML-KEM / X25519MLKEM768 decapsulation.  The
 * requests' rows are in dispatch.c; dispatch has already checked that the
 * key may be used and is of a type that does this.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rind/crypto.h>

#include "rindd.h"

static void reply_secret(struct conn *c, uint64_t id, const u8 *data, size_t len, uint32_t ver)
{
	Rind__Response resp = RIND__RESPONSE__INIT;

	resp.id = id;
	resp.result_case = RIND__RESPONSE__RESULT_DATA;
	resp.data.data = (uint8_t *)data;
	resp.data.len = len;
	resp.key_version = ver;
	conn_respond(c, &resp);
}

void op_decrypt(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	Rind__Decrypt *d = req->decrypt;
	struct crypto_akcipher *tfm;
	struct akcipher_request *areq;
	struct scatterlist src, dst;
	unsigned int var, mlen;
	char msg[200];
	u8 *out;
	int err;

	if (key_oaep_variant(d->hash, &var, msg, sizeof(msg))) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID, "%s", msg);
		return;
	}
	tfm = key_akcipher_var(k, w->id, var);
	if (!tfm) {
		conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "cannot set up %s",
			   key_variant_lib(k, var));
		return;
	}
	mlen = crypto_akcipher_maxsize(tfm);
	if (d->ciphertext.len != mlen) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "ciphertext: an %s ciphertext is %u bytes (got %zu)", key_alg_name(k->alg),
			   mlen, d->ciphertext.len);
		return;
	}
	out = malloc(mlen);
	areq = out ? akcipher_request_alloc(tfm, 0) : NULL;
	if (!areq) {
		free(out);
		conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "out of memory");
		return;
	}
	sg_init_one(&src, d->ciphertext.data, mlen);
	sg_init_one(&dst, out, mlen);
	akcipher_request_set_crypt(areq, &src, &dst, mlen, mlen);
	rind_ct_begin();
	err = crypto_akcipher_decrypt(areq);
	rind_ct_end();
	if (!err)
		reply_secret(c, req->id, out, areq->dst_len, k->version);
	else if (err == -EBADMSG)
		/* one answer for every cause: no padding oracle */
		conn_error(c, req->id, RIND__STATUS__ERR_BAD_MESSAGE,
			   "ciphertext does not decrypt under key %s (%s)", k->name,
			   key_variant_lib(k, var));
	else
		conn_error(c, req->id, status_from_errno(err), "decrypt failed (errno %d)", -err);
	rind_memzero_explicit(out, mlen);
	free(out);
	akcipher_request_free(areq);
}

void op_decap(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	Rind__Decapsulate *d = req->decapsulate;
	struct crypto_kem *tfm = key_kem(k, w->id);
	unsigned int ctlen, sslen;
	u8 ss[64];
	int err;

	if (!tfm) {
		conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "cannot set up %s",
			   key_alg_name(k->alg));
		return;
	}
	ctlen = crypto_kem_ciphertextsize(tfm);
	sslen = crypto_kem_sharedsecretsize(tfm);
	if (d->ciphertext.len != ctlen || sslen > sizeof(ss)) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "ciphertext: a %s ciphertext is %u bytes (got %zu)", key_alg_name(k->alg),
			   ctlen, d->ciphertext.len);
		return;
	}
	rind_ct_begin();
	err = crypto_kem_decapsulate(tfm, d->ciphertext.data, ctlen, ss, sslen);
	rind_ct_end();
	if (!err)
		reply_secret(c, req->id, ss, sslen, k->version);
	else if (err == -EINVAL)
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "ciphertext: its X25519 share is a small-order point");
	else
		conn_error(c, req->id, status_from_errno(err), "decapsulate failed (errno %d)", -err);
	rind_memzero_explicit(ss, sizeof(ss));
}
