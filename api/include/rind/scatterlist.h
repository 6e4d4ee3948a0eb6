/* SPDX-License-Identifier: MIT */
/*
 * Scatterlists: a buffer given as a chain of (address, length) segments, as
 * the kernel's <linux/scatterlist.h>.  In user space a segment is a virtual
 * address rather than a page; the helpers keep the kernel's names and
 * argument order.  A table ends at the entry marked with sg_mark_end()
 * (sg_init_table() marks its last entry); sg_chain() links tables.
 */
#ifndef _RIND_SCATTERLIST_H
#define _RIND_SCATTERLIST_H

#include <rind/types.h>
#include <string.h>
#include <sys/types.h>

struct scatterlist {
	unsigned long page_link;	/* SG_CHAIN / SG_END bits, or chain target */
	unsigned int offset;
	unsigned int length;
	void *addr;			/* the segment's base address */
};

#define SG_CHAIN	0x01UL
#define SG_END		0x02UL
#define SG_PAGE_LINK_MASK (SG_CHAIN | SG_END)

static inline bool sg_is_chain(const struct scatterlist *sg)
{
	return sg->page_link & SG_CHAIN;
}

static inline bool sg_is_last(const struct scatterlist *sg)
{
	return sg->page_link & SG_END;
}

static inline struct scatterlist *sg_chain_ptr(const struct scatterlist *sg)
{
	return (struct scatterlist *)(sg->page_link & ~SG_PAGE_LINK_MASK);
}

static inline void sg_mark_end(struct scatterlist *sg)
{
	sg->page_link |= SG_END;
	sg->page_link &= ~SG_CHAIN;
}

static inline void sg_unmark_end(struct scatterlist *sg)
{
	sg->page_link &= ~SG_END;
}

static inline void sg_set_buf(struct scatterlist *sg, const void *buf, unsigned int buflen)
{
	sg->addr = (void *)buf;
	sg->offset = 0;
	sg->length = buflen;
}

static inline void *sg_virt(const struct scatterlist *sg)
{
	return (u8 *)sg->addr + sg->offset;
}

static inline void sg_init_table(struct scatterlist *sgl, unsigned int nents)
{
	memset(sgl, 0, sizeof(*sgl) * nents);
	if (nents)
		sg_mark_end(&sgl[nents - 1]);
}

static inline void sg_init_one(struct scatterlist *sg, const void *buf, unsigned int buflen)
{
	sg_init_table(sg, 1);
	sg_set_buf(sg, buf, buflen);
}

/* Make the last entry of @prv (which has @prv_nents entries) point at @sgl. */
static inline void sg_chain(struct scatterlist *prv, unsigned int prv_nents, struct scatterlist *sgl)
{
	struct scatterlist *link = &prv[prv_nents - 1];

	link->offset = 0;
	link->length = 0;
	link->addr = NULL;
	link->page_link = ((unsigned long)sgl & ~SG_PAGE_LINK_MASK) | SG_CHAIN;
}

static inline struct scatterlist *sg_next(struct scatterlist *sg)
{
	if (sg_is_last(sg))
		return NULL;
	sg++;
	while (sg_is_chain(sg))
		sg = sg_chain_ptr(sg);
	return sg;
}

#define for_each_sg(sglist, sg, nr, __i) \
	for (__i = 0, sg = (sglist); __i < (nr) && sg; __i++, sg = sg_next(sg))

int sg_nents(struct scatterlist *sg);
int sg_nents_for_len(struct scatterlist *sg, u64 len);
size_t sg_copy_from_buffer(struct scatterlist *sgl, unsigned int nents, const void *buf, size_t buflen);
size_t sg_copy_to_buffer(struct scatterlist *sgl, unsigned int nents, void *buf, size_t buflen);
size_t sg_pcopy_from_buffer(struct scatterlist *sgl, unsigned int nents, const void *buf, size_t buflen, off_t skip);
size_t sg_pcopy_to_buffer(struct scatterlist *sgl, unsigned int nents, void *buf, size_t buflen, off_t skip);
size_t sg_zero_buffer(struct scatterlist *sgl, unsigned int nents, size_t buflen, off_t skip);

#endif /* _RIND_SCATTERLIST_H */
