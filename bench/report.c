// SPDX-License-Identifier: MIT
/*
 * rind-bench output: the terminal table (printed row by row as the run
 * goes), the JSON file and the self-contained HTML page (inline SVG bar
 * charts, no script, nothing fetched).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

double bench_ratio(const struct bench_result *r)
{
	double best = 0;

	if (r->cell[LIB_RIND].status != 1 || r->cell[LIB_RIND].ns <= 0)
		return 0;
	for (int lib = LIB_RIND + 1; lib < BENCH_NLIBS; lib++)
		if (r->cell[lib].status == 1 && (best == 0 || r->cell[lib].ns < best))
			best = r->cell[lib].ns;
	return best > 0 ? best / r->cell[LIB_RIND].ns : 0;
}

/* @ns in ns, us or ms, whichever reads best; @us spells microseconds (HTML: the micro sign). */
static void fmt_time(char *out, size_t len, double ns, const char *us)
{
	if (ns < 1e3)
		snprintf(out, len, "%.1f ns", ns);
	else if (ns < 1e6)
		snprintf(out, len, "%.2f %s", ns / 1e3, us);
	else
		snprintf(out, len, "%.2f ms", ns / 1e6);
}

static void fmt_ratio(char *out, size_t len, const struct bench_result *r)
{
	double x = bench_ratio(r);

	if (x <= 0)
		snprintf(out, len, "-");
	else if (x >= 1)
		snprintf(out, len, "%.2fx faster", x);
	else
		snprintf(out, len, "%.2fx", x);
}

/* "91.0 ns (-3/+5%)": the median and the spread (min, max) around it. */
static void fmt_cell(char *out, size_t len, const struct bench_cell *c)
{
	char t[32];
	double lo, hi;

	if (c->status == 0) {
		snprintf(out, len, "-");
		return;
	}
	if (c->status < 0) {
		snprintf(out, len, "ERROR");
		return;
	}
	fmt_time(t, sizeof(t), c->ns, "us");
	lo = (c->ns - c->lo) / c->ns * 100;
	hi = (c->hi - c->ns) / c->ns * 100;
	snprintf(out, len, "%s (-%.0f/+%.0f%%)", t, lo, hi);
}

#define W_OP	32
#define W_BYTES	6
#define W_CELL	22
#define W_RATIO	13

static const char *last_group;

void report_table_header(const struct bench_meta *m)
{
	printf("rind-bench %s   %s", m->version, m->cpu);
	printf(" (%d CPU%s%s", m->ncpu, m->ncpu == 1 ? "" : "s",
	       m->pinned_cpu >= 0 ? ", pinned to " : "");
	if (m->pinned_cpu >= 0)
		printf("%d", m->pinned_cpu);
	printf(")   %s\n", m->date);
	printf("%s, %s, %s\n", m->openssl, m->sodium, m->kernel);
	printf("median %s time per operation over %u alternating rounds of ~%u ms per library,"
	       " (-min/+max %%) spread%s\n", m->wall_clock ? "elapsed" : "on-CPU",
	       m->rounds, m->round_ms,
	       m->quick ? "; QUICK: smoke test, not a measurement" : "");
	printf("\n%-*s %*s  %-*s %-*s %-*s %-*s %s\n", W_OP, "operation", W_BYTES, "bytes",
	       W_CELL, bench_lib_titles[LIB_RIND], W_CELL, bench_lib_titles[LIB_OPENSSL],
	       W_CELL, bench_lib_titles[LIB_SODIUM], W_RATIO, "rind vs best", "rind driver");
	fflush(stdout);
	last_group = NULL;
}

void report_table_row(const struct bench_result *r)
{
	const struct bench_row *row = r->row;
	char cells[BENCH_NLIBS][64], ratio[32], bytes[16], op[64];

	if (!last_group || strcmp(last_group, row->group)) {
		printf("-- %s\n", row->group);
		last_group = row->group;
	}
	for (int lib = 0; lib < BENCH_NLIBS; lib++)
		fmt_cell(cells[lib], sizeof(cells[lib]), &r->cell[lib]);
	fmt_ratio(ratio, sizeof(ratio), r);
	if (r->mismatch)
		snprintf(ratio, sizeof(ratio), "MISMATCH");
	if (row->bytes)
		snprintf(bytes, sizeof(bytes), "%u", row->bytes);
	else
		bytes[0] = 0;
	if (r->is_driver_row) {
		/* a --drivers line: one rind implementation, same rounds */
		snprintf(op, sizeof(op), "  (driver)");
		cells[LIB_OPENSSL][0] = 0;
		cells[LIB_SODIUM][0] = 0;
	} else {
		snprintf(op, sizeof(op), "%s", row->op);
	}
	printf("%-*s %*s  %-*s %-*s %-*s %-*s %s\n", W_OP, op, W_BYTES, bytes,
	       W_CELL, cells[LIB_RIND], W_CELL, cells[LIB_OPENSSL], W_CELL, cells[LIB_SODIUM],
	       W_RATIO, ratio, r->driver[0] ? r->driver : "-");
	fflush(stdout);
}

void report_table_footer(const struct bench_meta *m)
{
	printf("\nOther processes held the CPU for %.0f%% of the timed rounds' elapsed time%s.",
	       m->descheduled * 100,
	       m->wall_clock ? " (included in the times: --clock wall)"
			     : " (not counted: times are on-CPU time)");
	printf("\n\"-\": the library (or this build of it) lacks the operation;"
	       " \"rind vs best\": rind's speed relative to the fastest other library"
	       " (> 1: rind is faster).\n");
}

/* ---- JSON --------------------------------------------------------------- */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double v)
{
	if (v < 10)
		fprintf(f, "%.2f", v);
	else
		fprintf(f, "%.1f", v);
}

int report_json(const char *path, const struct bench_meta *m,
		const struct bench_result *res, size_t n)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		return -1;
	}
	fputs("{\"cpu\": ", f);
	json_str(f, m->cpu);
	fputs(", \"date\": ", f);
	json_str(f, m->date);
	fputs(", \"rind_version\": ", f);
	json_str(f, m->version);
	fputs(", \"results\": [", f);
	for (size_t i = 0; i < n; i++) {
		const struct bench_result *r = &res[i];

		fputs(i ? ",\n  {" : "\n  {", f);
		fputs("\"op\": ", f);
		json_str(f, r->row->op);
		fprintf(f, ", \"bytes\": %u, \"ns\": {", r->row->bytes);
		for (int lib = 0; lib < BENCH_NLIBS; lib++) {
			fprintf(f, "%s\"%s\": ", lib ? ", " : "", bench_lib_names[lib]);
			if (r->cell[lib].status == 1)
				json_num(f, r->cell[lib].ns);
			else
				fputs("null", f);
		}
		fputs("}, \"spread\": {", f);
		for (int lib = 0; lib < BENCH_NLIBS; lib++) {
			fprintf(f, "%s\"%s\": ", lib ? ", " : "", bench_lib_names[lib]);
			if (r->cell[lib].status == 1) {
				fputc('[', f);
				json_num(f, r->cell[lib].lo);
				fputs(", ", f);
				json_num(f, r->cell[lib].hi);
				fputc(']', f);
			} else {
				fputs("null", f);
			}
		}
		fputs("}, \"driver\": ", f);
		if (r->driver[0])
			json_str(f, r->driver);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fputs("\n]}\n", f);
	if (fclose(f)) {
		perror(path);
		return -1;
	}
	return 0;
}

/* ---- HTML --------------------------------------------------------------- */

static void html_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static const char *const bar_color[BENCH_NLIBS] = { "#e8590c", "#4263eb", "#5c940d" };

#define SVG_W		1100
#define LABEL_W		300
#define BAR_X		(LABEL_W + 10)
#define BAR_W		560
#define BAR_H		15
#define BAR_GAP		3
#define ROW_PAD		14

static void html_chart(FILE *f, const char *group, const struct bench_result *res, size_t n)
{
	size_t rows = 0;
	int y, h;

	for (size_t i = 0; i < n; i++)
		if (!res[i].is_driver_row && !strcmp(res[i].row->group, group))
			rows++;
	if (!rows)
		return;
	h = (int)rows * (BENCH_NLIBS * (BAR_H + BAR_GAP) + ROW_PAD) + 10;

	fprintf(f, "<h2>");
	html_str(f, group);
	fprintf(f, "</h2>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", SVG_W, h, SVG_W, h);
	html_str(f, group);
	fprintf(f, " benchmark\">\n");

	y = 5;
	for (size_t i = 0; i < n; i++) {
		const struct bench_result *r = &res[i];
		double fastest = 0, x;
		char t[64], ratio[32], label[160];
		int block_h = BENCH_NLIBS * (BAR_H + BAR_GAP) - BAR_GAP;

		if (r->is_driver_row || strcmp(r->row->group, group))
			continue;
		for (int lib = 0; lib < BENCH_NLIBS; lib++)
			if (r->cell[lib].status == 1 && (fastest == 0 || r->cell[lib].ns < fastest))
				fastest = r->cell[lib].ns;

		if (r->row->bytes)
			snprintf(label, sizeof(label), "%s, %u B", r->row->op, r->row->bytes);
		else
			snprintf(label, sizeof(label), "%s", r->row->op);
		fprintf(f, "<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"band%zu\"/>\n",
			y - 4, SVG_W, block_h + 8, i & 1);
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"op\" text-anchor=\"end\">", LABEL_W,
			y + BAR_H - 3);
		html_str(f, label);
		fprintf(f, "</text>\n");
		x = bench_ratio(r);
		if (x > 0)
			snprintf(ratio, sizeof(ratio), "rind %.2fx %s", x >= 1 ? x : 1 / x,
				 x >= 1 ? "faster" : "slower");
		else
			snprintf(ratio, sizeof(ratio), "%s",
				 r->cell[LIB_RIND].status == 1 ? "rind only" : "");
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"ratio%s\" text-anchor=\"end\">%s</text>\n",
			LABEL_W, y + 2 * BAR_H, x >= 1 ? " win" : "", ratio);
		if (r->mismatch)
			fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"err\" text-anchor=\"end\">"
				   "outputs differ</text>\n", LABEL_W, y + 3 * BAR_H + 2);

		for (int lib = 0; lib < BENCH_NLIBS; lib++) {
			const struct bench_cell *c = &r->cell[lib];
			int by = y + lib * (BAR_H + BAR_GAP);
			double w, wlo, whi;

			if (c->status != 1) {
				fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"missing\">%s: %s</text>\n",
					BAR_X + 4, by + BAR_H - 3, bench_lib_titles[lib],
					c->status == 0 ? "-" : "error");
				continue;
			}
			/* length: speed relative to the fastest library of the row */
			w = fastest / c->ns * BAR_W;
			whi = fastest / c->lo * BAR_W;	/* fastest round */
			wlo = fastest / c->hi * BAR_W;	/* slowest round */
			if (whi > BAR_W + 40)
				whi = BAR_W + 40;
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"%s>"
				   "<title>%s</title></rect>\n", BAR_X, by, w < 1 ? 1 : w, BAR_H,
				bar_color[lib], lib == LIB_RIND ? " class=\"rind\"" : "",
				bench_lib_titles[lib]);
			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" class=\"spread\"/>\n",
				BAR_X + wlo, BAR_X + whi, by + BAR_H / 2, by + BAR_H / 2);
			fmt_time(t, sizeof(t), c->ns, "\xc2\xb5s");
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"val%s\">%s %s</text>\n",
				BAR_X + (whi > w ? whi : w) + 6, by + BAR_H - 3,
				lib == LIB_RIND ? " rindval" : "", bench_lib_titles[lib], t);
		}
		y += block_h + BAR_GAP + ROW_PAD;
	}
	fprintf(f, "</svg>\n");
}

static void html_table(FILE *f, const struct bench_result *res, size_t n)
{
	fprintf(f, "<h2>All numbers</h2>\n<div class=\"scroll\"><table>\n"
		   "<tr><th>operation</th><th>bytes</th>");
	for (int lib = 0; lib < BENCH_NLIBS; lib++)
		fprintf(f, "<th>%s ns (min&ndash;max)</th>", bench_lib_titles[lib]);
	fprintf(f, "<th>rind vs best</th><th>rind driver</th></tr>\n");
	for (size_t i = 0; i < n; i++) {
		const struct bench_result *r = &res[i];
		char ratio[32];

		fprintf(f, "<tr%s><td>", r->is_driver_row ? " class=\"drv\"" : "");
		if (r->is_driver_row)
			fputs("&nbsp;&nbsp;(driver) ", f);
		html_str(f, r->row->op);
		fprintf(f, "</td><td class=\"num\">");
		if (r->row->bytes)
			fprintf(f, "%u", r->row->bytes);
		fputs("</td>", f);
		for (int lib = 0; lib < BENCH_NLIBS; lib++) {
			const struct bench_cell *c = &r->cell[lib];

			fprintf(f, "<td class=\"num%s\">", lib == LIB_RIND ? " rindcol" : "");
			if (r->is_driver_row && lib != LIB_RIND)
				;
			else if (c->status == 1)
				fprintf(f, "%.1f <small>(%.1f&ndash;%.1f)</small>", c->ns, c->lo, c->hi);
			else if (c->status == 0)
				fputs("-", f);
			else
				fputs("<span class=\"error\">error</span>", f);
			fputs("</td>", f);
		}
		fmt_ratio(ratio, sizeof(ratio), r);
		fprintf(f, "<td class=\"num\">%s</td><td>", r->mismatch ? "outputs differ" : ratio);
		html_str(f, r->driver[0] ? r->driver : "-");
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table></div>\n");
}

int report_html(const char *path, const struct bench_meta *m,
		const struct bench_result *res, size_t n)
{
	static const char *const groups[] = {
		"AEAD", "Header protection", "Hashes and KDFs", "Key agreement",
		"Signatures", "Post-quantum",
	};
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		return -1;
	}
	fprintf(f,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>rind-bench &mdash; ");
	html_str(f, m->cpu);
	fprintf(f, " &mdash; %s</title>\n", m->date);
	fprintf(f,
		"<style>\n"
		"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
		"margin:24px 32px;color:#212529;background:#fff;max-width:1160px}\n"
		"h1{font-size:24px;margin:0 0 6px}h2{font-size:18px;margin:28px 0 6px;"
		"border-bottom:1px solid #dee2e6;padding-bottom:4px}\n"
		".meta{margin:0;color:#343a40}.meta b{display:inline-block;min-width:90px}\n"
		".method{background:#f8f9fa;border-left:4px solid #e8590c;padding:8px 12px;margin:14px 0}\n"
		".legend span{display:inline-block;margin-right:18px}\n"
		".legend i{display:inline-block;width:14px;height:14px;vertical-align:-2px;margin-right:5px}\n"
		"svg{display:block;font-family:inherit}\n"
		"svg .op{font-size:13px;fill:#212529}svg .ratio{font-size:12px;fill:#868e96}\n"
		"svg .ratio.win{fill:#c2410c;font-weight:600}\n"
		"svg .val{font-size:12px;fill:#495057}svg .rindval{fill:#c2410c;font-weight:700}\n"
		"svg .missing{font-size:12px;fill:#adb5bd}svg .err{font-size:12px;fill:#c92a2a}\n"
		"svg .band0{fill:#ffffff}svg .band1{fill:#f8f9fa}\n"
		"svg .rind{stroke:#7c2d12;stroke-width:1}\n"
		"svg .spread{stroke:#212529;stroke-width:1.5;opacity:.55}\n"
		"table{border-collapse:collapse;font-size:12px;margin-top:6px}\n"
		"th,td{border-bottom:1px solid #e9ecef;padding:3px 8px;text-align:left;white-space:nowrap}\n"
		".error{color:#c92a2a}.scroll{overflow-x:auto}\n"
		"td.num{text-align:right;white-space:nowrap}td.rindcol{background:#fff4e6}\n"
		"tr.drv td{color:#868e96}small{color:#868e96}\n"
		"</style>\n</head>\n<body>\n");
	fprintf(f, "<h1>rind-bench: rind against OpenSSL and libsodium</h1>\n");
	fprintf(f, "<p class=\"meta\"><b>Machine</b> ");
	html_str(f, m->cpu);
	fprintf(f, ", %d CPU%s", m->ncpu, m->ncpu == 1 ? "" : "s");
	if (m->pinned_cpu >= 0)
		fprintf(f, " (pinned to CPU %d)", m->pinned_cpu);
	fprintf(f, "; ");
	html_str(f, m->kernel);
	fprintf(f, "</p>\n<p class=\"meta\"><b>Date</b> %s</p>\n", m->date);
	fprintf(f, "<p class=\"meta\"><b>Versions</b> rind ");
	html_str(f, m->version);
	fprintf(f, "; ");
	html_str(f, m->openssl);
	fprintf(f, "; ");
	html_str(f, m->sodium);
	fprintf(f, "</p>\n<p class=\"meta\"><b>Command</b> <code>");
	html_str(f, m->command);
	fprintf(f, "</code></p>\n");
	fprintf(f,
		"<p class=\"method\"><b>Method.</b> Each library is called through its ordinary "
		"public API the way a server would call it, with keys, contexts and requests set "
		"up once outside the timed loop (rind: a tfm and a request; OpenSSL: EVP with "
		"reused contexts; libsodium: its crypto_* calls). After a warm-up, the libraries "
		"run in alternating rounds (A B C A B C &hellip;), %u rounds of about %u ms each "
		"per library, each round a batch of operations timed with %s. "
		"Other processes held the CPU for %.0f%% of the timed rounds' elapsed time%s. A bar "
		"shows the median time per operation as speed relative to the fastest library "
		"of its row (longer is faster); the thin line across its end spans the fastest "
		"and the slowest round. Every ratio compares numbers from this same run. "
		"&ldquo;-&rdquo;: the library lacks the operation.%s</p>\n",
		m->rounds, m->round_ms,
		m->wall_clock ? "CLOCK_MONOTONIC (elapsed time)"
			      : "CLOCK_THREAD_CPUTIME_ID (the time the thread was on a CPU)",
		m->descheduled * 100,
		m->wall_clock ? " (included in these times)" : " (not counted in these times)",
		m->quick ? " <b>This was a --quick run: a smoke test, not a measurement.</b>" : "");
	fprintf(f, "<p class=\"legend\">");
	for (int lib = 0; lib < BENCH_NLIBS; lib++)
		fprintf(f, "<span><i style=\"background:%s\"></i>%s</span>", bar_color[lib],
			bench_lib_titles[lib]);
	fprintf(f, "</p>\n");
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
		html_chart(f, groups[g], res, n);
	html_table(f, res, n);
	fprintf(f, "</body>\n</html>\n");
	if (fclose(f)) {
		perror(path);
		return -1;
	}
	return 0;
}
