// SPDX-License-Identifier: MIT
/*
 * Probe (not built by make), issue 13 item 2, step 2: does one ADX
 * 16-limb squaring and one AVX2 1024-bit squaring (mont1-avx2.c) in one
 * instruction stream run faster than two ADX squarings (the two CRT
 * halves of an RSA-2048 signature as rind runs them now)?
 *
 *   P=bench/probes; S=arch/x86/bn-adx-8x8u.S
 *   python3 $P/vmont_gen.py > /tmp/vmont.S
 *   python3 $P/vpair-gen.py $S merge 100 pair_il > /tmp/p1.S
 *   python3 $P/vpair-gen.py $S seq 0 pair_seq > /tmp/p2.S
 *   NOCHAIN=1 python3 $P/vpair-gen.py $S merge 100 pair_nochain > /tmp/p3.S
 *   cc -O2 -mavx2 -Iapi/include -o /tmp/vpair $P/vpair.c /tmp/p[123].S \
 *      /tmp/vmont.S $S && /tmp/vpair
 *
 * Results: see mont1-avx2.c's header.
 */
#define NO_MAIN
#define ASM
#include "mont1-avx2.c"

struct vpair { u64 a[L]; u64 mp[4][L]; };
typedef void pair_fn(u64 *r, const u64 *a, const u64 *m, u64 m0inv, u64 k, u64 *t,
		     struct vpair *v);
pair_fn pair_il, pair_seq, pair_nochain;
void bnx_sqr16k_adx(u64 *r, const u64 *a, const u64 *m, u64 m0inv, u64 k, u64 *t);

int main(void)
{
	u64 m[16], mt[19], m0inv, x = 1, ra[16], rb[16], t[64], va[L];
	static struct vmont c;
	static struct vpair vp;
	pair_fn *fs[] = { pair_il, pair_seq, pair_nochain };
	const char *nm[] = { "interleaved", "one after the other", "interleaved, no q chain" };
	u64 best[3] = { ~0ull, ~0ull, ~0ull }, bs = ~0ull, bv = ~0ull;
	int bad = 0, k = 5;

	for (int j = 0; j < 16; j++)
		m[j] = xr();
	m[0] |= 1;
	m[15] |= 1ull << 63;
	for (int i = 0; i < 6; i++)
		x *= 2 - m[0] * x;
	m0inv = 0 - x;
	vsetup(&c, mt, m);
	memcpy(vp.mp, c.mp, sizeof(c.mp));
	/* the pair's two results against the kernels run separately */
	for (int it = 0; it < 200; it++) {
		u64 w[19];

		for (int j = 0; j < 16; j++)
			ra[j] = xr();
		ra[15] &= m[15] >> 1;
		for (int j = 0; j < 19; j++)
			w[j] = xr();
		w[17] &= mt[17] >> 1;
		w[18] = 0;
		to29(va, w, 19);
		memcpy(vp.a, va, sizeof(va));
		pair_il(rb, ra, m, m0inv, 1 + it % 6, t, &vp);
		bnx_sqr16k_adx(ra, ra, m, m0inv, 1 + it % 6, t);
		for (int j = 0; j < 1 + it % 6; j++)
			vsqr40(va, va, c.mp[0]);
		bad |= memcmp(ra, rb, sizeof(ra)) != 0 || memcmp(va, vp.a, sizeof(va)) != 0;
	}
	printf("pair == the two kernels apart: %s\n", bad ? "NO" : "yes");
	for (int rep = 0; rep < 10000; rep++) {
		for (int f = 0; f < 3; f++) {
			u64 t0 = __rdtsc();
			fs[f](ra, ra, m, m0inv, k, t, &vp);
			u64 t1 = __rdtsc();
			if (t1 - t0 < best[f])
				best[f] = t1 - t0;
		}
		u64 t0 = __rdtsc();
		bnx_sqr16k_adx(ra, ra, m, m0inv, k, t);
		u64 t1 = __rdtsc();
		if (t1 - t0 < bs)
			bs = t1 - t0;
		t0 = __rdtsc();
		for (int j = 0; j < k; j++)
			vsqr40(va, va, c.mp[0]);
		t1 = __rdtsc();
		if (t1 - t0 < bv)
			bv = t1 - t0;
	}
	printf("TSC minima a squaring (k = %d in a call): ADX %.0f, vector %.0f, two ADX %.0f\n",
	       k, (double)bs / k, (double)bv / k, 2.0 * bs / k);
	for (int f = 0; f < 3; f++)
		printf("  pair %-24s %.0f  (/ two ADX %.3f, / ADX + vector %.3f)\n", nm[f],
		       (double)best[f] / k, best[f] / (2.0 * bs), (double)best[f] / (bs + bv));
	return bad;
}
