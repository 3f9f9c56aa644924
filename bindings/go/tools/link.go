package tools

// How the Go binding links libaikido, built by `make build` in the
// repository root: statically by default, so a Go program needs nothing at
// run time; with the build tag aikido_shared, against libaikido.so (found at
// run time through the soname libaikido.so.0.1, e.g. via LD_LIBRARY_PATH).

/*
#cgo CFLAGS: -I${SRCDIR}/../../../include
#cgo !aikido_shared LDFLAGS: ${SRCDIR}/../../../target/release/libaikido.a -lpthread -ldl -lm
#cgo aikido_shared LDFLAGS: -L${SRCDIR}/../../../target/release -laikido
*/
import "C"
