#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Instructions per TLS 1.3 handshake by what libssl called, from callgrind.

  opcost-table.py N SRV_STOCK.cg SRV_RIND.cg CLI_STOCK.cg CLI_RIND.cg [RIND_SO_FNS]

Each FILE is a callgrind profile of tests/provider/opcost's "hs" op with
--toggle-collect on one side's functions (opcost-hs.sh makes them), N the
handshakes counted; "-" for a missing one (no stock ML-KEM).  The cost of
every call from libssl into another object is summed by callee into the
operations the provider takes over (signature, key exchange, key schedule,
transcript hash, record AEAD, random) and the certificate parse (d2i_X509;
"of it: key decoders" is its public-key decoder chain, libcrypto's
OSSL_DECODER machinery and the key check in the decoding provider); the
rest is libssl's own work and the libcrypto it calls besides.  For the rind
columns the instructions spent inside rind.so are split into rind's
cryptography and its glue (functions of provider/*.c and api/*.c, named
in RIND_SO_FNS, one a line: opcost-hs.sh lists them with nm), and the
libc rind.so calls (allocation, wipes).
"""
import collections
import re
import subprocess
import sys

CATS = [
    ("signature", r"^EVP_Digest(Sign|Verify)"),
    ("key exchange", r"^EVP_PKEY_|^EVP_KEYMGMT_"),
    ("key schedule (KDF, MAC)", r"^EVP_(KDF|MAC|Q_mac)"),
    ("transcript hash", r"^EVP_(Digest(Init|Update|Final)|MD_)"),
    ("record AEAD", r"^EVP_(Cipher|Encrypt|Decrypt|CIPHER)"),
    ("random", r"^RAND_"),
    ("certificate parse (d2i_X509)", r"^d2i_X509$"),
]


def parse(path):
    """Self cost per (object, function) and inclusive cost per call arc."""
    names, objs = {}, {}
    selfc = collections.Counter()
    arcs = collections.Counter()
    ob = fn = cob = cfn = None
    pending = False
    total = 0

    def name(tab, s):
        m = re.match(r"\((\d+)\)(?: (.*))?", s)
        if not m:
            return s
        if m.group(2) is not None:
            tab[m.group(1)] = m.group(2)
        return tab.get(m.group(1), "?")

    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if pending:
                parts = line.split()
                if len(parts) >= 2:
                    arcs[(ob, fn, cob, cfn)] += int(parts[1])
                pending = False
                cob = ob
                continue
            if line.startswith("ob="):
                ob = name(objs, line[3:])
            elif line.startswith("fn="):
                fn = name(names, line[3:])
                cob = ob
            elif line.startswith("cob="):
                cob = name(objs, line[4:])
            elif line.startswith("cfn="):
                cfn = name(names, line[4:])
            elif line.startswith("calls="):
                pending = True
            elif line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
            else:
                m = re.match(r"^(?:[+-]?\d+|\*) (\d+)$", line)
                if m and fn is not None:
                    selfc[(ob, fn)] += int(m.group(1))
    return total, selfc, arcs


def short(o):
    return (o or "?").rsplit("/", 1)[-1]


def column(path, n, rindfns):
    total, selfc, arcs = parse(path)
    c = collections.Counter()
    for (ob, fn, cob, cfn), v in arcs.items():
        if short(ob).startswith("libssl") and not short(cob).startswith("libssl"):
            for cat, rx in CATS:
                if re.search(rx, cfn):
                    c[cat] += v
                    break
            else:
                c["libssl + other libcrypto"] += v
    c["libssl + other libcrypto"] += sum(v for (ob, _), v in selfc.items() if short(ob).startswith("libssl"))
    # the decoder chain inside d2i_X509: the arcs out of libcrypto's
    # OSSL_DECODER entry points, wherever called from
    for (ob, fn, cob, cfn), v in arcs.items():
        if cfn in ("OSSL_DECODER_CTX_new_for_pkey", "OSSL_DECODER_from_data", "OSSL_DECODER_CTX_free") \
                and not cfn == fn:
            c["  of it: key decoders"] += v
    for (ob, fn), v in selfc.items():
        if short(ob) != "rind.so":
            continue
        base = fn.split("'")[0].split(".")[0]
        c["  rind glue" if base in rindfns else "  rind crypto"] += v
    for (ob, fn, cob, cfn), v in arcs.items():
        # libc.so itself: libcrypto.so's name starts with "libc" too (the
        # decoder's callbacks into it were counted here once)
        if short(ob) == "rind.so" and short(cob).startswith("libc.so"):
            c["  rind's libc calls"] += v
    c["total"] = total
    return {k: v // n for k, v in c.items()}


def main():
    n = int(sys.argv[1])
    files = sys.argv[2:6]
    rindfns = set(open(sys.argv[6]).read().split()) if len(sys.argv) > 6 else set()
    cols = [column(f, n, rindfns) if f != "-" else None for f in files]
    rows = [c for c, _ in CATS]
    rows.insert(rows.index("certificate parse (d2i_X509)") + 1, "  of it: key decoders")
    rows += ["libssl + other libcrypto", "total", "  rind crypto", "  rind glue", "  rind's libc calls"]
    print("%-30s %10s %10s %10s %10s" % ("instructions per handshake", "srv stock", "srv rind", "cli stock", "cli rind"))
    for r in rows:
        print("%-30s" % r + "".join(" %10s" % (c.get(r, 0) if c is not None else "-") for c in cols))


if __name__ == "__main__":
    main()
