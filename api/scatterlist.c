// SPDX-License-Identifier: MIT
/*
 * Scatterlist walking: copies between scatterlists and linear buffers, and
 * the contiguous "map" view implementations use.  Zero-length entries are
 * legal anywhere and skipped.
 */
#include <string.h>
#include <rind/internal/alg.h>
#include <rind/internal/util.h>

RIND_EXPORT int sg_nents(struct scatterlist *sg)
{
	int n = 0;

	for (; sg; sg = sg_next(sg))
		n++;
	return n;
}

RIND_EXPORT int sg_nents_for_len(struct scatterlist *sg, u64 len)
{
	int n = 0;
	u64 total = 0;

	if (!len)
		return 0;
	for (; sg; sg = sg_next(sg)) {
		n++;
		total += sg->length;
		if (total >= len)
			return n;
	}
	return -EINVAL;
}

/* Copy between @buflen bytes of @buf and @sgl starting @skip bytes in. */
static size_t sg_copy(struct scatterlist *sg, unsigned int nents, void *buf, size_t buflen,
		      size_t skip, bool to_buffer)
{
	size_t done = 0;
	unsigned int i = 0;

	for (; sg && i < nents && done < buflen; sg = sg_next(sg), i++) {
		size_t len = sg->length, n;
		u8 *p = sg_virt(sg);

		if (skip >= len) {
			skip -= len;
			continue;
		}
		p += skip;
		len -= skip;
		skip = 0;
		n = min(len, buflen - done);
		if (to_buffer)
			memmove((u8 *)buf + done, p, n);
		else if (buf)
			memmove(p, (const u8 *)buf + done, n);
		else
			memset(p, 0, n);
		done += n;
	}
	return done;
}

RIND_EXPORT size_t sg_copy_from_buffer(struct scatterlist *sgl, unsigned int nents, const void *buf,
				       size_t buflen)
{
	return sg_copy(sgl, nents, (void *)buf, buflen, 0, false);
}

RIND_EXPORT size_t sg_copy_to_buffer(struct scatterlist *sgl, unsigned int nents, void *buf, size_t buflen)
{
	return sg_copy(sgl, nents, buf, buflen, 0, true);
}

RIND_EXPORT size_t sg_pcopy_from_buffer(struct scatterlist *sgl, unsigned int nents, const void *buf,
					size_t buflen, off_t skip)
{
	return sg_copy(sgl, nents, (void *)buf, buflen, (size_t)skip, false);
}

RIND_EXPORT size_t sg_pcopy_to_buffer(struct scatterlist *sgl, unsigned int nents, void *buf,
				      size_t buflen, off_t skip)
{
	return sg_copy(sgl, nents, buf, buflen, (size_t)skip, true);
}

RIND_EXPORT size_t sg_zero_buffer(struct scatterlist *sgl, unsigned int nents, size_t buflen, off_t skip)
{
	return sg_copy(sgl, nents, NULL, buflen, (size_t)skip, false);
}

/* Sum of the lengths of a scatterlist from @skip on, capped at @want. */
static size_t sg_avail(struct scatterlist *sg, size_t skip, size_t want)
{
	size_t total = 0;

	for (; sg && total < want; sg = sg_next(sg)) {
		if (skip >= sg->length) {
			skip -= sg->length;
			continue;
		}
		total += sg->length - skip;
		skip = 0;
	}
	return total;
}

u8 *rind_sg_contig(struct scatterlist *sg, size_t skip, size_t len)
{
	for (; sg; sg = sg_next(sg)) {
		if (skip < sg->length || (len == 0 && skip == sg->length && sg_is_last(sg))) {
			if (sg->length - skip >= len)
				return (u8 *)sg_virt(sg) + skip;
			return NULL;
		}
		skip -= sg->length;
	}
	return NULL;
}

static u8 empty_buf[1];

int rind_sg_map(struct rind_sg_map *m, struct scatterlist *src, struct scatterlist *dst,
		size_t skip, size_t len)
{
	u8 *s, *d;

	memset(m, 0, sizeof(*m));
	m->len = len;
	m->dsg = dst;
	m->skip = skip;
	if (!len) {
		m->src = empty_buf;
		m->dst = empty_buf;
		return 0;
	}
	if (!src || !dst)
		return -EINVAL;
	s = rind_sg_contig(src, skip, len);
	d = src == dst ? s : rind_sg_contig(dst, skip, len);
	if (s && d) {
		m->src = s;
		m->dst = d;
		return 0;
	}
	if (sg_avail(src, skip, len) < len || sg_avail(dst, skip, len) < len)
		return -EINVAL;
	m->bounce = malloc(len);
	if (!m->bounce)
		return -ENOMEM;
	sg_pcopy_to_buffer(src, ~0u, m->bounce, len, (off_t)skip);
	m->src = m->bounce;
	m->dst = m->bounce;
	return 0;
}

void rind_sg_unmap(struct rind_sg_map *m, bool copy_out)
{
	if (!m->bounce)
		return;
	if (copy_out && m->dsg)
		sg_pcopy_from_buffer(m->dsg, ~0u, m->bounce, m->len, (off_t)m->skip);
	rind_memzero_explicit(m->bounce, m->len);
	free(m->bounce);
	m->bounce = NULL;
}

int rind_sg_map_ro(struct rind_sg_map *m, struct scatterlist *sg, size_t skip, size_t len)
{
	int err = rind_sg_map(m, sg, sg, skip, len);

	m->dsg = NULL;	/* never copied back */
	return err;
}
