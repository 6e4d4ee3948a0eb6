// SPDX-License-Identifier: MIT
/*
 * Batches.  The sign and seal requests that one loop turn decodes are
 * grouped by (key, request type); each group runs as one call into the
 * registry -- crypto_sig_sign_batch() or crypto_aead_encrypt_batch() --
 * inside one rind_ct_begin()/rind_ct_end() section.  No request waits
 * for a batch to fill: a group runs at the end of the turn that decoded
 * it, or as soon as it reaches --max-batch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rind/crypto.h>

#include "rindd.h"

struct item {
	struct conn *c;
	Rind__Request *req;
	/* sign: the transform variant (hash, encoding, padding), -1 when refused */
	int var;
	/* seal */
	u8 *out;
	size_t outlen;
	struct scatterlist src[2], dst[2];
	struct aead_request *areq;
};

struct batch_group {
	struct key *k;
	const struct req_type *type;	/* its run_batch answers the group */
	unsigned int n;
	struct item *items;
};

struct batch_ctx {
	struct batch_group *groups;
	unsigned int ngroups, cap;
	struct sig_request *sreqs;
	unsigned int *sidx;		/* the item of each sreqs[] entry */
	struct aead_request **areqs;
	u8 *sigs;
	u8 *nonces;
};

struct rindd_type_stats type_stats[KEY_NALGS];

void stats_note_request(enum key_alg alg)
{
	if ((unsigned int)alg < KEY_NALGS)
		atomic_fetch_add_explicit(&type_stats[alg].requests, 1, memory_order_relaxed);
}

/*
 * @passes: the passes the implementation made over its lanes for these @n
 * requests (n when it worked one at a time); @lanes: its widest pass.
 */
void stats_note_type_batch(int alg, unsigned int n, unsigned int passes, unsigned int lanes)
{
	struct rindd_type_stats *t;
	unsigned long long m;

	if (alg < 0 || alg >= KEY_NALGS)
		return;
	t = &type_stats[alg];
	m = atomic_load_explicit(&t->max_batch, memory_order_relaxed);
	atomic_fetch_add_explicit(&t->batches, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&t->batched_requests, n, memory_order_relaxed);
	atomic_fetch_add_explicit(&t->passes, passes, memory_order_relaxed);
	while (n > m && !atomic_compare_exchange_weak(&t->max_batch, &m, n))
		;
	m = atomic_load_explicit(&t->lanes, memory_order_relaxed);
	while (lanes > m && !atomic_compare_exchange_weak(&t->lanes, &m, lanes))
		;
}

void stats_note_batch(unsigned int n)
{
	unsigned long long m = atomic_load_explicit(&stats.max_batch, memory_order_relaxed);

	atomic_fetch_add_explicit(&stats.batches, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&stats.batched_requests, n, memory_order_relaxed);
	while (n > m && !atomic_compare_exchange_weak(&stats.max_batch, &m, n))
		;
}

struct batch_ctx *batch_new(void)
{
	struct batch_ctx *b = calloc(1, sizeof(*b));
	unsigned int m = cfg.max_batch;

	if (!b)
		return NULL;
	b->sreqs = calloc(m, sizeof(*b->sreqs));
	b->sidx = calloc(m, sizeof(*b->sidx));
	b->areqs = calloc(m, sizeof(*b->areqs));
	b->sigs = calloc(m, RINDD_SIG_MAX);
	b->nonces = calloc(m, RIND_SEAL_NONCE);
	if (!b->sreqs || !b->sidx || !b->areqs || !b->sigs || !b->nonces) {
		batch_free(b);
		return NULL;
	}
	return b;
}

void batch_free(struct batch_ctx *b)
{
	unsigned int i;

	if (!b)
		return;
	for (i = 0; i < b->cap; i++)
		free(b->groups[i].items);
	free(b->groups);
	free(b->sreqs);
	free(b->sidx);
	free(b->areqs);
	free(b->sigs);
	free(b->nonces);
	free(b);
}

static void fail_group(struct batch_group *g, int status, const char *msg)
{
	unsigned int i;

	for (i = 0; i < g->n; i++)
		conn_error(g->items[i].c, g->items[i].req->id, status, "%s", msg);
}

/*
 * Sign a group: the requests of one key.  They may ask for different
 * variants of it (ECDSA hash and encoding, RSA hash and padding); each
 * variant present runs as one crypto_sig_sign_batch() call, all of them
 * inside one constant-time section.  A request whose options are refused
 * is answered first and takes no part.
 */
void batch_sign(struct worker *w, struct batch_group *g)
{
	struct batch_ctx *b = w->batch;
	Rind__Response resp = RIND__RESPONSE__INIT;
	unsigned int i, m, var, done = 0, nvalid = 0, passes = 0, lanes = 1;
	bool seen[KEY_VARIANTS] = { false };
	char msg[256];

	for (i = 0; i < g->n; i++) {
		struct item *it = &g->items[i];
		Rind__Sign *s = it->req->sign;

		if (key_sig_variant(g->k, s->hash, s->sig_format, s->padding, &var, msg, sizeof(msg))) {
			conn_error(it->c, it->req->id, RIND__STATUS__ERR_INVALID, "%s", msg);
			it->var = -1;
			continue;
		}
		it->var = (int)var;
		seen[var] = true;
		nvalid++;
	}
	rind_ct_begin();
	for (var = 0; var < KEY_VARIANTS; var++) {
		struct crypto_sig *tfm;

		if (!seen[var])
			continue;
		tfm = key_sig_var(g->k, g->k->version, w->id, var);
		for (i = 0, m = 0; i < g->n; i++) {
			Rind__Sign *s = g->items[i].req->sign;

			if (g->items[i].var != (int)var)
				continue;
			b->sidx[done + m] = i;
			b->sreqs[done + m].msg = s->message.data;
			b->sreqs[done + m].msglen = (unsigned int)s->message.len;
			b->sreqs[done + m].sig = b->sigs + (size_t)(done + m) * RINDD_SIG_MAX;
			b->sreqs[done + m].siglen = RINDD_SIG_MAX;
			b->sreqs[done + m].err = tfm ? 0 : -ENOMEM;
			m++;
		}
		if (tfm) {
			/* for this key: an RSA-4096 key on the -ifma drivers signs one at a time */
			unsigned int l = crypto_sig_batch_lanes(tfm, m);

			crypto_sig_sign_batch(tfm, b->sreqs + done, m);
			passes += (m + l - 1) / l;
			if (l > lanes)
				lanes = l;
		} else {
			passes += m;	/* failed one by one (-ENOMEM) */
		}
		done += m;
	}
	rind_ct_end();
	if (nvalid) {
		stats_note_batch(nvalid);
		stats_note_type_batch(g->k->alg, nvalid, passes, lanes);
	}
	resp.result_case = RIND__RESPONSE__RESULT_DATA;
	resp.key_version = g->k->version;
	for (m = 0; m < done; m++) {
		struct item *it = &g->items[b->sidx[m]];

		if (b->sreqs[m].err) {
			conn_error(it->c, it->req->id, status_from_errno(b->sreqs[m].err),
				   b->sreqs[m].err == -ENOMEM ? "cannot set up %s (errno %d)" :
				   "%s: sign failed (errno %d)", key_alg_name(g->k->alg), -b->sreqs[m].err);
			continue;
		}
		resp.id = it->req->id;
		resp.data.data = b->sreqs[m].sig;
		resp.data.len = b->sreqs[m].siglen;
		conn_respond(it->c, &resp);
	}
}

/* A table of the non-empty pieces among (p0,l0), (p1,l1). */
static void sg_pair(struct scatterlist sg[2], const void *p0, size_t l0, const void *p1, size_t l1,
		    const void *dummy)
{
	unsigned int n = 0;

	if (l0)
		n++;
	if (l1)
		n++;
	sg_init_table(sg, n ? n : 1);
	n = 0;
	if (l0)
		sg_set_buf(&sg[n++], p0, (unsigned int)l0);
	if (l1)
		sg_set_buf(&sg[n++], p1, (unsigned int)l1);
	if (!n)
		sg_set_buf(&sg[0], dummy, 0);
}

void batch_seal(struct worker *w, struct batch_group *g)
{
	struct batch_ctx *b = w->batch;
	struct crypto_aead *tfm = key_aead(g->k, w->id);
	Rind__Response resp = RIND__RESPONSE__INIT;
	unsigned int i, m = 0;
	size_t areq_size;

	if (!tfm) {
		fail_group(g, RIND__STATUS__ERR_INTERNAL, "cannot set up the AEAD");
		return;
	}
	areq_size = sizeof(struct aead_request) + crypto_aead_reqsize(tfm);
	{
		/* random nonces: counted (durably) before use, refused at the limit */
		char msg[256];
		int err = seal_count_reserve(g->k->name, g->k->version, g->n, msg, sizeof(msg));

		if (err) {
			fail_group(g, err == -EDQUOT ? RIND__STATUS__ERR_RETIRED : RIND__STATUS__ERR_INTERNAL,
				   msg);
			return;
		}
	}
	if (rind_get_random_bytes(b->nonces, (size_t)g->n * RIND_SEAL_NONCE)) {
		fail_group(g, RIND__STATUS__ERR_INTERNAL, "no randomness for nonces");
		return;
	}
	/* out = AD copy || nonce || ciphertext || tag; the reply is from the nonce on */
	for (i = 0; i < g->n; i++) {
		struct item *it = &g->items[i];
		Rind__Seal *s = it->req->seal;
		size_t adl = s->associated_data.len, ptl = s->plaintext.len;

		it->outlen = adl + RIND_SEAL_NONCE + ptl + RIND_SEAL_TAG;
		it->out = arena_zalloc(it->outlen);
		it->areq = it->out ? arena_zalloc(areq_size) : NULL;
		if (!it->areq) {
			conn_error(it->c, it->req->id, RIND__STATUS__ERR_INTERNAL, "out of memory");
			arena_release(it->out, it->outlen);
			it->out = NULL;
			continue;
		}
		aead_request_set_tfm(it->areq, tfm);
		memcpy(it->out + adl, b->nonces + (size_t)i * RIND_SEAL_NONCE, RIND_SEAL_NONCE);
		sg_pair(it->src, s->associated_data.data, adl, s->plaintext.data, ptl, it->out);
		sg_pair(it->dst, it->out, adl, it->out + adl + RIND_SEAL_NONCE, ptl + RIND_SEAL_TAG,
			it->out);
		aead_request_set_ad(it->areq, (unsigned int)adl);
		aead_request_set_crypt(it->areq, it->src, it->dst, (unsigned int)ptl, it->out + adl);
		it->areq->err = 0;
		b->areqs[m++] = it->areq;
	}
	if (m) {
		rind_ct_begin();
		crypto_aead_encrypt_batch(b->areqs, m);
		rind_ct_end();
		stats_note_batch(m);
		stats_note_type_batch(g->k->alg, m, m, 1);	/* AEADs: one at a time */
	}
	resp.result_case = RIND__RESPONSE__RESULT_DATA;
	resp.key_version = g->k->version;
	for (i = 0; i < g->n; i++) {
		struct item *it = &g->items[i];
		size_t adl = it->req->seal->associated_data.len;

		if (!it->areq)
			continue;
		if (it->areq->err) {
			conn_error(it->c, it->req->id, status_from_errno(it->areq->err),
				   "seal failed (errno %d)", -it->areq->err);
		} else {
			resp.id = it->req->id;
			resp.data.data = it->out + adl;
			resp.data.len = it->outlen - adl;
			conn_respond(it->c, &resp);
		}
		arena_release(it->areq, areq_size);
		it->areq = NULL;
		arena_release(it->out, it->outlen);
		it->out = NULL;
	}
}

static void run_group(struct worker *w, struct batch_group *g)
{
	unsigned int i;

	g->type->run_batch(w, g);
	for (i = 0; i < g->n; i++)
		dispatch_free(g->items[i].req);
	g->n = 0;
}

void batch_add(struct worker *w, struct conn *c, const struct req_type *t, struct key *k,
	       Rind__Request *req)
{
	struct batch_ctx *b = w->batch;
	struct batch_group *g = NULL;
	unsigned int i;

	for (i = 0; i < b->ngroups; i++)
		if (b->groups[i].k == k && b->groups[i].type == t) {
			g = &b->groups[i];
			key_put(k);	/* the group holds one reference */
			break;
		}
	if (!g) {
		if (b->ngroups == b->cap) {
			unsigned int cap = b->cap ? b->cap * 2 : 8;
			struct batch_group *ng = realloc(b->groups, cap * sizeof(*ng));

			if (!ng)
				goto nomem;
			memset(ng + b->cap, 0, (cap - b->cap) * sizeof(*ng));
			b->groups = ng;
			for (i = b->cap; i < cap; i++) {
				ng[i].items = calloc(cfg.max_batch, sizeof(struct item));
				if (!ng[i].items) {
					b->cap = i;
					goto nomem;
				}
			}
			b->cap = cap;
		}
		g = &b->groups[b->ngroups++];
		g->k = k;
		g->type = t;
		g->n = 0;
	}
	g->items[g->n].c = c;
	g->items[g->n].req = req;
	g->items[g->n].areq = NULL;
	g->items[g->n].out = NULL;
	if (++g->n == cfg.max_batch)
		run_group(w, g);
	return;
nomem:
	conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "out of memory");
	dispatch_free(req);
	key_put(k);
}

void batch_run(struct worker *w)
{
	struct batch_ctx *b = w->batch;
	unsigned int i;

	for (i = 0; i < b->ngroups; i++) {
		struct batch_group *g = &b->groups[i];

		if (g->n)
			run_group(w, g);
		key_put(g->k);
		g->k = NULL;
	}
	b->ngroups = 0;
}
