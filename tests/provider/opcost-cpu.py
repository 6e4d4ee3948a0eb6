#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Native CPU time per TLS 1.3 full handshake, both sides together.

  opcost-cpu.py KEYDIR N1 N2 ROUNDS NAME=BUILD:MODE ...

Runs tests/provider/opcost's "hs" op (both sides in one process, as
opcost-hs.sh counts them under callgrind) natively, for each NAME (a build
directory with tests/provider/opcost and provider/rind.so, MODE stock or
rind) and each row of opcost-hs.sh (x25519 with the KEYDIR's p256, rsa and
ed25519 certificates: opcost-hs.sh's OUT_DIR has them).  The cost of one
handshake is the process's user+system CPU time at N2 handshakes minus
that at N1, over N2-N1 (start-up, self-tests and warm-up cancel out);
every round runs every NAME once, interleaved, so that a change in the
machine's load reaches every column alike; printed are the medians of the
ROUNDS rounds, their ratios to the first NAME, and every round's figures.
On a loaded machine this is noisy (and caches are shared): prefer the
instruction counts of opcost-hs.sh, and quote these with the load.

  e.g. opcost-cpu.py /tmp/rind-opcost.X 50 350 5 stock=build:stock rind=build:rind
"""
import os
import resource
import statistics
import subprocess
import sys

ROWS = [("p256", "x25519"), ("rsa", "x25519"), ("ed25519", "x25519")]


def cpu(build, keydir, key, group, mode, n):
    env = dict(os.environ, OPENSSL_CONF="/dev/null")
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([os.path.join(build, "tests/provider/opcost"), os.path.join(build, "provider"), "hs", str(n),
                    os.path.join(keydir, key + ".crt"), os.path.join(keydir, key + ".key"), group, mode],
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main():
    keydir, n1, n2, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    cols = []
    for a in sys.argv[5:]:
        name, rest = a.split("=", 1)
        build, mode = rest.rsplit(":", 1)
        cols.append((name, build, mode))
    res = {}
    for _ in range(rounds):
        for key, group in ROWS:
            for name, build, mode in cols:
                t = cpu(build, keydir, key, group, mode, n2) - cpu(build, keydir, key, group, mode, n1)
                res.setdefault((key, name), []).append(t / (n2 - n1) * 1e6)
    print("us of CPU per handshake (both sides), medians of %d rounds; load %.1f" % (rounds, os.getloadavg()[0]))
    print("%-16s" % "row" + "".join(" %10s" % c[0] for c in cols) + "".join(" %10s" % (cols[0][0] + "/" + c[0]) for c in cols[1:]))
    for key, group in ROWS:
        med = [statistics.median(res[(key, c[0])]) for c in cols]
        print("%-16s" % (group + "+" + key) + "".join(" %10.0f" % m for m in med)
              + "".join(" %10.2f" % (med[0] / m) for m in med[1:]))
    for key, group in ROWS:
        print("  rounds %s: %s" % (key, "  ".join("/".join("%.0f" % res[(key, c[0])][i] for c in cols)
                                                 for i in range(rounds))))


if __name__ == "__main__":
    main()
