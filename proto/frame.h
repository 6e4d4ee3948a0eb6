/* SPDX-License-Identifier: MIT */
/*
 * Framing of the rindd protocol, shared by the daemon and librind-client:
 * every message is a 4-byte big-endian length N, then N bytes of one
 * protobuf message (rind.Request from client to daemon, rind.Response
 * back).  See proto/README.md.
 */
#ifndef _RIND_PROTO_FRAME_H
#define _RIND_PROTO_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include "rind.pb-c.h"

#define RIND_PROTOCOL_VERSION	1
#define RIND_FRAME_HDR		4
#define RIND_FRAME_DEFAULT_MAX	(1u << 20)	/* 1 MiB, the daemon's default */
#define RIND_SEAL_NONCE		12
#define RIND_SEAL_TAG		16

static inline void rind_frame_put_len(uint8_t hdr[RIND_FRAME_HDR], uint32_t len)
{
	hdr[0] = (uint8_t)(len >> 24);
	hdr[1] = (uint8_t)(len >> 16);
	hdr[2] = (uint8_t)(len >> 8);
	hdr[3] = (uint8_t)len;
}

static inline uint32_t rind_frame_get_len(const uint8_t hdr[RIND_FRAME_HDR])
{
	return (uint32_t)hdr[0] << 24 | (uint32_t)hdr[1] << 16 |
	       (uint32_t)hdr[2] << 8 | hdr[3];
}

/*
 * Parse one frame from @buf (@len bytes available).  Returns the total
 * frame size (header + payload) and sets @payload, @plen when a whole
 * frame is there, 0 when more bytes are needed, -EMSGSIZE when the
 * announced length exceeds @max.
 */
long rind_frame_parse(const uint8_t *buf, size_t len, uint32_t max,
		      const uint8_t **payload, uint32_t *plen);

/* Packed size of @msg with its frame header. */
size_t rind_frame_size(const ProtobufCMessage *msg);
/*
 * Pack @msg with its header into @out (rind_frame_size() bytes); returns
 * the bytes written.
 */
size_t rind_frame_pack(const ProtobufCMessage *msg, uint8_t *out);
/* A malloc'd framed copy of @msg (*@outlen bytes), or NULL. */
uint8_t *rind_frame_pack_alloc(const ProtobufCMessage *msg, size_t *outlen);

/*
 * Blocking helpers for simple clients.  rind_frame_write sends @msg framed
 * (retrying short writes and EINTR): 0 or -errno.  rind_frame_read reads
 * one whole frame into a malloc'd buffer (@payload, @plen bytes; the
 * caller frees it): 0, -EMSGSIZE over @max, -ECONNRESET on EOF, -errno.
 */
int rind_frame_write(int fd, const ProtobufCMessage *msg);
int rind_frame_write_raw(int fd, const void *buf, size_t len);
int rind_frame_read(int fd, uint32_t max, uint8_t **payload, uint32_t *plen);

/*
 * Protobuf strings carry a length, C strings end at the first NUL: a name
 * "web\0evil" would be read as "web".  Returns 0 when no string field of
 * the message @d (nested messages included) in the wire bytes @buf holds
 * a NUL byte, -EINVAL when one does (or the bytes do not parse).  The
 * daemon runs it on every request it has unpacked.
 */
int rind_frame_check_strings(const ProtobufCMessageDescriptor *d, const uint8_t *buf,
			     size_t len);

/* Names for the status codes ("OK", "ERR_NOT_FOUND", ...). */
const char *rind_status_name(int status);

#endif /* _RIND_PROTO_FRAME_H */
