//go:build aikido_pkgconfig

package tools

// The installed route (build tag aikido_pkgconfig): headers and library
// from an installed copy (`make install PREFIX=…`), found by pkg-config
// (set PKG_CONFIG_PATH=PREFIX/lib/pkgconfig for a prefix of your own).
// Statically by default (aikido-static.pc: the program needs no
// libaikido.so at run time); with aikido_shared too, against libaikido.so,
// which aikido.pc's rpath lets the program find as built. See link.go for
// the route inside the checkout.

// The defines only tell the two links apart in Go's build cache, which
// keys a package on its C flags but not on what `pkg-config --libs` says:
// without them, a static build then a shared one reuse the static package.

/*
#cgo !aikido_shared pkg-config: aikido-static
#cgo !aikido_shared CFLAGS: -DAIKIDO_GO_LINK_STATIC
#cgo aikido_shared pkg-config: aikido
#cgo aikido_shared CFLAGS: -DAIKIDO_GO_LINK_SHARED
*/
import "C"
