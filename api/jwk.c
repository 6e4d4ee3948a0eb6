// SPDX-License-Identifier: MIT
/*
 * The small piece of JSON (RFC 8259) that JSON Web Keys (RFC 7517) need:
 * one flat object whose members are strings (plus the booleans, numbers
 * and string arrays that WebCrypto exports carry), read strictly, and a
 * writer for string members.  Strings are printable ASCII without escapes; member
 * names must be unique; nothing may follow the object but whitespace.
 */
#include <errno.h>
#include <string.h>
#include <rind/err.h>
#include <rind/internal/keyfmt.h>
#include <rind/internal/util.h>

struct jp {
	const char *s;
	size_t i, n;
};

static void jp_ws(struct jp *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' ||
			       p->s[p->i] == '\n' || p->s[p->i] == '\r'))
		p->i++;
}

static int jp_char(struct jp *p, char c)
{
	jp_ws(p);
	if (p->i < p->n && p->s[p->i] == c) {
		p->i++;
		return 1;
	}
	return 0;
}

/* All-ones if c == v, without a data-dependent branch. */
static inline u32 ct_byte_eq(u32 c, u32 v)
{
	return 0u - (((c ^ v) - 1) >> 31);
}

/*
 * A string.  Its contents may be a secret ("d" of a private key), so the
 * scan does not branch on them: each character's "is it the closing
 * quote" answer (the public length of the string) is declassified for the
 * valgrind build, and the validity of the characters is accumulated and
 * decided once.
 */
static int jp_string(struct jp *p, const char **v, size_t *len)
{
	size_t start;
	u32 bad = 0;

	jp_ws(p);
	if (p->i >= p->n || p->s[p->i] != '"')
		return -EKEYREJECTED;
	start = ++p->i;
	for (; p->i < p->n; p->i++) {
		u32 c = (u8)p->s[p->i], q = ct_byte_eq(c, '"') & 1;

		rind_declassify(&q, sizeof(q));
		if (q)
			break;
		bad |= ((c - 0x20) >> 31) | ((0x7eu - c) >> 31) | (ct_byte_eq(c, '\\') & 1);
	}
	rind_declassify(&bad, sizeof(bad));
	if (bad || p->i >= p->n)
		return -EKEYREJECTED;
	*v = p->s + start;
	*len = p->i - start;
	p->i++;
	return 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int jp_number(struct jp *p)
{
	size_t d;

	if (p->i < p->n && p->s[p->i] == '-')
		p->i++;
	if (p->i < p->n && p->s[p->i] == '0') {
		p->i++;
	} else {
		for (d = 0; p->i < p->n && is_digit(p->s[p->i]); d++)
			p->i++;
		if (!d)
			return -EKEYREJECTED;
	}
	if (p->i < p->n && p->s[p->i] == '.') {
		p->i++;
		for (d = 0; p->i < p->n && is_digit(p->s[p->i]); d++)
			p->i++;
		if (!d)
			return -EKEYREJECTED;
	}
	if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
		p->i++;
		if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
			p->i++;
		for (d = 0; p->i < p->n && is_digit(p->s[p->i]); d++)
			p->i++;
		if (!d)
			return -EKEYREJECTED;
	}
	return 0;
}

static int jp_word(struct jp *p, const char *w)
{
	size_t l = strlen(w);

	if (p->n - p->i < l || memcmp(p->s + p->i, w, l))
		return -EKEYREJECTED;
	p->i += l;
	return 0;
}

static int jp_value(struct jp *p, struct rind_json_member *m)
{
	const char *v;
	size_t l;
	int err = 0;
	char c;

	jp_ws(p);
	if (p->i >= p->n)
		return -EKEYREJECTED;
	c = p->s[p->i];
	m->is_string = 0;
	m->val = p->s + p->i;
	if (c == '"') {
		err = jp_string(p, &m->val, &m->vallen);
		m->is_string = 1;
		return err;
	}
	if (c == '[') {
		p->i++;
		if (!jp_char(p, ']')) {
			do {
				err = jp_string(p, &v, &l);
				if (err)
					return err;
			} while (jp_char(p, ','));
			if (!jp_char(p, ']'))
				return -EKEYREJECTED;
		}
	} else if (c == 't') {
		err = jp_word(p, "true");
	} else if (c == 'f') {
		err = jp_word(p, "false");
	} else if (c == 'n') {
		err = jp_word(p, "null");
	} else if (c == '-' || is_digit(c)) {
		err = jp_number(p);
	} else {
		return -EKEYREJECTED;		/* nested objects and the rest */
	}
	if (c != '[' && err)
		return err;
	m->vallen = (size_t)(p->s + p->i - m->val);
	return 0;
}

int rind_json_parse(const char *in, size_t inlen, struct rind_json_obj *obj)
{
	struct jp p = { in, 0, inlen };
	struct rind_json_member *m;
	unsigned int k;
	int err;

	obj->n = 0;
	if (!jp_char(&p, '{'))
		return -EKEYREJECTED;
	if (!jp_char(&p, '}')) {
		do {
			if (obj->n >= RIND_JSON_MAX_MEMBERS)
				return -EKEYREJECTED;
			m = &obj->m[obj->n];
			err = jp_string(&p, &m->name, &m->namelen);
			if (err)
				return err;
			for (k = 0; k < obj->n; k++)
				if (obj->m[k].namelen == m->namelen &&
				    !memcmp(obj->m[k].name, m->name, m->namelen))
					return -EKEYREJECTED;	/* duplicate */
			if (!jp_char(&p, ':'))
				return -EKEYREJECTED;
			err = jp_value(&p, m);
			if (err)
				return err;
			obj->n++;
		} while (jp_char(&p, ','));
		if (!jp_char(&p, '}'))
			return -EKEYREJECTED;
	}
	jp_ws(&p);
	if (p.i != p.n)
		return -EKEYREJECTED;
	return 0;
}

const struct rind_json_member *rind_json_get(const struct rind_json_obj *obj, const char *name)
{
	size_t l = strlen(name);
	unsigned int k;

	for (k = 0; k < obj->n; k++)
		if (obj->m[k].namelen == l && !memcmp(obj->m[k].name, name, l))
			return &obj->m[k];
	return NULL;
}

int rind_json_str_eq(const struct rind_json_obj *obj, const char *name, const char *val)
{
	const struct rind_json_member *m = rind_json_get(obj, name);
	size_t l = strlen(val);

	return m && m->is_string && m->vallen == l && !memcmp(m->val, val, l);
}

int rind_json_get_b64url(const struct rind_json_obj *obj, const char *name,
			 u8 *out, size_t len, int exact)
{
	const struct rind_json_member *m = rind_json_get(obj, name);
	int n;

	if (!m)
		return -ENOENT;
	if (!m->is_string)
		return -EKEYREJECTED;
	if (exact && m->vallen != rind_base64_encoded_len(len, RIND_B64_NOPAD))
		return -EKEYREJECTED;
	n = rind_base64_decode(m->val, m->vallen, out, len, RIND_B64_URL | RIND_B64_NOPAD);
	if (n < 0)
		return -EKEYREJECTED;
	if (exact && (size_t)n != len) {
		memzero_explicit(out, (size_t)n);
		return -EKEYREJECTED;
	}
	return n;
}

/* ------------------------------------------------------------------ */

void rind_jsonw_init(struct rind_jsonw *w, char *buf, size_t cap)
{
	w->buf = buf;
	w->cap = buf ? cap : 0;
	w->pos = 0;
	w->err = 0;
	w->n = 0;
	/* '{' is written by the first member or by finish. */
}

/*
 * Whether @l more bytes may be written: not after an error, and (unless
 * the writer only counts, with no buffer) only where they fit, the
 * first overflow setting -ENOSPC.
 */
static bool jw_room(struct rind_jsonw *w, size_t l)
{
	if (w->err)
		return false;
	if (w->buf && l > w->cap - w->pos) {
		w->err = -ENOSPC;
		return false;
	}
	return true;
}

static void jw_raw(struct rind_jsonw *w, const char *s, size_t l)
{
	if (!jw_room(w, l))
		return;
	if (w->buf)
		memcpy(w->buf + w->pos, s, l);
	w->pos += l;
}

static void jw_name(struct rind_jsonw *w, const char *name)
{
	jw_raw(w, w->n++ ? ",\"" : "{\"", 2);
	jw_raw(w, name, strlen(name));
	jw_raw(w, "\":\"", 3);
}

void rind_jsonw_str(struct rind_jsonw *w, const char *name, const char *val)
{
	jw_name(w, name);
	jw_raw(w, val, strlen(val));
	jw_raw(w, "\"", 1);
}

void rind_jsonw_b64url(struct rind_jsonw *w, const char *name, const u8 *val, size_t len)
{
	size_t l = rind_base64_encoded_len(len, RIND_B64_NOPAD);
	int n;

	jw_name(w, name);
	if (!jw_room(w, l))
		return;
	if (w->buf) {
		n = rind_base64_encode(val, len, w->buf + w->pos, w->cap - w->pos,
				       RIND_B64_URL | RIND_B64_NOPAD);
		if (n < 0) {
			w->err = n;
			return;
		}
	}
	w->pos += l;
	jw_raw(w, "\"", 1);
}

int rind_jsonw_finish(struct rind_jsonw *w)
{
	if (!w->n)
		jw_raw(w, "{", 1);
	jw_raw(w, "}", 1);
	if (w->err)
		return w->err;
	if (w->pos > 0x7fffffff)
		return -ENOSPC;
	if (w->buf && w->pos < w->cap)
		w->buf[w->pos] = '\0';
	return (int)w->pos;
}
