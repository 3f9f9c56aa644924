/* The C half of the Go binding: what cgo cannot express in Go. */
#ifndef AIKIDO_GO_H
#define AIKIDO_GO_H

#include <stdint.h>

#include "aikido.h"

/* The outcome of one dispatch: its status, and the content (on AIKIDO_OK)
   or the error message, which the caller frees with aikido_string_free. */
typedef struct aikido_go_outcome {
    aikido_status status;
    char *content;
    char *error;
} aikido_go_outcome;

/* Dispatches a call of the tool `name` with `arguments` in `session`, Go
   strings that are only read during the call; `turn_low` and `turn_high`
   hold the turn id's 16 bytes in memory order (by value, so that the Go
   Environment stays on Go's stack). `call` is the slot of the Go Dispatch's state; the handler
   trampoline hands it back to Go. The content is only wanted from a tool
   that is not Go's (the file tools, bash): a Go handler's result stays on
   the Go side. */
aikido_go_outcome aikido_go_dispatch(const aikido_registry *registry, _GoString_ name,
                                     _GoString_ arguments, _GoString_ session,
                                     uint64_t turn_low, uint64_t turn_high,
                                     const aikido_cancel *cancel, uintptr_t call);

/* aikido_go_dispatch through aikido_registry_dispatch_ex: on AIKIDO_OK also
   the repairs REPAIR mode made, a JSON array in `*repairs` that the caller
   frees with aikido_string_free (NULL when the call failed). */
aikido_go_outcome aikido_go_dispatch_ex(const aikido_registry *registry, _GoString_ name,
                                        _GoString_ arguments, _GoString_ session,
                                        uint64_t turn_low, uint64_t turn_high,
                                        const aikido_cancel *cancel, uintptr_t call, char **repairs);

/* Runs aikido_registry_respond with the environment made of `session`,
   `turn_low`/`turn_high` and `cancel` (as aikido_go_dispatch does); the Go
   handlers it reaches, on whatever thread, find their Go context through
   `cancel` (dialect.go). */
aikido_go_outcome aikido_go_respond(const aikido_registry *registry, uint32_t dialect, _GoString_ reply,
                                    _GoString_ session, uint64_t turn_low, uint64_t turn_high,
                                    const aikido_cancel *cancel, uint32_t flags);

/* Sets a Go handler's content in its reply; returns aikido_reply_set_content's status. */
aikido_status aikido_go_succeed(aikido_reply *reply, _GoString_ text);

/* The aikido_handler of every Go tool; its userdata comes from
   aikido_go_userdata_new. */
aikido_status aikido_go_handler(void *userdata, const char *arguments, size_t arguments_len,
                                const aikido_environment *environment, aikido_reply *reply);

/* C memory holding a tool's cgo.Handle, so that no Go pointer crosses. */
void *aikido_go_userdata_new(uintptr_t tool);

/* The aikido_userdata_free of every Go tool: deletes the handle, frees the memory. */
void aikido_go_userdata_free(void *userdata);

/* Writes a handler's error or panic text into its reply. Returns `status`,
   or the status of aikido_reply_set_error when the reply refused the text. */
aikido_status aikido_go_fail(aikido_reply *reply, aikido_status status, _GoString_ text);

#endif
