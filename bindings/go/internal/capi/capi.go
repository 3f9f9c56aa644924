// Package capi calls libaikido's C schema helpers directly, for the tests
// that hold the Go helpers to them byte for byte. It links nothing itself:
// it is only used in test binaries of package tools, which link libaikido.
package capi

/*
#cgo CFLAGS: -I${SRCDIR}/../../../../include
#include <stdlib.h>
#include "aikido.h"
*/
import "C"

import "unsafe"

// SchemaString is aikido_schema_string(description).
func SchemaString(description string) string {
	return withCString(description, func(text *C.char) *C.char { return C.aikido_schema_string(text) })
}

// SchemaInteger is aikido_schema_integer(description).
func SchemaInteger(description string) string {
	return withCString(description, func(text *C.char) *C.char { return C.aikido_schema_integer(text) })
}

// SchemaNumber is aikido_schema_number(description).
func SchemaNumber(description string) string {
	return withCString(description, func(text *C.char) *C.char { return C.aikido_schema_number(text) })
}

// SchemaBoolean is aikido_schema_boolean(description).
func SchemaBoolean(description string) string {
	return withCString(description, func(text *C.char) *C.char { return C.aikido_schema_boolean(text) })
}

// SchemaEnum is aikido_schema_enum(description, values).
func SchemaEnum(description string, values ...string) string {
	cDescription := C.CString(description)
	defer C.free(unsafe.Pointer(cDescription))
	cValues := cStrings(values)
	defer free(cValues)
	return take(C.aikido_schema_enum(cDescription, first(cValues), C.size_t(len(cValues))))
}

// SchemaArray is aikido_schema_array(items, description).
func SchemaArray(items, description string) string {
	cItems, cDescription := C.CString(items), C.CString(description)
	defer C.free(unsafe.Pointer(cItems))
	defer C.free(unsafe.Pointer(cDescription))
	return take(C.aikido_schema_array(cItems, cDescription))
}

// SchemaObject is aikido_schema_object: property names[i] has schemas[i].
func SchemaObject(names, schemas []string, required ...string) string {
	cNames, cSchemas, cRequired := cStrings(names), cStrings(schemas), cStrings(required)
	defer free(cNames)
	defer free(cSchemas)
	defer free(cRequired)
	var text *C.char
	status := C.aikido_schema_object(first(cNames), first(cSchemas), C.size_t(len(cNames)),
		first(cRequired), C.size_t(len(cRequired)), &text, nil)
	if status != C.AIKIDO_OK {
		return ""
	}
	return take(text)
}

// withCString runs helper on a C copy of description and takes its result.
func withCString(description string, helper func(*C.char) *C.char) string {
	cDescription := C.CString(description)
	defer C.free(unsafe.Pointer(cDescription))
	return take(helper(cDescription))
}

// take copies and frees a string libaikido returned; NULL is "".
func take(text *C.char) string {
	if text == nil {
		return ""
	}
	defer C.aikido_string_free(text)
	return C.GoString(text)
}

func cStrings(texts []string) []*C.char {
	copies := make([]*C.char, len(texts))
	for i, text := range texts {
		copies[i] = C.CString(text)
	}
	return copies
}

func free(texts []*C.char) {
	for _, text := range texts {
		C.free(unsafe.Pointer(text))
	}
}

func first(texts []*C.char) **C.char {
	if len(texts) == 0 {
		return nil
	}
	return &texts[0]
}
