# libaikido: the two commands are `make demo` and `make test`; both install
# what they need on a fresh machine (see scripts/setup.sh).

PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
CARGO ?= cargo
CC ?= cc

VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
MAJOR := $(word 1,$(subst ., ,$(VERSION)))
MINOR := $(word 2,$(subst ., ,$(VERSION)))
# Versions 0.x break at every minor step, so their soname carries the minor.
SONAME_VERSION := $(if $(filter 0,$(MAJOR)),$(MAJOR).$(MINOR),$(MAJOR))
RELEASE := target/release
STATIC_LIBS := -lpthread -ldl -lm
# The dynamic linker searches its trusted directories without being told;
# for any other LIBDIR (a home prefix, /opt, /usr/local too, whose cache
# needs ldconfig) aikido.pc's Libs carry an rpath, so a program built with
# `pkg-config --libs aikido` runs as built. PC_RPATH= turns it off.
comma := ,
SYSTEM_LIBDIRS := /lib /lib64 /usr/lib /usr/lib64 $(wildcard /lib/*-linux-gnu /usr/lib/*-linux-gnu)
PC_RPATH ?= $(if $(filter $(SYSTEM_LIBDIRS),$(patsubst %/,%,$(LIBDIR))),,-Wl$(comma)-rpath$(comma)$${libdir})

.PHONY: build demo test check bench header install uninstall clean

## build: the static and shared libraries in target/release (with the soname link)
build:
	$(CARGO) build --release
	ln -sf libaikido.so $(RELEASE)/libaikido.so.$(SONAME_VERSION)

## demo: one full agent turn with three tools and a recorded model reply
# (sets up first: on a machine without a C compiler the build itself needs
# setup's gcc; what setup installs is said on stderr, the transcript alone
# goes to stdout)
demo:
	@scripts/setup.sh c >&2
	@$(MAKE) --no-print-directory build
	@mkdir -p build
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror -pedantic -Iinclude examples/agent_turn/agent_turn.c \
		$(RELEASE)/libaikido.a $(STATIC_LIBS) -o build/agent_turn
	cd examples/agent_turn && ../../build/agent_turn model-reply.json

## test: every test of every language; installs the toolchains first
test:
	scripts/test.sh

## check: the quick check for day-to-day work (fmt, Rust tests, header, README, C suite; ~2 min warm)
check:
	scripts/check.sh

## bench: the benchmark table (figures, targets, hits)
bench:
	scripts/bench.sh

## header: rewrite the committed include/aikido.h from the Rust sources
header:
	$(CARGO) run --quiet --locked --manifest-path scripts/gen-header/Cargo.toml --target-dir target/gen-header

## install: headers (C and C++), both libraries with soname links, aikido.pc and aikido-static.pc under PREFIX
install: build
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 644 include/aikido.h $(DESTDIR)$(INCLUDEDIR)/aikido.h
	install -m 644 bindings/cpp/include/aikido.hpp $(DESTDIR)$(INCLUDEDIR)/aikido.hpp
	install -m 644 $(RELEASE)/libaikido.a $(DESTDIR)$(LIBDIR)/libaikido.a
	install -m 755 $(RELEASE)/libaikido.so $(DESTDIR)$(LIBDIR)/libaikido.so.$(VERSION)
	ln -sf libaikido.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libaikido.so.$(SONAME_VERSION)
	ln -sf libaikido.so.$(SONAME_VERSION) $(DESTDIR)$(LIBDIR)/libaikido.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' -e 's|@STATIC_LIBS@|$(STATIC_LIBS)|' \
		-e 's|@RPATH@|$(PC_RPATH)|' aikido.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/aikido.pc
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' -e 's|@STATIC_LIBS@|$(STATIC_LIBS)|' \
		aikido-static.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/aikido-static.pc
	@if [ -z "$(DESTDIR)" ] && [ -z "$(PC_RPATH)" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then \
			ldconfig && echo "install: ran ldconfig, so programs find libaikido.so.$(SONAME_VERSION) in $(LIBDIR)"; \
		else echo "install: $(LIBDIR) is a system directory: run ldconfig as root so programs find libaikido.so.$(SONAME_VERSION)"; fi; \
	fi

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/aikido.h $(DESTDIR)$(INCLUDEDIR)/aikido.hpp $(DESTDIR)$(LIBDIR)/libaikido.a \
		$(DESTDIR)$(LIBDIR)/libaikido.so $(DESTDIR)$(LIBDIR)/libaikido.so.$(SONAME_VERSION) \
		$(DESTDIR)$(LIBDIR)/libaikido.so.$(VERSION) $(DESTDIR)$(LIBDIR)/pkgconfig/aikido.pc \
		$(DESTDIR)$(LIBDIR)/pkgconfig/aikido-static.pc

clean:
	$(CARGO) clean
	rm -rf build
