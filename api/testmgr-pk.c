// SPDX-License-Identifier: MIT
/*
 * The testmgr's runners for the public-key types and the rng type, each
 * over its type's vectors (struct akcipher_test_suite, kpp_test_suite,
 * sig_test_suite, rng_test_suite in desc->suite.priv; see the vector
 * structs' comments for what each checks).
 */
#include <stdio.h>
#include <string.h>
#include <rind/internal/testmgr.h>
#include <rind/internal/akcipher.h>
#include <rind/internal/kpp.h>
#include <rind/internal/sig.h>
#include <rind/internal/rng.h>
#include <rind/internal/util.h>

/* ---- akcipher ---- */

/* One operation through a request, linear buffers. */
static int akcipher_run(struct crypto_akcipher *tfm, bool enc, const void *in, unsigned int inlen,
			u8 *out, unsigned int *outlen)
{
	struct akcipher_request *req = akcipher_request_alloc(tfm, GFP_KERNEL);
	struct scatterlist src, dst;
	int err;

	if (IS_ERR(req))
		return (int)PTR_ERR(req);
	sg_init_one(&src, in, inlen);
	sg_init_one(&dst, out, *outlen);
	akcipher_request_set_crypt(req, &src, &dst, inlen, *outlen);
	err = enc ? crypto_akcipher_encrypt(req) : crypto_akcipher_decrypt(req);
	*outlen = req->dst_len;
	akcipher_request_free(req);
	return err;
}

int alg_test_akcipher(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	const struct akcipher_test_suite *suite = desc->suite.priv;
	struct crypto_akcipher *tfm;
	unsigned int i, max = 0, len;
	u8 *out = NULL;
	int err = 0;

	if (!suite || !suite->count)
		return -ENOENT;
	tfm = crypto_alloc_akcipher(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	for (i = 0; i < suite->count && !err; i++) {
		const struct akcipher_testvec *v = &suite->vecs[i];

		err = v->public_key_vec ? crypto_akcipher_set_pub_key(tfm, v->key, v->key_len) :
					  crypto_akcipher_set_priv_key(tfm, v->key, v->key_len);
		if (err) {
			err = alg_test_fail(alg, "akcipher", i, "set key", err);
			break;
		}
		if (crypto_akcipher_maxsize(tfm) > max) {
			max = crypto_akcipher_maxsize(tfm);
			free(out);
			out = malloc(max);
			if (!out) {
				err = -ENOMEM;
				break;
			}
		}
		if (!v->must_fail) {
			len = max;
			err = akcipher_run(tfm, true, v->m, v->m_size, out, &len);
			if (err || len != v->c_size ||
			    (!v->randomized && memcmp(out, v->c, len))) {
				err = alg_test_fail(alg, "akcipher", i, "encrypt", err);
				break;
			}
		}
		if (v->public_key_vec)
			continue;
		len = max;
		err = akcipher_run(tfm, false, v->c, v->c_size, out, &len);
		if (v->must_fail) {
			if (err != -EBADMSG) {
				err = alg_test_fail(alg, "akcipher", i, "decrypt must fail", err);
				break;
			}
			err = 0;
			continue;
		}
		if (err || len != v->m_size || memcmp(out, v->m, len)) {
			err = alg_test_fail(alg, "akcipher", i, "decrypt", err);
			break;
		}
	}
	if (out) {
		rind_memzero_explicit(out, max);
		free(out);
	}
	crypto_free_akcipher(tfm);
	return err;
}

/* ---- kpp ---- */

/* One operation through a request, with the output in a linear buffer. */
static int kpp_run(struct crypto_kpp *tfm, bool shared, const void *in, unsigned int inlen,
		   u8 *out, unsigned int *outlen)
{
	struct kpp_request *req = kpp_request_alloc(tfm, GFP_KERNEL);
	struct scatterlist src, dst;
	int err;

	if (IS_ERR(req))
		return (int)PTR_ERR(req);
	sg_init_one(&src, in, inlen);
	sg_init_one(&dst, out, *outlen);
	kpp_request_set_input(req, &src, inlen);
	kpp_request_set_output(req, &dst, *outlen);
	err = shared ? crypto_kpp_compute_shared_secret(req) : crypto_kpp_generate_public_key(req);
	*outlen = req->dst_len;
	kpp_request_free(req);
	return err;
}

int alg_test_kpp(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	const struct kpp_test_suite *suite = desc->suite.priv;
	struct crypto_kpp *tfm;
	unsigned int i, max, len;
	u8 *out;
	int err = 0;

	if (!suite || !suite->count)
		return -ENOENT;
	tfm = crypto_alloc_kpp(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	max = crypto_kpp_maxsize(tfm);
	out = malloc(max ? max : 1);
	if (!out) {
		crypto_free_kpp(tfm);
		return -ENOMEM;
	}
	for (i = 0; i < suite->count && !err; i++) {
		const struct kpp_testvec *v = &suite->vecs[i];

		err = crypto_kpp_set_secret(tfm, v->secret, v->secret_size);
		if (alg_test_key_done(alg, "kpp", i, "set_secret", &err, v->secret_error))
			continue;
		if (v->expected_public) {
			len = max;
			err = kpp_run(tfm, false, NULL, 0, out, &len);
			if (err || len != v->expected_public_size ||
			    memcmp(out, v->expected_public, len)) {
				err = alg_test_fail(alg, "kpp", i, "generate_public_key", err);
				break;
			}
		}
		if (!v->peer_public)
			continue;
		len = max;
		err = kpp_run(tfm, true, v->peer_public, v->peer_public_size, out, &len);
		if (err != v->ss_error) {
			err = alg_test_fail(alg, "kpp", i, "compute_shared_secret", err);
			break;
		}
		if (!err && v->expected_ss &&
		    (len != v->expected_ss_size || memcmp(out, v->expected_ss, len))) {
			err = alg_test_fail(alg, "kpp", i, "shared secret mismatch", 0);
			break;
		}
		err = 0;
	}
	rind_memzero_explicit(out, max);
	free(out);
	crypto_free_kpp(tfm);
	return err;
}

/* ---- sig ---- */

static int sig_test_one(struct crypto_alg *alg, unsigned int i, const struct sig_testvec *v,
			u8 *buf, unsigned int max)
{
	struct crypto_sig *tfm;
	int err, len;

	if (v->privkey) {
		tfm = crypto_alloc_sig(alg->cra_driver_name, 0, 0);
		if (IS_ERR(tfm))
			return (int)PTR_ERR(tfm);
		err = crypto_sig_set_privkey(tfm, v->privkey, v->privkey_size);
		if (err) {
			err = alg_test_fail(alg, "sig", i, "set_privkey", err);
			goto out;
		}
		if (v->pubkey && crypto_sig_alg(tfm)->export_pubkey) {
			len = crypto_sig_export_pubkey(tfm, RIND_KEY_RAW, buf, max);
			if (len != (int)v->pubkey_size || memcmp(buf, v->pubkey, (size_t)len)) {
				err = alg_test_fail(alg, "sig", i, "public key from private key",
						    len);
				goto out;
			}
		}
		len = crypto_sig_sign(tfm, v->msg, v->msg_size, buf, max);
		if (len < 0) {
			err = alg_test_fail(alg, "sig", i, "sign", len);
			goto out;
		}
		if (!v->randomized && !v->must_fail &&
		    ((unsigned int)len != v->sig_size || memcmp(buf, v->sig, (size_t)len))) {
			err = alg_test_fail(alg, "sig", i, "signature mismatch", len);
			goto out;
		}
		err = crypto_sig_verify(tfm, buf, (unsigned int)len, v->msg, v->msg_size);
		if (err) {
			err = alg_test_fail(alg, "sig", i, "verify own signature", err);
			goto out;
		}
		if (!v->pubkey) {
			err = crypto_sig_verify(tfm, v->sig, v->sig_size, v->msg, v->msg_size);
			if (err != (v->must_fail ? -EBADMSG : 0))
				err = alg_test_fail(alg, "sig", i, "verify", err);
			else
				err = 0;
		}
out:
		crypto_free_sig(tfm);
		if (err)
			return err;
	}
	if (!v->pubkey)
		return 0;
	tfm = crypto_alloc_sig(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	err = crypto_sig_set_pubkey(tfm, v->pubkey, v->pubkey_size);
	if (err) {
		err = alg_test_fail(alg, "sig", i, "set_pubkey", err);
	} else {
		err = crypto_sig_verify(tfm, v->sig, v->sig_size, v->msg, v->msg_size);
		if (err != (v->must_fail ? -EBADMSG : 0))
			err = alg_test_fail(alg, "sig", i, "verify", err);
		else
			err = 0;
	}
	crypto_free_sig(tfm);
	return err;
}

int alg_test_sig(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	const struct sig_test_suite *suite = desc->suite.priv;
	struct crypto_sig *tfm;
	unsigned int i, max;
	u8 *buf;
	int err = 0;

	if (!suite || !suite->count)
		return -ENOENT;
	tfm = crypto_alloc_sig(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	max = crypto_sig_maxsize(tfm);
	crypto_free_sig(tfm);
	/* Room for a signature or a raw public key. */
	max = max < 1024 ? 1024 : max;
	buf = malloc(max);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < suite->count && !err; i++)
		err = sig_test_one(alg, i, &suite->vecs[i], buf, max);
	free(buf);
	return err;
}

/* ---- rng ---- */

/* Unlike the other runners, an rng failure keeps its errno. */
static int rng_fail(struct crypto_alg *alg, unsigned int i, const char *what, int err)
{
	alg_test_fail(alg, "rng", i, what, err);
	return err < 0 ? err : -EBADMSG;
}

int alg_test_rng(const struct alg_test_desc *desc, struct crypto_alg *alg)
{
	const struct rng_test_suite *suite = desc->suite.priv;
	struct crypto_rng *tfm;
	unsigned int i;
	u8 *out;
	int err = 0;

	if (!suite || !suite->count)
		return -ENOENT;
	tfm = crypto_alloc_rng(alg->cra_driver_name, 0, 0);
	if (IS_ERR(tfm))
		return (int)PTR_ERR(tfm);
	for (i = 0; i < suite->count && !err; i++) {
		const struct rng_testvec *v = &suite->vecs[i];

		out = malloc(2 * (size_t)v->olen + 1);
		if (!out) {
			err = -ENOMEM;
			break;
		}
		err = crypto_rng_reset(tfm, (const u8 *)v->seed, v->slen);
		if (err) {
			err = rng_fail(alg, i, "reset", err);
		} else {
			err = crypto_rng_generate(tfm, (const u8 *)v->addin, v->alen, out, v->olen);
			if (!err)
				err = crypto_rng_generate(tfm, (const u8 *)v->addin, v->alen,
							  out + v->olen, v->olen);
			if (err)
				err = rng_fail(alg, i, "generate", err);
			else if (memcmp(out, v->out, 2 * (size_t)v->olen))
				err = rng_fail(alg, i, "output mismatch", -EBADMSG);
		}
		free(out);
	}
	crypto_free_rng(tfm);
	return err;
}
