//go:build !aikido_pkgconfig

package tools

// How the Go binding links libaikido. Two routes, as for C:
//
//   - In the checkout (this file, the default): the library `make build`
//     wrote to target/release in the repository root. Statically by
//     default, so a Go program needs nothing at run time; with the build
//     tag aikido_shared, against libaikido.so (found at run time through
//     the soname libaikido.so.0.1, e.g. via LD_LIBRARY_PATH).
//   - An installed copy (`make install`), with the build tag
//     aikido_pkgconfig: link_pkgconfig.go asks pkg-config.
//
// When the library is not built, the #error below says so, instead of a
// linker line naming a missing file.

/*
#cgo CFLAGS: -I${SRCDIR}/../../../include -I${SRCDIR}/../../../target/release
#cgo !aikido_shared LDFLAGS: ${SRCDIR}/../../../target/release/libaikido.a -lpthread -ldl -lm
#cgo aikido_shared LDFLAGS: -L${SRCDIR}/../../../target/release -laikido
#if !__has_include("libaikido.a") || !__has_include("libaikido.so")
#error "libaikido is not built: run `make build` in the repository root (it writes target/release/libaikido.a and libaikido.so), or build with -tags aikido_pkgconfig against an installed copy (make install; see bindings/go/README.md)"
#endif
*/
import "C"
