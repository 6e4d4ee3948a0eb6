# Checks bench/probes/mont1-avx2.c's output: each z = a b / 2^1160 mod m~,
# each s = a^2 / 2^1160 mod m~, both below 2 m~ (digits of 29 bits, read
# as their value whatever their size).
import sys
R = 1 << 1160
vals = {}
bad = n = 0
for line in sys.stdin:
    f = line.split()
    tag, ds = f[0], [int(x, 16) for x in f[1:]]
    if tag in ('m', 'mt'):
        x = 0
        for d in ds:
            x = (x << 64) | d
        vals[tag] = x
        continue
    x = 0
    for d in ds:
        x = (x << 29) + d
    vals[tag] = x
    mt = vals['mt']
    if tag in ('z', 's'):
        y = vals['a'] * (vals['b'] if tag == 'z' else vals['a'])
        ok = (x * R - y) % mt == 0 and x < 2 * mt and max(ds) < (1 << 29) + (1 << 8)
        n += 1
        bad += not ok
assert vals['mt'] % vals['m'] == 0 and (vals['mt'] + 1) % (1 << 116) == 0
print("%d products, %d wrong" % (n, bad))
sys.exit(bad != 0)
