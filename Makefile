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

.PHONY: build demo test bench header install uninstall clean

## build: the static and shared libraries in target/release (with the soname link)
build:
	$(CARGO) build --release --quiet
	ln -sf libaikido.so $(RELEASE)/libaikido.so.$(SONAME_VERSION)

## demo: one full agent turn with three tools and a recorded model reply
demo: build
	@scripts/setup.sh c >/dev/null
	@mkdir -p build
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror -pedantic -Iinclude examples/agent_turn/agent_turn.c \
		$(RELEASE)/libaikido.a $(STATIC_LIBS) -o build/agent_turn
	cd examples/agent_turn && ../../build/agent_turn model-reply.json

## test: every test of every language; installs the toolchains first
test:
	scripts/test.sh

## bench: the benchmark table (figures, targets, hits)
bench:
	scripts/bench.sh

## header: rewrite the committed include/aikido.h from the Rust sources
header:
	AIKIDO_UPDATE_HEADER=1 $(CARGO) build --quiet

## install: headers (C and C++), both libraries with soname links, and aikido.pc under PREFIX
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
		aikido.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/aikido.pc

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/aikido.h $(DESTDIR)$(INCLUDEDIR)/aikido.hpp $(DESTDIR)$(LIBDIR)/libaikido.a \
		$(DESTDIR)$(LIBDIR)/libaikido.so $(DESTDIR)$(LIBDIR)/libaikido.so.$(SONAME_VERSION) \
		$(DESTDIR)$(LIBDIR)/libaikido.so.$(VERSION) $(DESTDIR)$(LIBDIR)/pkgconfig/aikido.pc

clean:
	$(CARGO) clean
	rm -rf build
