# rind.so, the OpenSSL 3 provider (provider/README.md).  Included from the
# Makefile; built when the OpenSSL 3 headers are there (libssl-dev), else
# skipped with a note.
#
# It links librind-client (remote.c: keys held by rindd), hence
# libprotobuf-c.so at run time.
# It links the installed form of the library, $(O)/librind.a (only public
# names global), statically: a provider is dlopen'ed into programs that
# know nothing of rind, so it should not depend on librind.so being on
# their library path nor on its version there; and with a version script
# that keeps only OSSL_provider_init, none of librind's names leaks into
# the program's namespace (a program linking its own librind cannot
# collide with the provider's copy).
PROV_SRCS := $(wildcard provider/*.c)
PROV_OBJS := $(patsubst %,$(O)/pobj/%.o,$(PROV_SRCS))
PROV_SO := $(O)/provider/rind.so
PROV_HAVE_OSSL := $(shell printf '\#include <openssl/core_dispatch.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo y)
OSSL_MODULES_DIR ?= $(PREFIX)/lib/ossl-modules

.PHONY: provider check-provider install-provider

ifeq ($(PROV_HAVE_OSSL),y)
all: provider
provider: $(PROV_SO)

$(O)/pobj/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(BASE_CFLAGS) $(CFLAGS_EXTRA) $(DEPFLAGS) -c $< -o $@

# remote.c talks to rindd with librind-client (and so protobuf-c).
$(O)/pobj/provider/remote.c.o: CFLAGS_EXTRA := -Iclient
$(PROV_SO): $(PROV_OBJS) $(O)/librind.a $(O)/librind-client.a provider/rind.map
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(CFLAGS) -shared -Wl,-z,defs -Wl,--version-script=provider/rind.map -o $@ \
		$(PROV_OBJS) $(O)/librind-client.a $(O)/librind.a $(PROTO_LIBS) $(LIB_LDLIBS)

# The provider's EVP test programs share evp_result.c: the "ok:" and
# "FAIL:" lines run.sh counts, and rind.so loaded from the module directory.
PROV_EVP_RESULT := tests/provider/evp_result.c tests/provider/evp_result.h

# ML-DSA through the provider by an EVP program (libcrypto, test only),
# against Wycheproof and librind (tests/provider/mldsa.sh runs it).
$(O)/tests/provider/mldsa_evp: tests/provider/mldsa_evp.c $(PROV_EVP_RESULT) $(O)/librind.a
	@mkdir -p $(dir $@)
	$(call say,CCLD,$@)$(CC) $(BASE_CFLAGS) $(TEST_CFLAGS) -o $@ $(filter %.c,$^) $(O)/librind.a $(TEST_LIBS) $(LIB_LDLIBS)

# EVP programs against the default provider (run.sh runs them):
#  kdfmac_evp: the provider's HMAC and KDFs, keys across contexts,
#    dup/reset, threads, fork;
#  cipher_evp: the ciphers' algorithm parameters;
#  keyref_evp: rindd key-reference files and PKCS#8 keys through the
#    provider's decoders.
PROV_EVP_TESTS := $(addprefix $(O)/tests/provider/,kdfmac_evp cipher_evp keyref_evp)
$(PROV_EVP_TESTS): $(O)/tests/provider/%: tests/provider/%.c $(PROV_EVP_RESULT)
	@mkdir -p $(dir $@)
	$(call say,CCLD,$@)$(CC) $(BASE_CFLAGS) $(TEST_CFLAGS) -o $@ $(filter %.c,$^) -lcrypto

# What one operation costs through the provider, for callgrind
# (tests/provider/opcost.c; libssl and libcrypto, test only): not run by
# check-provider, built with test-build.
$(O)/tests/provider/opcost: tests/provider/opcost.c
	@mkdir -p $(dir $@)
	$(call say,CCLD,$@)$(CC) $(BASE_CFLAGS) $(TEST_CFLAGS) -o $@ $< -lssl -lcrypto

test-build: $(O)/tests/provider/opcost

# The openssl tool, s_server/s_client, against the default provider.
check-provider: $(PROV_SO) $(O)/rind $(if $(DAEMON_SRCS),$(O)/rindd) $(O)/tests/provider/mldsa_evp $(PROV_EVP_TESTS)
	$(Q)sh tests/provider/run.sh $(O)

check: check-provider

install-provider: $(PROV_SO)
	install -d $(DESTDIR)$(OSSL_MODULES_DIR)
	install -m 755 $(PROV_SO) $(DESTDIR)$(OSSL_MODULES_DIR)/rind.so

install: install-provider
else
provider check-provider install-provider:
	@echo "provider: no OpenSSL 3 headers (libssl-dev): rind.so not built"
endif

-include $(wildcard $(addsuffix .d,$(PROV_OBJS)))
