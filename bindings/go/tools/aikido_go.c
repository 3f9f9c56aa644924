/* The C half of the Go binding. See aikido_go.h. */
#include <stdlib.h>
#include <string.h>

/* Declares the //export functions, and _GoString_ as {const char *p; ptrdiff_t n;}
   (cgo's _GoStringPtr and _GoStringLen exist only in Go files' preambles). */
#include "_cgo_export.h"
#include "aikido_go.h"

/* current_call outside any Go Dispatch: the handler was reached by
   aikido_registry_respond (on this thread or one of its helpers) or by
   libaikido's MCP server on one of its workers. */
#define AIKIDO_GO_NO_CALL UINTPTR_MAX

/* The Go dispatch running on this thread. A handler's C arguments cannot
   carry it, but the handler runs on the thread of the aikido_registry_dispatch
   call that reached it, so a thread-local does; nested dispatches (a handler
   that dispatches) save and restore it. */
static _Thread_local uintptr_t current_call = AIKIDO_GO_NO_CALL;

/* A NUL-terminated copy of a Go string: in `stack` when it fits, else on the heap. */
static char *c_string(_GoString_ text, char *stack, size_t stack_size) {
    size_t len = (size_t)text.n;
    char *copy = len < stack_size ? stack : malloc(len + 1);
    if (copy == NULL) {
        abort(); /* As Go does when memory runs out. */
    }
    if (len > 0) { /* an empty Go string may have a NULL pointer */
        memcpy(copy, text.p, len);
    }
    copy[len] = '\0';
    return copy;
}

/* aikido_go_dispatch and aikido_go_dispatch_ex: through aikido_registry_dispatch
   when `repairs` is NULL, else through aikido_registry_dispatch_ex. */
static aikido_go_outcome go_dispatch(const aikido_registry *registry, _GoString_ name,
                                     _GoString_ arguments, _GoString_ session,
                                     uint64_t turn_low, uint64_t turn_high,
                                     const aikido_cancel *cancel, uintptr_t call, char **repairs) {
    /* The C ABI wants the name and session NUL-terminated; Go strings are not. */
    char stack_name[256], stack_session[256];
    char *c_name = c_string(name, stack_name, sizeof stack_name);
    char *c_session = c_string(session, stack_session, sizeof stack_session);

    aikido_tool_call tool_call = {
        .id = NULL,
        .name = c_name,
        .arguments = arguments.p,
        .arguments_len = (size_t)arguments.n,
    };
    /* The session and turn reach tools written in C or Rust (bash keeps one
       shell per session); Go handlers get the Go Environment itself. */
    aikido_environment environment = {.session_id = c_session, .cancel = cancel};
    memcpy(environment.turn_id, &turn_low, 8);
    memcpy(environment.turn_id + 8, &turn_high, 8);
    aikido_go_outcome outcome = {AIKIDO_OK, NULL, NULL};

    uintptr_t outer_call = current_call;
    current_call = call;
    outcome.status =
        repairs == NULL
            ? aikido_registry_dispatch(registry, &tool_call, &environment, &outcome.content, &outcome.error)
            : aikido_registry_dispatch_ex(registry, &tool_call, &environment, &outcome.content, repairs,
                                          &outcome.error);
    current_call = outer_call;

    if (c_name != stack_name) {
        free(c_name);
    }
    if (c_session != stack_session) {
        free(c_session);
    }
    return outcome;
}

aikido_go_outcome aikido_go_dispatch(const aikido_registry *registry, _GoString_ name,
                                     _GoString_ arguments, _GoString_ session,
                                     uint64_t turn_low, uint64_t turn_high,
                                     const aikido_cancel *cancel, uintptr_t call) {
    return go_dispatch(registry, name, arguments, session, turn_low, turn_high, cancel, call, NULL);
}

aikido_go_outcome aikido_go_dispatch_ex(const aikido_registry *registry, _GoString_ name,
                                        _GoString_ arguments, _GoString_ session,
                                        uint64_t turn_low, uint64_t turn_high,
                                        const aikido_cancel *cancel, uintptr_t call, char **repairs) {
    return go_dispatch(registry, name, arguments, session, turn_low, turn_high, cancel, call, repairs);
}

aikido_status aikido_go_handler(void *userdata, const char *arguments, size_t arguments_len,
                                const aikido_environment *environment, aikido_reply *reply) {
    if (current_call == AIKIDO_GO_NO_CALL) { /* reached by Respond or libaikido's MCP server */
        return aikidoGoHandleForeign(*(uintptr_t *)userdata, (char *)arguments, arguments_len,
                                     (aikido_environment *)environment, reply);
    }
    return aikidoGoHandle(*(uintptr_t *)userdata, (char *)arguments, arguments_len, reply, current_call);
}

void *aikido_go_userdata_new(uintptr_t tool) {
    uintptr_t *userdata = malloc(sizeof *userdata);
    if (userdata == NULL) {
        abort();
    }
    *userdata = tool;
    return userdata;
}

void aikido_go_userdata_free(void *userdata) {
    aikidoGoRelease(*(uintptr_t *)userdata);
    free(userdata);
}

aikido_status aikido_go_fail(aikido_reply *reply, aikido_status status, _GoString_ text) {
    aikido_status written = aikido_reply_set_error(reply, text.p, (size_t)text.n);
    return written == AIKIDO_OK ? status : written;
}

aikido_go_outcome aikido_go_respond(const aikido_registry *registry, uint32_t dialect, _GoString_ reply,
                                    _GoString_ session, uint64_t turn_low, uint64_t turn_high,
                                    const aikido_cancel *cancel, uint32_t flags) {
    char stack_session[256];
    char *c_session = c_string(session, stack_session, sizeof stack_session);
    aikido_environment environment = {.session_id = c_session, .cancel = cancel};
    aikido_go_outcome outcome = {AIKIDO_OK, NULL, NULL};
    uintptr_t outer_call = current_call;
    memcpy(environment.turn_id, &turn_low, 8);
    memcpy(environment.turn_id + 8, &turn_high, 8);
    current_call = AIKIDO_GO_NO_CALL;
    outcome.status = aikido_registry_respond(registry, dialect, reply.p, (size_t)reply.n, &environment, flags,
                                             &outcome.content, &outcome.error);
    current_call = outer_call;
    if (c_session != stack_session) {
        free(c_session);
    }
    return outcome;
}

aikido_status aikido_go_succeed(aikido_reply *reply, _GoString_ text) {
    return aikido_reply_set_content(reply, text.p, (size_t)text.n);
}
