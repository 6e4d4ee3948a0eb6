# Sourced by run.sh and bench-handshake.sh.
# rind_cnf MODULE: on stdout, provider/README.md's configuration: rind.so
# at MODULE next to OpenSSL's default provider, and preferred for what it
# has ("?provider=rind").  A caller wanting more in [openssl_init] adds
# it after that line.
rind_cnf() {
	cat <<EOC
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = evp_properties
[provider_sect]
default = default_sect
rind = rind_sect
[default_sect]
activate = 1
[rind_sect]
module = $1
activate = 1
[evp_properties]
default_properties = ?provider=rind
EOC
}
