// SPDX-License-Identifier: MIT
/*
 * Phase probe (not built by make): where ML-DSA signing's cycles go, on
 * the AVX2 driver.  Includes arch/x86/mldsa-avx2.c itself (its
 * registration disabled) so that the steps inside the sign_w hook can be
 * timed one by one, and runs the signing loop of algs/mldsa.c with an
 * rdtsc around every phase; a self-check compares its signatures with
 * the library's (deterministic and a fixed rnd).
 *
 *   make -j2 && cc -O2 -Iapi/include -Iarch/x86 -o /tmp/mp bench/probes/mldsa-phases.c \
 *      build/librind-internal.a -pthread
 *   taskset -c 1 /tmp/mp [SET [SIGS]]     SET 44, 65 (default) or 87; SIGS 2000
 *
 * Prints, per signature: crypto_sig_sign's rdtsc min / p10 / median and
 * the median of CLOCK_THREAD_CPUTIME_ID over batches of 50 calls; per
 * attempt the median and mean TSC ticks of each phase; the attempts per
 * signature and what rejected them.  Hedged signing of a 1 KiB message
 * (rnd from the library's RNG), as rind-bench's row.  Other modes (env):
 * SPLIT=1 sign_r, sign_z, sign_hint of one attempt alone (and with every
 * challenge shift rounded to 32: no window load crossing a cache line);
 * POOL=1 one attempt's ExpandMask + c-tilde alone; NTT=1 the transforms
 * and A*y rows alone, hot in the cache.
 *
 * What it showed (AMD EPYC Zen 3, 2-vCPU KVM guest, 2026-12-02; TSC
 * ticks, the core runs at ~1.26 ticks' worth of cycles a tick):
 * ML-DSA-65 takes 5.0-5.2 attempts a signature, 3.5 rejected by the r0
 * check, 0.6 by z, < 0.01 by the hints.  Per attempt in a quiet phase:
 * ExpandMask + c-tilde ~9.7k (8.25 four-way permutations at ~1100:
 * the floor of 25 y blocks + 8 hash blocks in four lanes), y NTT 3.4k
 * (680 a polynomial, the same hot in the cache), A*y 2.7k, inverse NTT
 * 4.7k, w1 1.0k, SampleInBall 0.8k, r0 check 3.2k (after the w0 - c s2
 * change; 3.65k before, min of 2000 runs); once a signature: z 2.1k,
 * hints 6.2k (c t0 in 16-bit lanes; ~7.7k before), sigEncode 3.8k.
 * Split loads cost nothing measurable (SPLIT's aligned column).  The
 * machine's speed moves by 20-30% between runs of a minute apart.
 */
#include <rind/internal/alg.h>
#undef module_init
#define module_init(fn) static int (*const probe_unused_##fn)(void) __attribute__((unused)) = fn
#include "../../arch/x86/mldsa-avx2.c"

#include <rind/crypto.h>
#include <rind/rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static inline u64 tsc(void)
{
	_mm_lfence();
	return __rdtsc();
}

enum { PH_MASK, PH_NTT, PH_AY, PH_INV, PH_W1, PH_CT, PH_CH, PH_R, PH_Z, PH_HINT, PH_PACK, PH_N };
static const char *const ph_name[PH_N] = {
	"ExpandMask (pool)", "y NTT", "A*y", "inverse NTT", "w1 decompose+pack",
	"H(mu||w1)+ball (pool)", "SampleInBall", "r0 check (w-cs2)", "z check (y+cs1)",
	"hint (ct0)", "sigEncode",
};

#define MAXREC (1 << 17)
static u32 rec[PH_N][MAXREC];
static unsigned int nrec[PH_N];
static unsigned long rej_r, rej_z, rej_h, attempts, sigs;

static void put(unsigned int ph, u64 t)
{
	if (nrec[ph] < MAXREC)
		rec[ph][nrec[ph]++] = (u32)t;
}

static int cmpu32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static int cmpu64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

struct pws {
	struct mldsa_poly y[MLDSA_LMAX], yh[MLDSA_LMAX], w[MLDSA_KMAX], r1[MLDSA_KMAX];
	struct mldsa_challenge ch;
	u8 w1[MLDSA_KMAX * 192], ctilde[64], ball[SHAKE256_RATE], rhopp[64];
	struct mldsa_mask_cache mcache;
};

static struct pws wsb_last __attribute__((aligned(64)));
static int keep_last;

/* rind_mldsa_sign_mu with the sign_w hook opened up and every phase timed */
static AVX2 int probe_sign_mu(const struct mldsa_key *key, const u8 mu[64], const u8 rnd[32], u8 *sig)
{
	const struct mldsa_params *p = key->p;
	const struct mldsa_ops *ops = key->ops;
	unsigned int i, j, kappa, wb = p->gamma2 == G2_88 ? 192 : 128, zb = 32 * (p->gamma1_bits + 1);
	static struct pws wsb __attribute__((aligned(64)));
	struct pws *ws = &wsb;
	struct keccak_state st;
	u64 t0, t1;

	ws->mcache.init = 0;
	rind_shake256_init(&st);
	rind_keccak_absorb(&st, key->K, 32);
	rind_keccak_absorb(&st, rnd, 32);
	rind_keccak_absorb(&st, mu, 64);
	rind_keccak_squeeze(&st, ws->rhopp, 64);
	for (kappa = 0; kappa <= 65536 - MLDSA_LMAX; kappa += p->l) {
		u32 bad = 0, count = 0;

		attempts++;
		t0 = tsc();
		ops->expand_mask_loop(p, ws->rhopp, (u16)kappa, ws->y, &ws->mcache);
		t1 = tsc(); put(PH_MASK, t1 - t0); t0 = t1;
		for (j = 0; j < p->l; j++)
			avx2_ntt_lazy(ws->yh[j].c, ws->y[j].c);
		t1 = tsc(); put(PH_NTT, t1 - t0); t0 = t1;
		for (i = 0; i < p->k; i++)
			avx2_pointwise_acc(&ws->w[i], key->a[i], ws->yh, p->l);
		t1 = tsc(); put(PH_AY, t1 - t0); t0 = t1;
		for (i = 0; i < p->k; i++)
			avx2_invntt_lazy(&ws->w[i]);
		t1 = tsc(); put(PH_INV, t1 - t0); t0 = t1;
		for (i = 0; i < p->k; i++)
			w1_pack(ws->w1 + wb * i, &ws->w[i], p->gamma2, true);
		t1 = tsc(); put(PH_W1, t1 - t0); t0 = t1;
		ops->ctilde(p, ws->ctilde, ws->ball, mu, ws->w1, wb * p->k, ws->rhopp, (u16)kappa,
			    &ws->mcache);
		t1 = tsc(); put(PH_CT, t1 - t0); t0 = t1;
		rind_mldsa_sample_challenge(p, ws->ctilde, ws->ball, &ws->ch);
		t1 = tsc(); put(PH_CH, t1 - t0); t0 = t1;
		for (i = 0; i < p->k; i++)
			bad |= ops->sign_r(&ws->w[i], &key->pre, i, &ws->ch, p);
		t1 = tsc(); put(PH_R, t1 - t0); t0 = t1;
		if (keep_last)
			wsb_last = *ws;
		if (bad) {
			rej_r++;
			continue;
		}
		for (j = 0; j < p->l; j++)
			bad |= ops->sign_z(&ws->y[j], &key->pre, j, &ws->ch, p);
		t1 = tsc(); put(PH_Z, t1 - t0); t0 = t1;
		if (bad) {
			rej_z++;
			continue;
		}
		for (i = 0; i < p->k; i++)
			bad |= ops->sign_hint(&ws->r1[i], &ws->w[i], &key->pre, i, &ws->ch, p, &count);
		bad |= (u32)((s32)(p->omega - count) >> 31);
		t1 = tsc(); put(PH_HINT, t1 - t0); t0 = t1;
		if (bad) {
			rej_h++;
			continue;
		}
		memcpy(sig, ws->ctilde, p->ctilde_bytes);
		for (j = 0; j < p->l; j++)
			rind_mldsa_pack_z(sig + p->ctilde_bytes + zb * j, &ws->y[j], p->gamma1_bits);
		{
			/* algs/mldsa.c's HintBitPack */
			u8 *hb = sig + p->ctilde_bytes + zb * p->l, pos[MLDSA_OMEGA_MAX + 8];
			unsigned int idx = 0, m;

			for (i = 0; i < p->k; i++) {
				const s32 *h = ws->r1[i].c;

				for (j = 0; j < MLDSA_N; j += 8) {
					if (!(h[j] | h[j + 1] | h[j + 2] | h[j + 3] |
					      h[j + 4] | h[j + 5] | h[j + 6] | h[j + 7]))
						continue;
					for (m = 0; m < 8; m++) {
						pos[idx] = (u8)(j + m);
						idx += h[j + m] != 0;
					}
				}
				hb[p->omega + i] = (u8)idx;
			}
			memset(pos + idx, 0, p->omega - idx);
			memcpy(hb, pos, p->omega);
		}
		t1 = tsc(); put(PH_PACK, t1 - t0);
		sigs++;
		return 0;
	}
	return -EAGAIN;
}

static u64 ns_thread(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *set = argc > 1 ? argv[1] : "65";
	unsigned int nsig = argc > 2 ? (unsigned int)atoi(argv[2]) : 2000, n, ph;
	char name[32];
	struct crypto_sig *tfm;
	struct mldsa_key *key;
	u8 seed[32], msg[1024], sig[MLDSA_SIG_MAX], sig2[MLDSA_SIG_MAX], mu[64], rnd[32];
	u64 *tt = calloc(nsig, sizeof(u64)), *bt = calloc(nsig / 50 + 1, sizeof(u64));
	unsigned int nb = 0;
	int r;

	mldsa_avx2_tables();
	snprintf(name, sizeof(name), "mldsa%s-avx2", set);
	tfm = crypto_alloc_sig(name, 0, 0);
	if (IS_ERR(tfm))
		return fprintf(stderr, "no %s\n", name), 1;
	for (n = 0; n < 32; n++)
		seed[n] = (u8)(n * 7 + 1);
	for (n = 0; n < sizeof(msg); n++)
		msg[n] = (u8)n;
	if (crypto_sig_set_privkey(tfm, seed, 32))
		return 1;
	key = rind_mldsa_tfm_key(tfm);
	/* the four-way permutation alone, and one step of the signer's pool */
	{
		static struct ypool pl __attribute__((aligned(64)));
		static struct mldsa_mask_cache mc __attribute__((aligned(64)));
		u64 a, pt[2][1000];

		memset(&pl, 0, sizeof(pl));
		for (n = 0; n < 1000; n++) {
			a = tsc();
			keccakx4_f1600(&pl.s.st);
			pt[0][n] = tsc() - a;
		}
		pool_init(&pl, &mc, msg, 0);	/* any 64 bytes for rho'' */
		for (n = 0; n < 1000; n++) {
			a = tsc();
			pool_step(&pl, 0xf);
			pt[1][n] = tsc() - a;
			if (pl.outstanding == SLOTS) {
				unsigned int s;

				for (s = 0; s < SLOTS; s++)
					if (pl.slot_st[s] == SLOT_DONE) {
						pl.slot_st[s] = SLOT_FREE;
						pl.outstanding--;
					}
			}
		}
		qsort(pt[0], 1000, sizeof(u64), cmpu64);
		qsort(pt[1], 1000, sizeof(u64), cmpu64);
		printf("keccakx4_f1600 TSC min %llu median %llu; pool_step min %llu median %llu\n",
		       (unsigned long long)pt[0][0], (unsigned long long)pt[0][500],
		       (unsigned long long)pt[1][0], (unsigned long long)pt[1][500]);
	}
	/*
	 * sign_r, sign_z, sign_hint of one attempt alone on a challenge from
	 * the loop, then with every shift rounded to a multiple of 32 (no
	 * window load crossing a cache line): what the split loads cost
	 */
	/* the transforms alone, hot in the cache */
	if (getenv("NTT")) {
		static struct mldsa_poly a __attribute__((aligned(64))), b __attribute__((aligned(64)));
		static u64 pt[3][2000];
		unsigned int m;

		for (n = 0; n < MLDSA_N; n++)
			a.c[n] = (s32)(n * 2053 % 524288) - 262144;
		for (n = 0; n < 2000; n++) {
			u64 t = tsc();

			avx2_ntt_lazy(b.c, a.c);
			pt[0][n] = tsc() - t;
			for (m = 0; m < MLDSA_N; m++)
				b.c[m] = (s32)((u32)b.c[m] % Q) - Q / 2;
			t = tsc();
			avx2_invntt_lazy(&b);
			pt[1][n] = tsc() - t;
			t = tsc();
			avx2_pointwise_acc(&b, key->a[0], key->a[1], key->p->l);
			pt[2][n] = tsc() - t;
		}
		{
			static struct pws ws __attribute__((aligned(64)));
			static u64 sw[2000];

			for (m = 0; m < MLDSA_LMAX; m++)
				ws.y[m] = a;
			for (n = 0; n < 2000; n++) {
				u64 t = tsc();

				avx2_sign_w(key, ws.y, ws.yh, ws.w, ws.w1);
				sw[n] = tsc() - t;
			}
			qsort(sw, 2000, sizeof(u64), cmpu64);
			printf("hot: sign_w min %llu median %llu TSC\n", (unsigned long long)sw[0],
			       (unsigned long long)sw[1000]);
		}
		for (m = 0; m < 3; m++)
			qsort(pt[m], 2000, sizeof(u64), cmpu64);
		printf("hot: ntt_lazy min %llu median %llu; invntt_lazy %llu %llu; pointwise_acc (l) %llu %llu TSC\n",
		       (unsigned long long)pt[0][0], (unsigned long long)pt[0][1000],
		       (unsigned long long)pt[1][0], (unsigned long long)pt[1][1000],
		       (unsigned long long)pt[2][0], (unsigned long long)pt[2][1000]);
		return 0;
	}
	/* one attempt's Keccak work alone: expand_mask_loop and ctilde, 2000 attempts */
	if (getenv("POOL")) {
		static struct pws ws __attribute__((aligned(64)));
		static u64 pt[2000];
		unsigned int kap = 0, wbytes = key->p->k * (key->p->gamma2 == G2_88 ? 192 : 128);

		memset(&ws, 0, sizeof(ws));
		for (n = 0; n < 2000; n++, kap += key->p->l) {
			u64 a = tsc();

			key->ops->expand_mask_loop(key->p, ws.rhopp, (u16)kap, ws.y, &ws.mcache);
			key->ops->ctilde(key->p, ws.ctilde, ws.ball, mu, ws.w1, wbytes, ws.rhopp,
					 (u16)kap, &ws.mcache);
			pt[n] = tsc() - a;
			if (kap > 60000) {
				kap = 0;
				ws.mcache.init = 0;
			}
		}
		qsort(pt, 2000, sizeof(u64), cmpu64);
		printf("ExpandMask + ctilde per attempt: min %llu p25 %llu median %llu\n",
		       (unsigned long long)pt[0], (unsigned long long)pt[500],
		       (unsigned long long)pt[1000]);
		return 0;
	}
	if (getenv("SPLIT")) {
		static struct pws ws __attribute__((aligned(64)));
		u64 a, pt[3][2][2000];
		unsigned int v, i, m, t;
		u32 bad = 0, cnt = 0;

		rind_mldsa_mu(key, NULL, 0, msg, sizeof(msg), mu);
		memset(rnd, 3, 32);
		keep_last = 1;
		probe_sign_mu(key, mu, rnd, sig);
		ws = wsb_last;
		for (v = 0; v < 2; v++) {
			if (v)
				for (i = 0; i < ws.ch.n; i++)
					ws.ch.sh[i] &= ~31u;
			for (t = 0; t < 2000; t++) {
				a = tsc();
				for (i = 0; i < key->p->k; i++)
					bad |= key->ops->sign_r(&ws.w[i], &key->pre, i, &ws.ch, key->p);
				pt[0][v][t] = tsc() - a;
				a = tsc();
				for (i = 0; i < key->p->l; i++)
					bad |= key->ops->sign_z(&ws.y[i], &key->pre, i, &ws.ch, key->p);
				pt[1][v][t] = tsc() - a;
				a = tsc();
				for (i = 0; i < key->p->k; i++)
					bad |= key->ops->sign_hint(&ws.r1[i], &ws.w[i], &key->pre, i, &ws.ch, key->p, &cnt);
				pt[2][v][t] = tsc() - a;
			}
			for (m = 0; m < 3; m++)
				qsort(pt[m][v], 2000, sizeof(u64), cmpu64);
		}
		printf("(%u) sign_r x k min/median %llu/%llu, aligned %llu/%llu; sign_z x l %llu/%llu, %llu/%llu;"
		       " sign_hint x k %llu/%llu, %llu/%llu\n", bad & 1,
		       (unsigned long long)pt[0][0][0], (unsigned long long)pt[0][0][1000],
		       (unsigned long long)pt[0][1][0], (unsigned long long)pt[0][1][1000],
		       (unsigned long long)pt[1][0][0], (unsigned long long)pt[1][0][1000],
		       (unsigned long long)pt[1][1][0], (unsigned long long)pt[1][1][1000],
		       (unsigned long long)pt[2][0][0], (unsigned long long)pt[2][0][1000],
		       (unsigned long long)pt[2][1][0], (unsigned long long)pt[2][1][1000]);
		return 0;
	}
	/* self-check: the probe's loop gives the library's signatures */
	for (n = 0; n < 20; n++) {
		memset(rnd, n ? (int)n : 0, 32);
		rind_mldsa_mu(key, NULL, 0, msg, sizeof(msg), mu);
		rind_mldsa_sign_mu(key, mu, rnd, sig);
		probe_sign_mu(key, mu, rnd, sig2);
		if (memcmp(sig, sig2, key->p->sig_size))
			return fprintf(stderr, "probe's signature differs (%u)\n", n), 1;
	}
	memset(nrec, 0, sizeof(nrec));
	rej_r = rej_z = rej_h = attempts = sigs = 0;
	/* whole calls */
	for (n = 0; n < nsig; n++) {
		u64 a = tsc();

		r = crypto_sig_sign(tfm, msg, sizeof(msg), sig, sizeof(sig));
		tt[n] = tsc() - a;
		if (r <= 0)
			return 1;
	}
	for (n = 0; n + 50 <= nsig; n += 50) {
		u64 a = ns_thread();
		unsigned int m;

		for (m = 0; m < 50; m++)
			crypto_sig_sign(tfm, msg, sizeof(msg), sig, sizeof(sig));
		bt[nb++] = (ns_thread() - a) / 50;
	}
	qsort(tt, nsig, sizeof(u64), cmpu64);
	qsort(bt, nb, sizeof(u64), cmpu64);
	printf("ML-DSA-%s hedged sign, 1 KiB: crypto_sig_sign TSC min %llu p10 %llu median %llu;"
	       " on-CPU per sig (batches of 50) min %.2f median %.2f us\n", set,
	       (unsigned long long)tt[0], (unsigned long long)tt[nsig / 10],
	       (unsigned long long)tt[nsig / 2], bt[0] / 1000.0, bt[nb / 2] / 1000.0);
	/* phases */
	for (n = 0; n < nsig; n++) {
		if (rind_get_random_bytes(rnd, 32))
			return 1;
		rind_mldsa_mu(key, NULL, 0, msg, sizeof(msg), mu);
		probe_sign_mu(key, mu, rnd, sig);
	}
	printf("attempts/sig %.3f; rejected by r0 %.3f, z %.3f, hint %.3f per sig\n",
	       (double)attempts / sigs, (double)rej_r / sigs, (double)rej_z / sigs,
	       (double)rej_h / sigs);
	{
		double tot = 0;

		/*
		 * mean: of the runs below the 95th percentile (the host's
		 * interruptions left out); per sig: that mean times the runs
		 * per signature
		 */
		printf("%-24s %8s %8s %8s %10s\n", "phase", "runs/att", "median", "mean95", "per sig");
		for (ph = 0; ph < PH_N; ph++) {
			unsigned int keep = nrec[ph] - nrec[ph] / 20;
			double mean = 0, per;

			qsort(rec[ph], nrec[ph], sizeof(u32), cmpu32);
			for (n = 0; n < keep; n++)
				mean += rec[ph][n];
			mean /= keep ? keep : 1;
			per = mean * nrec[ph] / sigs;
			tot += per;
			printf("%-24s %8.3f %8u %8.0f %10.0f\n", ph_name[ph], (double)nrec[ph] / attempts,
			       nrec[ph] ? rec[ph][nrec[ph] / 2] : 0, mean, per);
		}
		printf("%-24s %8s %8s %8s %10.0f\n", "sum", "", "", "", tot);
	}
	crypto_free_sig(tfm);
	return 0;
}
