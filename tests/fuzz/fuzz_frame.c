// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the rindd protocol as the daemon and the client read
 * it -- the framing of proto/frame.c over a byte stream, the protobuf-c
 * unpack of every message type of proto/rind.proto (generated into
 * <build>/proto), and the daemon's request checks (key_name_valid and
 * key_alg_parse of daemon/key-object.c).
 *
 * The Makefile links this target with the objects built for fuzzing of
 * proto/frame.c and the generated rind.pb-c.c (in librind-client.a), and
 * of daemon/key-object.c with secmem.c, the locked memory it allocates
 * key slots from; rlog, which secmem.c logs through, is defined below.
 *
 * Input: [0] bits 0-1 pick the frame size limit (16, 256, 4096 or the
 * daemon's default 1 MiB), bits 2-3 the message type the whole rest is
 * also unpacked as (Request, Response, StoredKey, Request); the rest is
 * the stream.
 *
 * Checks: rind_frame_parse walks the stream frame by frame and
 * rind_frame_read, reading the same bytes from a pipe, must find the same
 * frames and stop the same way (-EMSGSIZE over the limit, -ECONNRESET on a
 * truncated frame).  Each frame's payload is unpacked as a Request; every
 * unpacked message must pass protobuf_c_message_check, its strings and
 * bytes must lie within the payload's size, packing it must give exactly
 * protobuf_c_message_get_packed_size bytes, and unpacking and packing that
 * again must give the same bytes.  Every "name" string goes through
 * key_name_valid and every "algorithm" through key_alg_parse.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frame.h"
#include "rind.pb-c.h"
#include "rindd.h"

/* log.c's, for secmem.c: this target logs nothing. */
void rlog(const char *level, const char *fmt, ...)
{
	(void)level;
	(void)fmt;
}

#define FAIL(...) do {							\
	fprintf(stderr, "FAIL fuzz_frame: ");			\
	fprintf(stderr, __VA_ARGS__);					\
	fputc('\n', stderr);						\
	abort();							\
} while (0)

static const uint32_t limits[4] = { 16, 256, 4096, RIND_FRAME_DEFAULT_MAX };

static size_t check_strings(const ProtobufCMessage *m, size_t plen, unsigned int depth);

static size_t check_field(const ProtobufCFieldDescriptor *f, const void *p, size_t plen,
			  unsigned int depth)
{
	switch (f->type) {
	case PROTOBUF_C_TYPE_STRING: {
		const char *s = *(char *const *)p;

		if (s && strlen(s) > plen)
			FAIL("string %s longer than the payload", f->name);
		if (s && !strcmp(f->name, "name"))
			(void)key_name_valid(s);
		if (s && !strcmp(f->name, "algorithm")) {
			enum key_alg alg;
			int err = key_alg_parse(s, &alg);

			if (err && err != -EINVAL && err != -EOPNOTSUPP)
				FAIL("key_alg_parse returned %d", err);
			if (!err && !key_alg_name(alg))
				FAIL("key_alg_parse gave an algorithm without a name");
		}
		break;
	}
	case PROTOBUF_C_TYPE_BYTES: {
		const ProtobufCBinaryData *b = p;

		if (b->len > plen || (b->len && !b->data))
			FAIL("bytes %s: %zu bytes from a %zu-byte payload", f->name, b->len, plen);
		break;
	}
	case PROTOBUF_C_TYPE_MESSAGE: {
		const ProtobufCMessage *sub = *(ProtobufCMessage *const *)p;

		if (sub)
			return check_strings(sub, plen, depth + 1);
		break;
	}
	default:
		break;
	}
	return 0;
}

/*
 * Walk every field of @m (through the descriptors: any .proto revision);
 * returns the number of unknown fields kept by protobuf-c in @m and below.
 */
static size_t check_strings(const ProtobufCMessage *m, size_t plen, unsigned int depth)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;
	size_t unknown = m->n_unknown_fields;
	unsigned int i;

	if (depth > 64)
		FAIL("messages nested %u deep", depth);
	for (i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		const char *base = (const char *)m;

		if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
			uint32_t which = *(const uint32_t *)(base + f->quantifier_offset);

			if (which != f->id)
				continue;
		}
		if (f->label == PROTOBUF_C_LABEL_REPEATED) {
			size_t n = *(const size_t *)(base + f->quantifier_offset), k, sz;
			const char *arr = *(char *const *)(base + f->offset);

			if (n > plen)
				FAIL("%zu repeated %s from a %zu-byte payload", n, f->name, plen);
			switch (f->type) {
			case PROTOBUF_C_TYPE_STRING:
			case PROTOBUF_C_TYPE_MESSAGE:
				sz = sizeof(void *);
				break;
			case PROTOBUF_C_TYPE_BYTES:
				sz = sizeof(ProtobufCBinaryData);
				break;
			default:
				continue;
			}
			for (k = 0; k < n; k++)
				unknown += check_field(f, arr + k * sz, plen, depth);
		} else {
			unknown += check_field(f, base + f->offset, plen, depth);
		}
	}
	return unknown;
}

/* Unpack @p as @desc; everything it accepts must repack stably. */
static void unpack_check(const ProtobufCMessageDescriptor *desc, const uint8_t *p, size_t len)
{
	ProtobufCMessage *m, *m2;
	uint8_t *copy = malloc(len ? len : 1), *a, *b;
	size_t n, n2, unknown;

	if (!copy)
		abort();
	memcpy(copy, p, len);
	m = protobuf_c_message_unpack(desc, NULL, len, copy);
	free(copy);
	if (!m)
		return;
	if (!protobuf_c_message_check(m))
		FAIL("%s: unpacked message fails protobuf_c_message_check", desc->name);
	unknown = check_strings(m, len, 0);
	n = protobuf_c_message_get_packed_size(m);
	a = malloc(n ? n : 1);
	if (!a)
		abort();
	if (protobuf_c_message_pack(m, a) != n)
		FAIL("%s: pack disagrees with get_packed_size", desc->name);
	m2 = protobuf_c_message_unpack(desc, NULL, n, a);
	if (!m2) {
		/*
		 * protobuf-c keeps unknown fields as read, including a field
		 * number 0 written as a non-minimal varint, and writes them
		 * back in a form it then refuses: only messages without
		 * unknown fields must survive the round trip.
		 */
		if (unknown)
			goto out;
		FAIL("%s: its own packing does not unpack", desc->name);
	}
	n2 = protobuf_c_message_get_packed_size(m2);
	b = malloc(n2 ? n2 : 1);
	if (!b)
		abort();
	if (protobuf_c_message_pack(m2, b) != n2 || n2 != n || memcmp(a, b, n))
		FAIL("%s: packing is not stable (%zu then %zu bytes)", desc->name, n, n2);
	/* The framed form, as the daemon sends it. */
	{
		size_t flen;
		uint8_t *fr = rind_frame_pack_alloc(m, &flen);
		const uint8_t *pl;
		uint32_t plen;

		if (!fr || flen != n + RIND_FRAME_HDR || rind_frame_size(m) != flen ||
		    rind_frame_parse(fr, flen, (uint32_t)n, &pl, &plen) != (long)flen ||
		    plen != n || memcmp(pl, a, n))
			FAIL("%s: framing its packing does not parse back", desc->name);
		free(fr);
	}
	protobuf_c_message_free_unpacked(m2, NULL);
	free(b);
out:
	protobuf_c_message_free_unpacked(m, NULL);
	free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const ProtobufCMessageDescriptor *const whole[4] = {
		&rind__request__descriptor, &rind__response__descriptor,
		&rind__stored_key__descriptor, &rind__request__descriptor,
	};
	uint8_t sel = size ? data[0] : 0, *stream;
	uint32_t max = limits[sel & 3];
	size_t len = size ? size - 1 : 0, off = 0;
	int fds[2] = { -1, -1 }, piped = 0;
	long r;

	stream = malloc(len ? len : 1);
	if (!stream)
		abort();
	memcpy(stream, data + (size - len), len);
	unpack_check(whole[(sel >> 2) & 3], stream, len);

	/* The same bytes through a pipe for rind_frame_read (they fit its buffer). */
	if (len <= 60000 && pipe(fds) == 0) {
		piped = 1;
		if (len && write(fds[1], stream, len) != (ssize_t)len)
			FAIL("pipe write");
		close(fds[1]);
	}
	for (;;) {
		const uint8_t *payload = NULL;
		uint32_t plen = 0, rlen = 0;
		uint8_t *rpay = NULL;
		int rr = 0;

		r = rind_frame_parse(stream + off, len - off, max, &payload, &plen);
		if (piped)
			rr = rind_frame_read(fds[0], max, &rpay, &rlen);
		if (r < 0) {
			if (r != -EMSGSIZE)
				FAIL("rind_frame_parse returned %ld", r);
			if (piped && rr != -EMSGSIZE)
				FAIL("parse says -EMSGSIZE, read %d", rr);
			break;
		}
		if (r == 0) {
			if (piped && rr != -ECONNRESET)
				FAIL("parse needs more bytes, read returned %d", rr);
			break;
		}
		if ((size_t)r != RIND_FRAME_HDR + (size_t)plen || (size_t)r > len - off ||
		    payload != stream + off + RIND_FRAME_HDR || plen > max)
			FAIL("rind_frame_parse: %ld for a %u-byte payload", r, plen);
		if (piped && (rr || rlen != plen || memcmp(rpay, payload, plen)))
			FAIL("rind_frame_read (%d, %u bytes) differs from rind_frame_parse", rr, rlen);
		free(rpay);
		unpack_check(&rind__request__descriptor, payload, plen);
		off += (size_t)r;
	}
	if (piped)
		close(fds[0]);
	free(stream);
	return 0;
}
