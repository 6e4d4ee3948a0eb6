// SPDX-License-Identifier: MIT
/*
 * Framing helpers of the rindd protocol (see frame.h and README.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "frame.h"

long rind_frame_parse(const uint8_t *buf, size_t len, uint32_t max,
		      const uint8_t **payload, uint32_t *plen)
{
	uint32_t n;

	if (len < RIND_FRAME_HDR)
		return 0;
	n = rind_frame_get_len(buf);
	if (n > max)
		return -EMSGSIZE;
	if (len - RIND_FRAME_HDR < n)
		return 0;
	*payload = buf + RIND_FRAME_HDR;
	*plen = n;
	return (long)n + RIND_FRAME_HDR;
}

size_t rind_frame_size(const ProtobufCMessage *msg)
{
	return protobuf_c_message_get_packed_size(msg) + RIND_FRAME_HDR;
}

size_t rind_frame_pack(const ProtobufCMessage *msg, uint8_t *out)
{
	size_t n = protobuf_c_message_pack(msg, out + RIND_FRAME_HDR);

	rind_frame_put_len(out, (uint32_t)n);
	return n + RIND_FRAME_HDR;
}

uint8_t *rind_frame_pack_alloc(const ProtobufCMessage *msg, size_t *outlen)
{
	size_t n = rind_frame_size(msg);
	uint8_t *out = malloc(n);

	if (!out)
		return NULL;
	*outlen = rind_frame_pack(msg, out);
	return out;
}

int rind_frame_write_raw(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t r = send(fd, p, len, MSG_NOSIGNAL);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

int rind_frame_write(int fd, const ProtobufCMessage *msg)
{
	size_t n;
	uint8_t *buf = rind_frame_pack_alloc(msg, &n);
	int err;

	if (!buf)
		return -ENOMEM;
	err = rind_frame_write_raw(fd, buf, n);
	free(buf);
	return err;
}

static int read_full(int fd, uint8_t *p, size_t len)
{
	while (len) {
		ssize_t r = read(fd, p, len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -ECONNRESET;
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

int rind_frame_read(int fd, uint32_t max, uint8_t **payload, uint32_t *plen)
{
	uint8_t hdr[RIND_FRAME_HDR];
	uint32_t n;
	uint8_t *buf;
	int err;

	err = read_full(fd, hdr, sizeof(hdr));
	if (err)
		return err;
	n = rind_frame_get_len(hdr);
	if (n > max)
		return -EMSGSIZE;
	buf = malloc(n ? n : 1);
	if (!buf)
		return -ENOMEM;
	err = read_full(fd, buf, n);
	if (err) {
		free(buf);
		return err;
	}
	*payload = buf;
	*plen = n;
	return 0;
}

/* A varint at *@p (before @end): 0 and the value, -EINVAL if cut or over 10 bytes. */
static int get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	unsigned int shift = 0;

	*v = 0;
	while (*p < end && shift < 70) {
		uint8_t b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
		shift += 7;
	}
	return -EINVAL;
}

#define CHECK_DEPTH_MAX	16

static int check_strings(const ProtobufCMessageDescriptor *d, const uint8_t *p, size_t len,
			 unsigned int depth)
{
	const uint8_t *end = p + len;

	if (depth > CHECK_DEPTH_MAX)
		return -EINVAL;
	while (p < end) {
		const ProtobufCFieldDescriptor *f;
		uint64_t tag, n;

		if (get_varint(&p, end, &tag) || tag >> 3 == 0 || tag >> 3 > UINT32_MAX)
			return -EINVAL;
		f = protobuf_c_message_descriptor_get_field(d, (unsigned int)(tag >> 3));
		switch (tag & 7) {
		case 0:
			if (get_varint(&p, end, &n))
				return -EINVAL;
			break;
		case 1:
		case 5:
			n = (tag & 7) == 1 ? 8 : 4;
			if ((size_t)(end - p) < n)
				return -EINVAL;
			p += n;
			break;
		case 2:
			if (get_varint(&p, end, &n) || n > (uint64_t)(end - p))
				return -EINVAL;
			if (f && f->type == PROTOBUF_C_TYPE_STRING && memchr(p, 0, (size_t)n))
				return -EINVAL;
			if (f && f->type == PROTOBUF_C_TYPE_MESSAGE &&
			    check_strings(f->descriptor, p, (size_t)n, depth + 1))
				return -EINVAL;
			p += n;
			break;
		default:
			return -EINVAL;	/* groups: not in this protocol */
		}
	}
	return 0;
}

int rind_frame_check_strings(const ProtobufCMessageDescriptor *d, const uint8_t *buf,
			     size_t len)
{
	return check_strings(d, buf, len, 0);
}

const char *rind_status_name(int status)
{
	const ProtobufCEnumValue *v =
		protobuf_c_enum_descriptor_get_value(&rind__status__descriptor, status);

	return v ? v->name : "UNKNOWN";
}
