package tools

/*
#include "aikido.h"
*/
import "C"

import (
	"encoding/json"
	"fmt"
)

// The helpers below build the seed's maps; Object turns them into JSON
// Schema text through libaikido's aikido_schema_object, so that every
// language writes the same bytes. A test holds the maps to the C helpers'
// output byte for byte.

// String returns the schema of a string property.
func String(description string) map[string]any { return typed("string", description) }

// Integer returns the schema of an integer property.
func Integer(description string) map[string]any { return typed("integer", description) }

// Number returns the schema of a number property.
func Number(description string) map[string]any { return typed("number", description) }

// Boolean returns the schema of a boolean property.
func Boolean(description string) map[string]any { return typed("boolean", description) }

// Enum returns the schema of a string property that takes one of values
// (none give an empty list, as libaikido writes it).
func Enum(description string, values ...string) map[string]any {
	schema := typed("string", description)
	schema["enum"] = append([]string{}, values...) // [] rather than null for none
	return schema
}

// Array returns the schema of an array property whose items have the
// schema items.
func Array(items any, description string) map[string]any {
	schema := typed("array", description)
	schema["items"] = items
	return schema
}

// typed is {"description":…,"type":kind}; an empty description is left out.
func typed(kind, description string) map[string]any {
	schema := map[string]any{"type": kind}
	if description != "" {
		schema["description"] = description
	}
	return schema
}

// Object builds a JSON Schema "object" from a property map and a list of
// required property names. Output is deterministic: keys sorted at every
// level, required names in the order given, no whitespace. Nil properties
// produce an object without properties.
//
// Object panics if properties hold a value encoding/json cannot encode (a
// channel, a function), or a name holds a NUL byte: schemas are literals
// written at registration time, so that is a programmer error (ERR-001).
func Object(properties map[string]any, required ...string) json.RawMessage {
	names := make([]namedText, 0, len(properties))
	schemas := make([]namedText, 0, len(properties))
	for name, property := range properties {
		schema, err := json.Marshal(property)
		if err != nil {
			panic(fmt.Sprintf("aikido/tools: the schema of property %q cannot be encoded: %v", name, err))
		}
		names = append(names, namedText{"a property name", name})
		schemas = append(schemas, namedText{"a property schema", string(schema)})
	}
	requiredTexts := make([]namedText, len(required))
	for i, name := range required {
		requiredTexts[i] = namedText{"a required name", name}
	}

	cNames := mustCStrings(names)
	defer cNames.free()
	cSchemas := mustCStrings(schemas)
	defer cSchemas.free()
	cRequired := mustCStrings(requiredTexts)
	defer cRequired.free()

	var text, message *C.char
	status := C.aikido_schema_object(cNames.array(), cSchemas.array(), C.size_t(len(cNames)),
		cRequired.array(), C.size_t(len(cRequired)), &text, &message)
	if status != C.AIKIDO_OK {
		panic(statusError(status, takeString(message)))
	}
	return json.RawMessage(takeString(text))
}

func mustCStrings(texts []namedText) cStrings {
	copies, err := newCStrings(texts...)
	if err != nil {
		panic(err)
	}
	return copies
}

// array is the C array of the strings, or NULL for none. The slice holds C
// pointers only, so C may read it in place.
func (s cStrings) array() **C.char {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}
