# rind: build with nothing but a C compiler and make.
#   make            librind.a, librind.so (versioned SONAME), the rind tool
#                   (and librind-internal.a, for what is built in the tree)
#   make check      every test suite, then again under ASan+UBSan, the
#                   exported-symbol check and the benchmark smoke run
#   make check-arm64  cross-build with aarch64-linux-gnu-gcc, run under qemu
#   make bench      side-by-side benchmark (BENCH_ARGS="--json f --html f")
#   make install    PREFIX=/usr/local DESTDIR=
VERSION_MAJOR := 0
VERSION := 0.1.0

CC ?= cc
ifeq ($(origin CC),default)
CC := cc
endif
AR ?= ar
LD ?= ld
OBJCOPY ?= objcopy
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
DOCDIR ?= $(PREFIX)/share/doc/rind
PKG_CONFIG ?= pkg-config
O ?= build

ARCH ?= $(shell $(CC) -dumpmachine | sed -e 's/-.*//' -e 's/x86_64/x86/' -e 's/aarch64/arm64/')

WARN := -Wall -Wextra -Werror
# Full debug information (types, lines, backtraces) without variable
# location tracking: that pass alone took 20-40% of the compile time of
# the largest files (the field arithmetic inlined many times over) and does
# not change the code.  Locals of optimised code show as <optimized out>
# more often; make CFLAGS="-O2 -g" brings the locations back.
CFLAGS ?= -O2 -g -fno-var-tracking
# The arithmetic -- algs/ and arch/, 80% of the library's compile time --
# gets line tables only (-g1): backtraces, breakpoints by line and perf
# annotate work there as before; its locals (mostly <optimized out> without
# variable tracking anyway) and its types (arrays of limbs and vectors) are
# not described.  The registry, the front ends and the daemon (api/,
# daemon/, client/) keep full -g, so gdb still knows every structure of the
# API from any frame.  Measured: 19.5 -> 17.5 s of CPU over the library's
# 126 files (scripts/build-times.sh, minimum of 3, AMD Zen 5).  Only for
# the default CFLAGS: any CFLAGS given to make is used as it is.
ifeq ($(origin CFLAGS),file)
ARITH_CFLAGS := -g1
endif
# -pipe: the compiler hands its assembly to the assembler through a pipe
# instead of a temporary file: the same objects byte for byte; 0.01 s less
# system time on api/registry.c (10 runs), within the noise of a whole
# build (user + system CPU of `make -j2 lib` varies by 5-10% run to run).
BASE_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -pthread -fPIC -fvisibility=hidden -pipe \
	-Iapi/include -D_GNU_SOURCE -DRIND_VERSION_STRING='"$(VERSION)"'
LIB_LDLIBS := -pthread

LIB_SRCS := $(wildcard api/*.c) $(wildcard algs/*.c) \
	$(wildcard arch/$(ARCH)/*.c) $(wildcard arch/$(ARCH)/*.S)
# The slowest files to compile (scripts/build-times.sh) go first in the job
# queue, longest first, so that a parallel build does not end with one core
# waiting for the last big file.  Only the order changes; a name missing
# here is built in its alphabetical place.  Measured on AMD Zen 5 (CPU s,
# minimum of 3): ecc-p256-ifma-mb 1.40, mldsa-avx2 1.04, ed25519-ifma 0.76,
# algs/ed25519 0.70, gcm-vaes-avx2 0.68, bn-ifma-mb 0.66, algs/p384 0.63 ...
# The precompiled header (below) is built first, beside the first files,
# which do not use it: GNU make puts an object whose prerequisite is still
# being built back at the end of its walk, and with ed25519-ifma.c second
# in the list that file was compiled last, alone on one core (0.7 s).
LIB_SLOW := algs/ed25519.c algs/p384.c algs/p256.c \
	arch/x86/ecc-p256-ifma-mb.c arch/x86/mldsa-avx2.c arch/x86/ed25519-ifma.c arch/x86/gcm-vaes-avx2.c \
	arch/x86/bn-ifma-mb.c arch/x86/ecc-p521-adx.c arch/x86/ecc-p256-adx.c algs/p521.c \
	arch/x86/ecc-p384-adx.c arch/x86/mlkem-avx2.c arch/x86/mlkem-avx512.c algs/aes.c \
	arch/x86/gcm-vaes-avx512.c arch/x86/bn-ifma.c arch/x86/mldsa-avx512.c algs/bignum.c \
	arch/x86/gcm-aesni.c arch/x86/ed25519-mulx.c algs/mlkem.c arch/x86/sha256-shani.c \
	arch/x86/sha512-avx2.c arch/x86/sha512-avx512vl.c algs/ecdsa.c arch/x86/aes-aesni.c arch/x86/poly1305-avx2.c \
	arch/x86/poly1305-avx512ifma.c arch/x86/chacha20poly1305-avx2.c algs/curve25519.c algs/mldsa.c \
	arch/x86/sha512-mb-avx512.c
LIB_SRCS := $(filter $(LIB_SRCS),$(LIB_SLOW)) $(filter-out $(LIB_SLOW),$(LIB_SRCS))
# Code with no hot path -- key encodings (DER, PEM, JWK, base64 and each
# algorithm's key formats), the self-test runners, the version string --
# compiles at -O1 in the default -O2 build: 40% less compile time for
# these files, and no benchmark row runs them.  An explicit CFLAGS without
# -O2 (the sanitizer builds' -O1, a -O0 debug build) is left alone.
LIB_COLD := api/testmgr.c api/testmgr-pk.c api/testmgr-sym.c api/keyfmt.c api/der.c api/pem.c \
	api/jwk.c api/base64.c api/pqkey.c api/version.c algs/ecc-key.c algs/rsa-keyfmt.c \
	algs/mlkem-key.c algs/mldsa-key.c
# The drivers check-vex.sh holds to VEX encodings only, object by object.
VEX_CHECKED := arch/x86/gcm-vaes-avx2.c arch/x86/gcm-vaes-avx512.c arch/x86/aes-vaes-avx512.c \
	arch/x86/chacha20poly1305-avx2.c arch/x86/chacha-avx2.c
# The AVX-512 drivers, whose second build (test_emu) runs them on an
# emulation of the instructions (tests/emu/), and the x86 files that read
# the intrinsics headers, directly or through one of arch/x86's own (they
# use the precompiled header below).
EMU_HDRS := $(notdir $(shell grep -l '^\#include "x86-target.h"' arch/$(ARCH)/*.h 2>/dev/null))
EMU_SRCS := $(shell grep -lE '^\#include "(x86-target\.h$(foreach h,$(subst .,\.,$(EMU_HDRS)),|$(h)))"' \
	arch/$(ARCH)/*.c 2>/dev/null) api/cpufeature.c
empty :=
space := $(empty) $(empty)
X86_INTRIN_HDRS := $(notdir $(shell grep -l '^\#include <[a-z0-9]*intrin\.h>' arch/x86/*.h))
X86_INTRIN_SRCS := $(shell grep -lE '^\#include (<[a-z0-9]*intrin\.h>|"($(subst $(space),|,$(strip $(subst .,\.,$(X86_INTRIN_HDRS)))))")' arch/x86/*.c)
# Unity objects: in the default build the small files of api/, algs/ and
# arch/x86/ (all but LIB_SLOW's) are compiled up to UNITY_MAX to one object, each
# group a generated $(O)/unity/<group>.c that #includes its files.  Every
# compile pays ~20 ms of its own (the compiler's start, the common headers
# read again); grouped, 74 files are 8 objects, the library's 126 compiles
# 60, and their CPU 16.9 -> 15.0 s (AMD Zen 5, each file's minimum of 3
# runs, scripts/build-times.sh).  The files stay what they
# are: each still compiles alone in every other build (any CFLAGS given to
# make: the sanitizer, ct and fuzz builds), so a static name
# or a macro that two files of a group both define is an error here and
# wants a name of its own (or an #undef after its last use).
# The small x86 drivers are two more classes, those that read the
# intrinsics (the precompiled header's users, X86_INTRIN_SRCS) and the
# others.  Left alone: the files the AVX-512 emulation build compiles again
# in its own way (EMU_SRCS, api/cpufeature.c among them), the files whose
# own objects check-exports reads (VEX_CHECKED), and arm64's, several of
# which have flags of their own.
ifeq ($(origin CFLAGS),file)
UNITY_CLASSES := api api-cold algs $(if $(filter x86,$(ARCH)),x86 x86-intrin)
endif
UNITY_MAX := 13
UNITY_SRCS_api := $(sort $(filter-out $(LIB_SLOW) $(LIB_COLD) $(EMU_SRCS),$(filter api/%,$(LIB_SRCS))))
UNITY_SRCS_api-cold := $(sort $(filter $(LIB_COLD),$(filter api/%,$(LIB_SRCS))))
UNITY_SRCS_algs := $(sort $(filter-out $(LIB_SLOW) $(LIB_COLD),$(filter algs/%,$(LIB_SRCS))))
UNITY_X86 := $(filter-out $(LIB_SLOW) $(EMU_SRCS) $(VEX_CHECKED),$(filter arch/x86/%.c,$(LIB_SRCS)))
UNITY_SRCS_x86 := $(sort $(filter-out $(X86_INTRIN_SRCS),$(UNITY_X86)))
UNITY_SRCS_x86-intrin := $(sort $(filter $(X86_INTRIN_SRCS),$(UNITY_X86)))
comma := ,
# A class of n files is dealt in turn to ceil(n / UNITY_MAX) groups of
# nearly equal size: "class-i=file,file,...".
unity_deal = $(shell printf '%s\n' $(UNITY_SRCS_$(1)) | awk -v m=$(UNITY_MAX) -v c=$(1) \
	'{ a[NR] = $$0 } END { n = int((NR + m - 1) / m); for (i = 0; i < n; i++) { s = c "-" i "="; \
	for (j = i + 1; j <= NR; j += n) s = s a[j] ","; print s } }')
define unity_group
UNITY_GROUPS += $(1)
UNITY_$(1) := $(subst $(comma), ,$(2))
endef
UNITY_GROUPS :=
$(foreach c,$(UNITY_CLASSES),$(foreach g,$(call unity_deal,$(c)),\
	$(eval $(call unity_group,$(firstword $(subst =, ,$(g))),$(lastword $(subst =, ,$(g)))))))
UNITY_MEMBERS := $(foreach g,$(UNITY_GROUPS),$(UNITY_$(g)))
UNITY_OBJS := $(patsubst %,$(O)/obj/unity/%.c.o,$(UNITY_GROUPS))
# after the slowest files in the job queue: each takes 0.5-1 s
LIB_OBJS := $(patsubst %,$(O)/obj/%.o,$(filter $(LIB_SLOW),$(LIB_SRCS))) $(UNITY_OBJS) \
	$(patsubst %,$(O)/obj/%.o,$(filter-out $(LIB_SLOW) $(UNITY_MEMBERS),$(LIB_SRCS)))
# A group's list of files, rewritten at parse time only when it changes, so
# that the generated source (and then its object) is remade exactly then.
$(foreach g,$(UNITY_GROUPS),$(if $(filter-out $(file <$(O)/unity/$(g).list),$(UNITY_$(g)))$(filter-out \
	$(UNITY_$(g)),$(file <$(O)/unity/$(g).list)),$(shell mkdir -p $(O)/unity)$(file >$(O)/unity/$(g).list,$(UNITY_$(g)))))
# (written at parse time above; this rule only for `make clean all`)
$(O)/unity/%.list:
	$(shell mkdir -p $(dir $@))$(file >$@,$(UNITY_$*))
# (kept: the lists are what a build compares with, the sources what the
# compiler's messages and the debug information name)
.SECONDARY: $(patsubst %,$(O)/unity/%.c,$(UNITY_GROUPS)) $(patsubst %,$(O)/unity/%.list,$(UNITY_GROUPS))
$(O)/unity/%.c: $(O)/unity/%.list
	$(Q)printf '/* generated (Makefile, unity objects): %s */\n' "$$(cat $<)" > $@
	$(Q)for f in $$(cat $<); do printf '#include "%s"\n' "$$f"; done >> $@
# -iquote .: the group's file names are relative to the top of the tree;
# each file's own #include "..." still looks in its own directory first.
$(O)/obj/unity/%.c.o: $(O)/unity/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(BASE_CFLAGS) $(PCH_FLAGS) -iquote . $(DEPFLAGS) -c $< -o $@
ifneq ($(filter -O2,$(CFLAGS)),)
$(filter $(patsubst %,$(O)/obj/%.o,$(LIB_COLD)) $(O)/obj/unity/api-cold-%,$(LIB_OBJS)): BASE_CFLAGS += -O1
endif
$(O)/obj/algs/%.o $(O)/obj/arch/%.o $(O)/obj/unity/algs-%.o $(O)/obj/unity/x86-%.o: BASE_CFLAGS += $(ARITH_CFLAGS)
# Public symbol patterns, from the shared library's version script: the
# installed static archive keeps exactly these global too.
PUBLIC_SYMS := $(shell sed -n '/global:/,/local:/p' scripts/librind.map | grep -o '[a-z0-9_]*\*')
HEADERS := $(wildcard api/include/rind/*.h)
ALL_HEADERS := $(HEADERS) $(wildcard api/include/rind/internal/*.h) $(wildcard api/include/crypto/*.h) \
	$(wildcard arch/$(ARCH)/*.h)
# Objects depend on the headers they include (the compiler writes the list,
# $@.d, beside each object) rather than on every header of the tree.
DEPFLAGS = -MMD -MP -MF $@.d

TEST_SRCS := $(wildcard tests/test_*.c)
ifeq ($(ARCH),arm64)
# The daemon is x86-64/Linux-native here; its tests are not cross-built.
TEST_SRCS := $(filter-out tests/test_daemon%,$(TEST_SRCS))
endif
TEST_BINS := $(patsubst tests/%.c,$(O)/tests/%,$(TEST_SRCS))
TEST_LIBS := $(shell $(PKG_CONFIG) --libs check jansson libcrypto libsodium 2>/dev/null || echo -lcheck -lsubunit -ljansson -lcrypto -lsodium) -lm -lrt -pthread
TEST_CFLAGS := $(shell $(PKG_CONFIG) --cflags check jansson 2>/dev/null) -Itests -DRIND_SOURCE_DIR='"$(CURDIR)"'

BENCH_SRCS := $(wildcard bench/*.c)
BENCH_LIBS := $(shell $(PKG_CONFIG) --libs libcrypto libsodium 2>/dev/null || echo -lcrypto -lsodium) -lm -pthread

.PHONY: install-data all lib check check-install check-tsan ct ct-timing fuzz fuzz-build fuzz-bins check-fuzz demo check-unit check-asan check-exports check-arm64 bench bench-build \
	install uninstall clean demo test-build
.DELETE_ON_ERROR:

all: lib $(O)/rind

lib: $(O)/librind.a $(O)/librind.so

V ?= 0
ifeq ($(V),0)
Q := @
say = @printf '  %-6s %s\n' $(1) $(2);
else
Q :=
say =
endif

$(O)/obj/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(BASE_CFLAGS) $(PCH_FLAGS) $(DEPFLAGS) -c $< -o $@

# <immintrin.h> is 46k lines of inline functions: parsing it takes ~0.2 s
# of CPU in every x86 driver's compile, reading it precompiled 0.02 s.  gcc
# reads it once as a precompiled header (pch/x86-intrin.h), forced first
# into each arch/x86 file that includes an intrinsics header, directly or
# through one of arch/x86's own headers (-include, so the files keep their
# own #include <immintrin.h>, which the include guard then skips).  The code
# is the same byte for byte.  The others (the MULX/ADX field code,
# ecc-p*-adx.c among the slowest files of the build) neither load its 30 MB
# nor wait for it to be built, so a parallel build starts them at once.
# A .gch that does not fit the flags is an error (-Werror=invalid-pch),
# never a silent fallback to parsing; it is rebuilt when the command that
# builds it changes (pch/cmd holds it and the compiler's --version line:
# other CFLAGS given to make, another or upgraded gcc) and when a header
# it holds changes (-MD: gcc's own headers listed too), and every object
# that reads it depends on it, so is compiled again.  Left out by
# configuration: clang (it reads no gcc .gch and parses the header faster,
# so CC=clang and the fuzz build parse it as before) and other arches.
# Measured and dropped: a second PCH of the headers nearly every file
# includes (libc's, <rind/internal/util.h>, alg.h, ...): no difference
# beyond the noise in the front end's 3 s, and a change to any header in it
# would rebuild every file.
CC_IS_GCC := $(shell $(CC) -dM -E -x c /dev/null 2>/dev/null | grep -q __clang__ || echo y)
ifeq ($(ARCH)$(CC_IS_GCC),x86y)
X86_PCH := $(O)/pch/x86-intrin.h
X86_PCH_CMD := $(CC) $(BASE_CFLAGS) $(ARITH_CFLAGS) -x c-header
X86_PCH_STAMP := $(X86_PCH_CMD) $(shell $(CC) --version | head -n 1)
ifneq ($(file <$(O)/pch/cmd),$(X86_PCH_STAMP))
$(shell mkdir -p $(O)/pch)
$(file >$(O)/pch/cmd,$(X86_PCH_STAMP))
endif
PCH_USE = -Winvalid-pch -Werror=invalid-pch -include $(1)
X86_OBJS := $(filter $(patsubst %,$(O)/obj/%.o,$(X86_INTRIN_SRCS)) $(O)/obj/unity/x86-intrin-%,$(LIB_OBJS))
$(X86_OBJS): PCH_FLAGS := $(call PCH_USE,$(X86_PCH))
$(X86_OBJS): $(X86_PCH).gch
# first in the walk of the library's objects (LIB_SLOW above says why)
LIB_FIRST := $(X86_PCH).gch
# (written at parse time above; this rule only for `make clean all`)
$(O)/pch/cmd:
	$(shell mkdir -p $(dir $@))$(file >$@,$(X86_PCH_STAMP))
# The header is a target of its own: the .gch's dependency file names it,
# so that `make clean all` (which reads that file before it cleans) finds
# a rule for it.
$(X86_PCH): $(O)/pch/cmd
	@mkdir -p $(dir $@)
	@printf '/* generated: the x86 intrinsics, precompiled (Makefile) */\n#include <immintrin.h>\n' > $@
$(X86_PCH).gch: $(X86_PCH) $(O)/pch/cmd
	$(call say,PCH,$(X86_PCH))$(X86_PCH_CMD) -MD -MP -MF $@.d -c $(X86_PCH) -o $@
-include $(wildcard $(X86_PCH).gch.d)
endif

# arm64 with clang: its <arm_neon.h> declares the AES/PMULL/SHA intrinsics
# only when the file is compiled for them (gcc's honours the drivers'
# target("+crypto") attributes).  The compilers emit these instructions only
# where the intrinsics ask, and the drivers register only where getauxval()
# reports them, so the file-wide flag changes nothing else.
ifeq ($(ARCH)$(CC_IS_GCC),arm64)
ARM64_CE_OBJS := $(filter $(O)/obj/arch/arm64/aes-ce.c.o $(O)/obj/arch/arm64/gcm-ce.c.o \
	$(O)/obj/arch/arm64/sha1-ce.c.o $(O)/obj/arch/arm64/sha256-ce.c.o,$(LIB_OBJS))
$(ARM64_CE_OBJS): BASE_CFLAGS += -march=armv8-a+crypto
$(filter $(O)/obj/arch/arm64/sha512-ce.c.o $(O)/obj/arch/arm64/keccak-ce.c.o,$(LIB_OBJS)): \
	BASE_CFLAGS += -march=armv8.2-a+sha3
endif

$(O)/obj/%.S.o: %.S
	@mkdir -p $(dir $@)
	$(call say,AS,$<)$(CC) $(BASE_CFLAGS) $(DEPFLAGS) -c $< -o $@

# One relocatable object, so that a static link keeps every algorithm's
# registration (they are reached through a linker section, not by symbol).
$(O)/rind-all.o: $(LIB_FIRST) $(LIB_OBJS)
	$(call say,LD,$@)$(LD) -r -o $@ $(LIB_OBJS)

# The in-tree archive, never installed: every symbol of the library stays
# global, for the tests, rindd, the benchmark, ct_check/ct_timing and the
# fuzzers, which call hidden internals (<crypto/ghash.h>, rind_set_secmem).
$(O)/librind-internal.a: $(O)/rind-all.o
	@rm -f $@
	$(call say,AR,$@)$(AR) rcs $@ $<

# The installed archive exports what librind.so exports and nothing else:
# hidden symbols (bn_*, rsa_*, ghash_* ...) become local, as do any others
# outside the version script's patterns, so a program that links it
# statically cannot collide with an internal name (check-exports).
$(O)/rind-public.o: $(O)/rind-all.o scripts/librind.map
	$(call say,OBJCOPY,$@)$(OBJCOPY) --localize-hidden -w \
		$(foreach p,$(PUBLIC_SYMS),--keep-global-symbol='$(p)') $< $@

$(O)/librind.a: $(O)/rind-public.o
	@rm -f $@
	$(call say,AR,$@)$(AR) rcs $@ $<

$(O)/librind.so.$(VERSION): $(LIB_FIRST) $(LIB_OBJS) scripts/librind.map
	$(call say,LD,$@)$(CC) -shared -Wl,-soname,librind.so.$(VERSION_MAJOR) -Wl,-z,defs -Wl,--version-script=scripts/librind.map \
		-o $@ $(LIB_OBJS) $(LIB_LDLIBS)

$(O)/librind.so: $(O)/librind.so.$(VERSION)
	$(Q)ln -sf librind.so.$(VERSION) $(O)/librind.so.$(VERSION_MAJOR)
	$(Q)ln -sf librind.so.$(VERSION) $@

# The daemon side: protocol (protoc-c generates C from proto/rind.proto at
# build time), rindd, librind-client and the rind tool.  These add
# protobuf-c, liburing and libsystemd; the library itself needs none.
PROTO_GEN := $(O)/proto/rind.pb-c.c
PROTO_SRCS := $(wildcard proto/*.c)
DAEMON_SRCS := $(wildcard daemon/*.c)
CLIENT_LIB_SRCS := $(filter-out client/rind.c,$(wildcard client/*.c))
DAEMON_CFLAGS := -I$(O)/proto -Iproto -Iclient $(shell $(PKG_CONFIG) --cflags libprotobuf-c 2>/dev/null)
PROTO_LIBS := $(shell $(PKG_CONFIG) --libs libprotobuf-c 2>/dev/null || echo -lprotobuf-c)
DAEMON_LIBS := $(PROTO_LIBS) $(shell $(PKG_CONFIG) --libs liburing libsystemd 2>/dev/null || echo -luring -lsystemd) -pthread
CLIENT_OBJS := $(patsubst %,$(O)/dobj/%.o,$(PROTO_GEN) $(PROTO_SRCS) $(CLIENT_LIB_SRCS))
DAEMON_OBJS := $(patsubst %,$(O)/dobj/%.o,$(PROTO_GEN) $(PROTO_SRCS) $(DAEMON_SRCS))
DAEMON_HEADERS := $(wildcard daemon/*.h proto/*.h client/*.h)

$(O)/proto/rind.pb-c.c $(O)/proto/rind.pb-c.h: proto/rind.proto
	@mkdir -p $(O)/proto
	$(call say,PROTOC,$<)protoc-c --c_out=$(O)/proto --proto_path=proto proto/rind.proto

$(O)/dobj/%.c.o: %.c $(O)/proto/rind.pb-c.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(BASE_CFLAGS) $(DAEMON_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(O)/librind-client.a: $(CLIENT_OBJS)
	@rm -f $@
	$(Q)$(AR) rcs $@ $(CLIENT_OBJS)

ifneq ($(DAEMON_SRCS),)
all: $(O)/rindd
$(O)/rindd: $(DAEMON_OBJS) $(O)/librind-internal.a
	$(call say,LD,$@)$(CC) $(CFLAGS) -pthread -o $@ $(DAEMON_OBJS) $(O)/librind-internal.a $(DAEMON_LIBS)
endif

# The rind tool uses only the public API: it links the installed archive.
ifneq ($(CLIENT_LIB_SRCS),)
RIND_TOOL_LIBS := $(O)/librind-client.a $(O)/librind.a $(PROTO_LIBS)
RIND_TOOL_DEPS := $(O)/librind-client.a $(O)/librind.a
else
RIND_TOOL_LIBS := $(O)/librind.a
RIND_TOOL_DEPS := $(O)/librind.a
endif

$(O)/rind: client/rind.c $(RIND_TOOL_DEPS) $(HEADERS) $(DAEMON_HEADERS)
	$(call say,LD,$@)$(CC) $(BASE_CFLAGS) $(if $(CLIENT_LIB_SRCS),$(DAEMON_CFLAGS)) -o $@ client/rind.c $(RIND_TOOL_LIBS) $(LIB_LDLIBS)

# Tests: one Check runner per suite, linked statically against the library.
$(O)/tests/testutil.o: tests/testutil.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(TEST_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(O)/tests/%: tests/%.c $(O)/tests/testutil.o $(O)/librind-internal.a
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(BASE_CFLAGS) $(TEST_CFLAGS) $(DEPFLAGS) -o $@ $< $(O)/tests/testutil.o \
		$(O)/librind-internal.a $(TEST_LIBS)

# Daemon tests also link the client library and need rindd and rind built.
$(O)/tests/test_daemon%: tests/test_daemon%.c $(O)/tests/testutil.o $(O)/librind-client.a $(O)/librind-internal.a \
		$(O)/rindd $(O)/rind
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(BASE_CFLAGS) $(TEST_CFLAGS) $(DAEMON_CFLAGS) $(DEPFLAGS) -DRIND_BUILD_DIR='"$(abspath $(O))"' -o $@ $< \
		$(O)/tests/testutil.o $(O)/librind-client.a $(O)/librind-internal.a $(TEST_LIBS) $(PROTO_LIBS)

# The arm64 cross-check builds the library and its unit tests; the rind tool
# and the daemon (protobuf-c, liburing) are built natively only.
test-build: $(TEST_BINS) $(if $(filter arm64,$(ARCH)),,$(O)/rind)

# Each suite prints its Check summary; a failing suite fails the target
# after all suites ran.
# Paths inside one driver that a CPU feature picks (the suites walk the
# drivers by name, but not these): run the suite once more with the
# feature masked.  feature:suite
MASKED_RUNS := $(if $(filter x86,$(ARCH)),avx2:test_ed25519 avx2:test_x25519)

check-unit: test-build
	@fail=0; for t in $(TEST_BINS); do \
		echo "== $$t"; $(TEST_ENV) $$t || fail=1; \
	done; \
	echo "== RIND_DISABLE=all (generic paths selected)"; \
	for t in $(TEST_BINS); do \
		if RIND_DISABLE=all $(TEST_ENV) $$t >$$t.generic.log 2>&1; then \
			echo "$$t: $$(grep -E '^[0-9]+%: Checks' $$t.generic.log)"; \
		else echo "FAIL: RIND_DISABLE=all $$t"; tail -20 $$t.generic.log; fail=1; fi; \
	done; \
	for m in $(MASKED_RUNS); do \
		f=$${m%%:*}; t=$(O)/tests/$${m#*:}; \
		if RIND_DISABLE=$$f $(TEST_ENV) $$t >$$t.no-$$f.log 2>&1; then \
			echo "RIND_DISABLE=$$f $$t: $$(grep -E '^[0-9]+%: Checks' $$t.no-$$f.log)"; \
		else echo "FAIL: RIND_DISABLE=$$f $$t"; tail -20 $$t.no-$$f.log; fail=1; fi; \
	done; \
	exit $$fail

# Every suite again under ASan+UBSan.  Everything in $(O)/asan is built
# with the sanitizers, rindd too: the daemon tests (test_daemon_*) start
# $(O)/asan/rindd, which inherits the options; a report in it (during the
# run, or leaks at its SIGTERM exit) fails the test (tests/test_daemon.h).
# Sanitized code is slower: Check's per-test timeouts are tripled.
check-asan:
	$(MAKE) O=$(O)/asan CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
		TEST_ENV="ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 CK_TIMEOUT_MULTIPLIER=3" check-unit-asan

check-unit-asan: test-build
	@fail=0; for t in $(TEST_BINS); do \
		echo "== [asan+ubsan] $$t"; $(TEST_ENV) $$t || fail=1; \
	done; exit $$fail

# ThreadSanitizer.  The registry's multi-threaded tests, in one process.
# And the daemon: rindd, rind and the daemon tests built with
# -fsanitize=thread in $(O)/tsan; the concurrency test (64 pipelining
# client processes plus key create/delete churn, rindd --threads 4, so
# connections are handed between rings with MSG_RING and keys are shared
# and freed across threads), the bad-input test and the systemd test (the
# D-Bus thread managing keys, the main thread's watchdog pings) run
# against that rindd, and the key-administration tests (rotation, access
# lists and quotas on the store thread while the loops use the keys).
# halt_on_error ends rindd at its first report;
# the tests fail on any report in rindd's log or an unclean exit.
# TSAN_DAEMON_SUITES entries are suite[:Check test case].
TSAN_SUITES ?= test_registry
TSAN_DAEMON_SUITES ?= $(if $(DAEMON_SRCS),test_daemon_core:concurrent test_daemon_bad test_daemon_systemd test_daemon_store test_daemon_recovery test_daemon_types:manage)
TSAN_OPTS := halt_on_error=1 exitcode=66 second_deadlock_stack=1
TSAN_DAEMON_SUITES += $(if $(DAEMON_SRCS),test_daemon_admin:admin)
check-tsan:
	$(MAKE) O=$(O)/tsan CFLAGS="-O1 -g -fsanitize=thread" $(addprefix $(O)/tsan/tests/,$(TSAN_SUITES) \
		$(foreach s,$(TSAN_DAEMON_SUITES),$(firstword $(subst :, ,$(s)))))
	@for t in $(TSAN_SUITES); do echo "== [tsan] $$t"; \
		CK_FORK=no TSAN_OPTIONS="$(TSAN_OPTS)" $(O)/tsan/tests/$$t || exit 1; done
	@for s in $(TSAN_DAEMON_SUITES); do t=$${s%%:*}; c=$${s#$$t}; c=$${c#:}; \
		echo "== [tsan] $$t $$c"; \
		env $${c:+CK_RUN_CASE=$$c} CK_TIMEOUT_MULTIPLIER=3 TSAN_OPTIONS="$(TSAN_OPTS)" \
			$(O)/tsan/tests/$$t || exit 1; done

# Constant-time checking under valgrind memcheck: secrets are undefined
# memory, a branch or an address computed from them is an error.  The
# library is rebuilt with -DRIND_VALGRIND so its public verdicts are
# declassified.  valgrind's virtual CPU hides what it cannot run (AVX-512,
# VAES, SHA-NI, ADX), so those implementations do not register under it:
# ct-timing (tests/ct/ct_timing.c) times exactly those natively instead,
# a dudect-style fixed-vs-random Welch t-test, and its planted leaks must
# be caught.
# valgrind hides ADX from the program it runs: take it as present (the ct
# build only, api/cpufeature.c) where this host has it, so that memcheck
# also walks the MULX/ADX drivers.
CT_ASSUME = $(if $(shell grep -qw adx /proc/cpuinfo 2>/dev/null && echo y),RIND_CT_ASSUME=adx)
ct:
	$(MAKE) O=$(O)/ct CFLAGS="-O2 -g -DRIND_VALGRIND" $(O)/ct/ct_check
	$(CT_ASSUME) valgrind -q --error-exitcode=1 --track-origins=yes $(O)/ct/ct_check
	$(CT_ASSUME) valgrind -q $(O)/ct/ct_check --leaky 2>/dev/null
	$(MAKE) ct-timing

$(O)/ct_check: tests/ct/ct_check.c $(O)/librind-internal.a
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) -o $@ $< $(O)/librind-internal.a $(LIB_LDLIBS)

# Timing-leakage test (dudect-style, tests/ct/ct_timing.c) of what the
# valgrind check cannot run: valgrind lists the implementations it
# registers (its virtual CPU lacks AVX-512, ADX, SHA-NI, VAES, ...), the
# native -O2 build times every other one with secret inputs and fails on a
# leak or on an implementation it has no test for; then the planted leaks
# must all be caught (exit status 1 from --leaky).  About 45 s.
ct-timing: $(O)/ct_timing
	valgrind -q $(O)/ct_timing --list > $(O)/ct_timing.covered
	$(O)/ct_timing --covered $(O)/ct_timing.covered
	@st=0; $(O)/ct_timing --leaky || st=$$?; \
	if [ $$st -ne 1 ]; then echo "ct-timing: --leaky exited $$st, not 1 (planted leaks caught)"; exit 1; fi

$(O)/ct_timing: tests/ct/ct_timing.c $(O)/librind-internal.a
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) -o $@ $< $(O)/librind-internal.a $(LIB_LDLIBS) -lm

# libFuzzer targets (tests/fuzz/*.c) against an ASan+UBSan clang build.
FUZZ_SECONDS ?= 60
FUZZ_SRCS := $(wildcard tests/fuzz/*.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(O)/fuzz/bin/%,$(FUZZ_SRCS))
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
# The daemon's objects built the same way (into $(O)/fuzz/dobj by the
# first make below), and which of them each target links: fuzz_dispatch
# all but main.c, loop.c (io_uring), dbus.c (sd-bus) and secmem.c, which
# it replaces with its own definitions; fuzz_frame key-object.c's checks.
FUZZ_DOBJ := $(O)/fuzz/dobj/daemon
FUZZ_DAEMON_OBJS := $(patsubst daemon/%.c,$(FUZZ_DOBJ)/%.c.o,$(filter-out daemon/main.c daemon/loop.c daemon/dbus.c,$(DAEMON_SRCS)))
FUZZ_OBJS_fuzz_dispatch := $(filter-out $(FUZZ_DOBJ)/secmem.c.o,$(FUZZ_DAEMON_OBJS))
FUZZ_OBJS_fuzz_frame := $(FUZZ_DOBJ)/key-object.c.o $(FUZZ_DOBJ)/key-types.c.o $(FUZZ_DOBJ)/secmem.c.o
fuzz-build:
	$(MAKE) O=$(O)/fuzz CC=clang CFLAGS="-O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link" $(O)/fuzz/librind-internal.a $(O)/fuzz/proto/rind.pb-c.c \
		$(if $(PROTO_SRCS),$(O)/fuzz/librind-client.a) $(FUZZ_DAEMON_OBJS)
	$(MAKE) fuzz-bins

fuzz-bins: $(FUZZ_BINS)

$(O)/fuzz/bin/fuzz_dispatch: $(FUZZ_OBJS_fuzz_dispatch)
$(O)/fuzz/bin/fuzz_frame: $(FUZZ_OBJS_fuzz_frame)
$(O)/fuzz/bin/%: tests/fuzz/%.c $(O)/fuzz/librind-internal.a $(if $(PROTO_SRCS),$(O)/fuzz/librind-client.a) $(wildcard daemon/*.h proto/*.h)
	@mkdir -p $(dir $@)
	$(call say,FUZZ,$@)clang -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) -std=gnu11 -D_GNU_SOURCE -Iapi/include -Idaemon -Iproto \
		-I$(O)/fuzz/proto $(shell $(PKG_CONFIG) --cflags libprotobuf-c 2>/dev/null) -o $@ $< $(FUZZ_OBJS_$*) \
		$(if $(PROTO_SRCS),$(O)/fuzz/librind-client.a) $(O)/fuzz/librind-internal.a $(BENCH_LIBS) $(PROTO_LIBS)

fuzz: fuzz-build
	sh scripts/fuzz.sh $(O)/fuzz/bin $(FUZZ_SECONDS)

check-fuzz:
	$(MAKE) fuzz FUZZ_SECONDS=3

demo: all
	sh scripts/demo.sh $(O)

# The shared library's dynamic symbols and the installed archive's global
# ones must all be public names; a program defining every internal name
# must link statically against the archive and run.
check-exports: $(O)/librind.so $(O)/librind.a $(O)/librind-internal.a
	$(Q)CC="$(CC)" sh scripts/check-exports.sh $(O)/librind.so $(O)/librind.a $(O)/librind-internal.a
	$(Q)sh scripts/check-vex.sh $(patsubst %,$(O)/obj/%.o,$(VEX_CHECKED))
	$(Q)sh scripts/check-loop-spills.sh 8 $(addprefix $(O)/obj/arch/x86/,chacha20poly1305-avx2-asm.S.o \
		chacha20poly1305-avx2.c.o)
	$(Q)sh scripts/check-loop-spills.sh 0 $(O)/obj/arch/x86/keccakx4-avx2-asm.S.o

# Install into a scratch DESTDIR and build a program with pkg-config against it.
DESTDIR_T = $(abspath $(O)/destdir)
check-install: all
	@rm -rf $(DESTDIR_T)
	$(Q)$(MAKE) --no-print-directory install DESTDIR=$(DESTDIR_T) PREFIX=/usr >/dev/null
	$(Q)PKG_CONFIG_SYSROOT_DIR=$(DESTDIR_T) PKG_CONFIG_LIBDIR=$(DESTDIR_T)/usr/lib/pkgconfig \
		sh -c '$(CC) tests/install_app.c $$(pkg-config --cflags --libs rind) -o $(O)/install_app'
	$(Q)LD_LIBRARY_PATH=$(DESTDIR_T)/usr/lib $(O)/install_app
	$(Q)PKG_CONFIG_SYSROOT_DIR=$(DESTDIR_T) PKG_CONFIG_LIBDIR=$(DESTDIR_T)/usr/lib/pkgconfig \
		sh -c '$(CC) tests/install_app.c $$(pkg-config --cflags rind) $(DESTDIR_T)/usr/lib/librind.a \
			$$(pkg-config --static --libs-only-other rind) -o $(O)/install_app_static'
	$(Q)$(O)/install_app_static
	$(Q)$(DESTDIR_T)/usr/bin/rind list > $(O)/rind-list.txt
	$(Q)grep -q "hmac(sha512)" $(O)/rind-list.txt
ifneq ($(DAEMON_SRCS),)
	$(Q)for d in $$(sed -n 's|^Documentation=||p' $(DESTDIR_T)/usr/lib/systemd/system/rindd.service); do \
		f=$${d#file://}; test -f "$(DESTDIR_T)$$f" || { echo "check-install: Documentation=$$d of rindd.service is not installed"; exit 1; }; done
endif
	@echo "check-install: installed tree builds and runs with pkg-config (shared and static); rind list shows $$(($$(wc -l < $(O)/rind-list.txt) - 1)) implementations"

check: all check-exports check-install check-unit check-asan check-tsan ct check-fuzz bench-smoke

bench-build: $(O)/rind-bench

$(O)/rind-bench: $(BENCH_SRCS) $(wildcard bench/*.h) $(O)/librind-internal.a $(ALL_HEADERS)
	$(CC) $(BASE_CFLAGS) -Ibench -o $@ $(BENCH_SRCS) $(O)/librind-internal.a $(BENCH_LIBS)

bench: bench-build
	$(O)/rind-bench $(BENCH_ARGS)

bench-smoke: bench-build
	$(O)/rind-bench --quick --filter SHA-256

# arm64: cross-built and run under qemu-user (static, so no sysroot needed).
ARM64_CC ?= aarch64-linux-gnu-gcc
QEMU_ARM64 ?= qemu-aarch64 -cpu max
check-arm64:
	$(MAKE) O=$(O)/arm64 CC=$(ARM64_CC) LD=aarch64-linux-gnu-ld AR=aarch64-linux-gnu-ar \
		OBJCOPY=aarch64-linux-gnu-objcopy ARCH=arm64 \
		PKG_CONFIG=false TEST_LIBS="-static -lcheck -lsubunit -ljansson -lcrypto -lsodium -lm -lrt -pthread" \
		TEST_CFLAGS="-Itests -DRIND_SOURCE_DIR='\"$(CURDIR)\"'" \
		TEST_ENV="$(QEMU_ARM64)" check-unit

install: all install-data
	install -d $(DESTDIR)$(INCLUDEDIR)/rind $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(BINDIR)
	install -m 644 $(HEADERS) $(DESTDIR)$(INCLUDEDIR)/rind/
	install -m 644 $(O)/librind.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(O)/librind.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf librind.so.$(VERSION) $(DESTDIR)$(LIBDIR)/librind.so.$(VERSION_MAJOR)
	ln -sf librind.so.$(VERSION) $(DESTDIR)$(LIBDIR)/librind.so
	install -m 755 $(O)/rind $(DESTDIR)$(BINDIR)/rind
ifneq ($(DAEMON_SRCS),)
	install -m 755 $(O)/rindd $(DESTDIR)$(BINDIR)/rindd
endif
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' scripts/rind.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/rind.pc

# What install puts in place besides the build: the units, D-Bus policy,
# sysusers/tmpfiles entries, and the documentation, among it the page the
# unit's Documentation= names (its path follows DOCDIR, as ExecStart=
# follows BINDIR).  Nothing here needs a build.
DOC_FILES := README.md CONTRIBUTING.md daemon/README.md proto/README.md proto/rind.proto systemd/README.md
install-data:
	install -d $(DESTDIR)$(DOCDIR)/daemon $(DESTDIR)$(DOCDIR)/proto $(DESTDIR)$(DOCDIR)/systemd
	$(foreach f,$(DOC_FILES),install -m 644 $(f) $(DESTDIR)$(DOCDIR)/$(f) &&) true
ifneq ($(DAEMON_SRCS),)
	install -d $(DESTDIR)$(PREFIX)/lib/systemd/system $(DESTDIR)$(PREFIX)/lib/tmpfiles.d \
		$(DESTDIR)$(PREFIX)/lib/sysusers.d $(DESTDIR)$(PREFIX)/share/dbus-1/system.d
	sed -e 's|/usr/local/bin/rindd|$(BINDIR)/rindd|' -e 's|file:///usr/share/doc/rind/|file://$(DOCDIR)/|' \
		systemd/rindd.service > $(DESTDIR)$(PREFIX)/lib/systemd/system/rindd.service
	install -m 644 systemd/rindd.socket $(DESTDIR)$(PREFIX)/lib/systemd/system/rindd.socket
	install -m 644 systemd/rindd.tmpfiles $(DESTDIR)$(PREFIX)/lib/tmpfiles.d/rindd.conf
	install -m 644 systemd/rindd.sysusers $(DESTDIR)$(PREFIX)/lib/sysusers.d/rindd.conf
	install -m 644 systemd/org.rind.KeyService1.conf $(DESTDIR)$(PREFIX)/share/dbus-1/system.d/org.rind.KeyService1.conf
endif

uninstall:
	rm -rf $(DESTDIR)$(INCLUDEDIR)/rind $(DESTDIR)$(DOCDIR)
	rm -f $(DESTDIR)$(LIBDIR)/librind.a $(DESTDIR)$(LIBDIR)/librind.so* \
		$(DESTDIR)$(LIBDIR)/pkgconfig/rind.pc $(DESTDIR)$(BINDIR)/rind
	rm -f $(DESTDIR)$(BINDIR)/rindd $(DESTDIR)$(PREFIX)/lib/systemd/system/rindd.service \
		$(DESTDIR)$(PREFIX)/lib/systemd/system/rindd.socket $(DESTDIR)$(PREFIX)/lib/tmpfiles.d/rindd.conf \
		$(DESTDIR)$(PREFIX)/lib/sysusers.d/rindd.conf $(DESTDIR)$(PREFIX)/share/dbus-1/system.d/org.rind.KeyService1.conf

clean:
	rm -rf $(O)
# `make clean all`: the cleaning must come first and alone, so a parallel
# make given clean and other goals runs serially.
ifneq ($(filter clean,$(MAKECMDGOALS)),)
ifneq ($(filter-out clean,$(MAKECMDGOALS)),)
.NOTPARALLEL:
endif
endif

# The AVX-512 drivers under emulation (tests/emu/README.md), on a CPU
# without AVX-512.  Only the files that differ in that build are compiled
# again, into $(O)/emu/obj: the arch/x86 files that spell their targets
# with RIND_AVX512_TARGET (they include x86-target.h, directly or through
# an arch/x86 header), over tests/emu/avx512-emu.h's plain C intrinsics,
# and api/cpufeature.c (RIND_EMU_ASSUME); every other object is the
# native build's.  Then tests/emu/check.sh: no object of that library may
# hold an EVEX instruction, the emulation's self-test, and the suites of
# the AVX-512 drivers with RIND_EMU_ASSUME=avx512.  -Wno-psabi: gcc notes
# that the emulated 64-byte aligned __m512i passed by value changed ABI in
# gcc 4.6; none crosses an ABI boundary.
EMU_O := $(O)/emu
EMU_SUITES ?= test_emu_drivers test_aes test_gcm test_chacha test_hash test_ed25519 test_x25519 test_mlkem test_rsa
# mldsa-avx512.c; under the emulation test_mldsa walks only the -avx512
# drivers (~11 s of CPU on the loaded 2-core VM, most of it signing)
EMU_SUITES += test_mldsa
# the P-256 batch signer in lanes (arch/x86/ecc-p256-ifma-mb.c): only
# test_ecdsa's "batch" case, the one that reaches its lanes (its other
# operations are the ADX driver's code, checked natively); ~7 s of CPU
EMU_SUITES += test_ecdsa
export EMU_ENV_test_ecdsa := CK_RUN_CASE=batch
EMU_OWN := $(patsubst %,$(O)/obj/%.o,$(EMU_SRCS))
EMU_LIB_OBJS := $(filter-out $(EMU_OWN),$(LIB_OBJS)) $(patsubst $(O)/obj/%,$(EMU_O)/obj/%,$(filter $(EMU_OWN),$(LIB_OBJS)))
EMU_CFLAGS := -DRIND_AVX512_EMU -Wno-psabi $(if $(X86_PCH),$(call PCH_USE,$(X86_PCH))) -include tests/emu/avx512-emu.h

$(EMU_O)/obj/%.c.o: %.c tests/emu/avx512-emu.h $(if $(X86_PCH),$(X86_PCH).gch)
	@mkdir -p $(dir $@)
	$(call say,EMU-CC,$<)$(CC) $(BASE_CFLAGS) $(EMU_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(EMU_O)/rind-all.o: $(EMU_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(LD) -r -o $@ $(EMU_LIB_OBJS)

$(EMU_O)/librind-internal.a: $(EMU_O)/rind-all.o
	@rm -f $@
	$(call say,AR,$@)$(AR) rcs $@ $<

$(EMU_O)/tests/test_emu: tests/emu/test_emu.c tests/emu/avx512-emu.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(BASE_CFLAGS) -DRIND_AVX512_EMU -Wno-psabi -include tests/emu/avx512-emu.h -o $@ $<

$(EMU_O)/tests/test_emu_drivers: tests/emu/test_emu_drivers.c $(O)/tests/testutil.o $(EMU_O)/librind-internal.a
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(BASE_CFLAGS) $(TEST_CFLAGS) $(DEPFLAGS) -o $@ $< $(O)/tests/testutil.o \
		$(EMU_O)/librind-internal.a $(TEST_LIBS)

$(EMU_O)/tests/%: tests/%.c $(O)/tests/testutil.o $(EMU_O)/librind-internal.a
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(BASE_CFLAGS) $(TEST_CFLAGS) $(DEPFLAGS) -o $@ $< $(O)/tests/testutil.o \
		$(EMU_O)/librind-internal.a $(TEST_LIBS)

# In make check: a cold run costs 82 s user + 12 s sys of CPU (8 files
# compiled again, 7 suites linked, the suites ~35 s of it), measured on the
# loaded 2-core development VM.
check: check-avx512-emu

.PHONY: check-avx512-emu
check-avx512-emu: $(EMU_O)/tests/test_emu $(addprefix $(EMU_O)/tests/,$(EMU_SUITES))
	$(Q)EMU_OBJS="$(EMU_LIB_OBJS)" sh tests/emu/check.sh $(EMU_O) $(EMU_SUITES)

# memcheck's constant-time check (as make ct) of the AVX-512 drivers,
# emulated: valgrind runs the emulation build (its virtual CPU has no
# AVX-512), RIND_EMU_ASSUME=avx512 registers them, CT_ONLY=avx512 checks
# those (and the templates over them).  Not the VAES ones: valgrind hides
# VAES, and the emulation build takes it as present only where the CPU
# has it (gcm-vaes-avx2 executes it).
$(EMU_O)/ct_check: tests/ct/ct_check.c $(EMU_O)/librind-internal.a
	$(call say,LD,$@)$(CC) $(BASE_CFLAGS) $(DEPFLAGS) -o $@ $< $(EMU_O)/librind-internal.a $(LIB_LDLIBS)

# $(call CT_EMU,drivers): memcheck over the emulation build's ct_check,
# the AVX-512 paths assumed, CT_ONLY=drivers.
CT_EMU_BUILD = $(MAKE) O=$(O)/ct CFLAGS="-O2 -g -DRIND_VALGRIND" $(O)/ct/emu/ct_check
CT_EMU = CT_ONLY=$(1) RIND_EMU_ASSUME=avx512 $(CT_ASSUME) valgrind -q --error-exitcode=1 --track-origins=yes \
	$(O)/ct/emu/ct_check
# The second run: CT_ONLY=rsa-sha256-ifma, the IFMA RSA drivers (not named
# avx512), whose batch check fills the eight lanes (rsa-ifma-mb.c).
.PHONY: ct-avx512-emu
ct-avx512-emu:
	$(CT_EMU_BUILD)
	$(call CT_EMU,avx512)
	$(call CT_EMU,rsa-sha256-ifma)

# ML-DSA's AVX-512 drivers under memcheck, in make check: ct-timing does
# not time ML-DSA key setup (its time follows the public rho, see
# tests/ct/ct_timing.c), and valgrind cannot run them natively.  After
# `ct`, whose build directory this one extends.
.PHONY: ct-mldsa-avx512-emu
check: ct-mldsa-avx512-emu
ct-mldsa-avx512-emu: ct
	$(CT_EMU_BUILD)
	$(call CT_EMU,mldsa)

-include $(wildcard $(patsubst %,$(EMU_O)/obj/%.o.d,$(EMU_SRCS)) $(EMU_O)/tests/*.d $(EMU_O)/ct_check.d)

# The OpenSSL 3 provider, rind.so: its rules, check and install hooks.
include provider/provider.mk

# The header lists the compiler wrote (DEPFLAGS).
-include $(wildcard $(addsuffix .d,$(LIB_OBJS) $(DAEMON_OBJS) $(CLIENT_OBJS) $(TEST_BINS) \
	$(O)/tests/testutil.o $(O)/ct_check $(O)/ct_timing))
