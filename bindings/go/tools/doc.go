// Package tools provides a registry, dispatch, and explicit JSON-Schema
// helpers for tools the LLM may call. It is the Go binding of libaikido:
// the argument checks, the messages and the schema text come from the C
// library, so every language behaves the same.
//
// Schemas are explicit; the package does not generate schemas from struct
// types. Tool handlers capture the dependencies they need (storage, logger,
// clock) at registration time via closure. The Environment passed to a
// Handler carries only fields that genuinely change per dispatch: SessionID
// and TurnID.
package tools
