#!/bin/sh
# make demo: start rindd on a temporary state directory and socket (no root,
# no systemd), create an Ed25519 and an AES-256-GCM key, run 8 client
# processes signing and 8 sealing at the same time (every signature is
# verified in-process with the library), print throughput and batching,
# stop the daemon cleanly.
#   sh scripts/demo.sh [BUILD_DIR]
set -eu

B=${1:-build}
RINDD=$B/rindd
RIND=$B/rind
for f in "$RINDD" "$RIND"; do
	[ -x "$f" ] || { echo "demo: $f is missing: run make first" >&2; exit 1; }
done

T=$(mktemp -d "${TMPDIR:-/tmp}/rind-demo.XXXXXX")
SOCK=$T/rindd.sock
PID=
cleanup() {
	if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then
		kill -TERM "$PID" 2>/dev/null || true
		wait "$PID" 2>/dev/null || true
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# A development master key of our own (production: --master-key-file or
# the systemd credential rindd.master).
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$T/master.hex"
chmod 600 "$T/master.hex"

echo "== rindd --socket $SOCK --state-dir $T/state --foreground"
"$RINDD" --socket "$SOCK" --state-dir "$T/state" --master-key-file "$T/master.hex" \
	--foreground 2>"$T/rindd.log" &
PID=$!
i=0
until [ -S "$SOCK" ] && "$RIND" --socket "$SOCK" ping >/dev/null 2>&1; do
	i=$((i + 1))
	if [ $i -gt 100 ] || ! kill -0 "$PID" 2>/dev/null; then
		echo "demo: rindd did not start:" >&2
		cat "$T/rindd.log" >&2
		exit 1
	fi
	sleep 0.1
done
export RIND_SOCKET=$SOCK
"$RIND" ping

echo "== keys"
"$RIND" key create demo-ed25519 --alg ed25519
"$RIND" key create demo-aes --alg aes-256-gcm
"$RIND" key list
"$RIND" key pub demo-ed25519 --format pem

echo "== one signature and one sealed box through the CLI"
printf 'hello from make demo\n' > "$T/msg"
"$RIND" sign demo-ed25519 --in "$T/msg" --out "$T/msg.sig"
"$RIND" verify demo-ed25519 --sig "$T/msg.sig" --in "$T/msg"
"$RIND" seal demo-aes --in "$T/msg" --out "$T/msg.sealed"
"$RIND" open demo-aes --in "$T/msg.sealed" | cmp - "$T/msg" && echo "sealed and opened: $(wc -c < "$T/msg.sealed") bytes"

echo "== 8 clients signing and 8 clients sealing concurrently (1 KiB messages, 16 in flight each)"
"$RIND" bench-daemon --alg ed25519 --key demo-ed25519 --clients 8 --requests 4000 \
	--pipeline 16 > "$T/sign.txt" 2>&1 &
S=$!
"$RIND" bench-daemon --alg aes-256-gcm --key demo-aes --clients 8 --requests 10000 \
	--pipeline 16 > "$T/seal.txt" 2>&1 &
A=$!
rc=0
wait $S || rc=1
wait $A || rc=1
cat "$T/sign.txt" "$T/seal.txt"
[ $rc -eq 0 ] || { echo "demo: a benchmark failed" >&2; exit 1; }

echo "== daemon statistics"
"$RIND" stats

echo "== stopping rindd"
kill -TERM "$PID"
wait "$PID" || { echo "demo: rindd exited with an error" >&2; cat "$T/rindd.log" >&2; exit 1; }
PID=
grep 'event=stopped' "$T/rindd.log" || true
echo "demo: done"
