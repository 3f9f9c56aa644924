/* Dispatch: the argument check, NULL and non-UTF-8 input, the environment
 * reaching the handler, and cancellation before and during a call. */

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

/* What the recording handler saw on its last run. */
typedef struct seen {
    int runs;
    char arguments[256];
    size_t arguments_len;
    int arguments_terminated;
    char session_id[64];
    size_t session_id_len;
    uint8_t turn_id[16];
    const aikido_cancel *cancel;
    int environment_was_null;
} seen;

static aikido_status record(void *userdata, const char *arguments, size_t arguments_len,
                            const aikido_environment *environment, aikido_reply *reply) {
    seen *last = userdata;
    last->runs++;
    last->arguments_len = arguments_len;
    last->arguments_terminated = arguments[arguments_len] == '\0';
    memcpy(last->arguments, arguments, arguments_len < 255 ? arguments_len : 255);
    last->arguments[arguments_len < 255 ? arguments_len : 255] = '\0';
    last->environment_was_null = environment == NULL;
    if (environment != NULL) {
        strncpy(last->session_id, environment->session_id, sizeof last->session_id - 1);
        last->session_id_len = strlen(environment->session_id);
        memcpy(last->turn_id, environment->turn_id, 16);
        last->cancel = environment->cancel;
    }
    return aikido_reply_set_content(reply, arguments, arguments_len);
}

static aikido_registry *registry;
static seen last;

/* Dispatches `arguments_len` bytes to `name`; checks the status and that the
 * content (on success) or message (otherwise) contains `fragment`. */
static void dispatch_bytes(const char *name, const char *arguments, size_t arguments_len,
                           const aikido_environment *environment, aikido_status want, const char *fragment) {
    static char sentinel[] = "not written";
    aikido_tool_call call;
    char *content = sentinel, *error = sentinel;
    call.id = "call-1";
    call.name = name;
    call.arguments = arguments;
    call.arguments_len = arguments_len;
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, environment, &content, &error), want);
    if (want == AIKIDO_OK) {
        CHECK(error == NULL);
        CHECK_CONTAINS(content, fragment);
    } else {
        CHECK(content == NULL);
        CHECK_CONTAINS(error, fragment);
    }
    if (content != sentinel) aikido_string_free(content);
    if (error != sentinel) aikido_string_free(error);
}

static void dispatch_text(const char *name, const char *arguments, aikido_status want, const char *fragment) {
    dispatch_bytes(name, arguments, strlen(arguments), NULL, want, fragment);
}

static void argument_check(void) {
    static const char nul_inside[] = "{\"a\":\"x\0y\"}";
    const char *unterminated = "{\"by\":7}GARBAGE";
    int runs;

    dispatch_text("nope", "{}", AIKIDO_ERR_UNKNOWN_TOOL,
                  "aikido/tools: unknown tool \"nope\"; the registered tools are \"echo\", \"divide\"");
    /* Empty arguments, (NULL, 0) and whitespace count as {}. */
    dispatch_bytes("echo", NULL, 0, NULL, AIKIDO_OK, "{}");
    CHECK_STR(last.arguments, "{}");
    CHECK(last.arguments_len == 2 && last.arguments_terminated);
    dispatch_text("echo", "", AIKIDO_OK, "{}");
    dispatch_text("echo", " \t\r\n", AIKIDO_OK, "{}");
    CHECK_STR(last.arguments, "{}");
    /* Arguments arrive verbatim, NUL-terminated even when the caller's were not. */
    dispatch_bytes("divide", unterminated, 8, NULL, AIKIDO_OK, "{\"by\":7}");
    CHECK_STR(last.arguments, "{\"by\":7}");
    CHECK(last.arguments_len == 8 && last.arguments_terminated);
    dispatch_text("divide", " {\n\"by\" : 1e400 } ", AIKIDO_OK, " {\n\"by\" : 1e400 } ");
    CHECK_STR(last.arguments, " {\n\"by\" : 1e400 } ");
    dispatch_text("divide", "{\"by\":-1.5e-400,\"x\":[1e999,{\"y\":null}]}", AIKIDO_OK, "1e999");

    /* Not one JSON object. */
    runs = last.runs;
    dispatch_text("echo", "null", AIKIDO_ERR_INVALID_ARGUMENTS,
                  "aikido/tools: invalid tool arguments for tool \"echo\": the arguments must be a JSON object, not null");
    dispatch_text("echo", "[]", AIKIDO_ERR_INVALID_ARGUMENTS, "not an array");
    dispatch_text("echo", "\"text\"", AIKIDO_ERR_INVALID_ARGUMENTS, "not a string");
    dispatch_text("echo", "3.5", AIKIDO_ERR_INVALID_ARGUMENTS, "not a number");
    dispatch_text("echo", "false", AIKIDO_ERR_INVALID_ARGUMENTS, "not a boolean");
    dispatch_text("echo", "{} ", AIKIDO_OK, "{} "); /* trailing whitespace is fine */
    runs++;
    dispatch_text("echo", "{} x", AIKIDO_ERR_INVALID_ARGUMENTS, "more text follows the JSON object at byte 3");
    dispatch_text("echo", "{\"a\":1}}", AIKIDO_ERR_INVALID_ARGUMENTS, "more text follows the JSON object at byte 7");
    dispatch_bytes("echo", nul_inside, sizeof nul_inside - 1, NULL, AIKIDO_ERR_INVALID_ARGUMENTS, "control character");
    dispatch_text("echo", "{\"a\":\"\xc3\x28\"}", AIKIDO_ERR_INVALID_ARGUMENTS,
                  "the arguments are not valid UTF-8 (the first invalid byte is at offset 6)");
    dispatch_text("echo", "{\"a\":\"\xed\xa0\x80\"}", AIKIDO_ERR_INVALID_ARGUMENTS, "not valid UTF-8");
    dispatch_text("echo", "{\"a\" 1}", AIKIDO_ERR_INVALID_ARGUMENTS, "the arguments are not valid JSON");
    dispatch_text("echo", "{", AIKIDO_ERR_INVALID_ARGUMENTS, "the arguments are not valid JSON: the text ends at byte 1");
    /* Required fields: missing, null, duplicate keys (the last one wins). */
    dispatch_text("divide", "{}", AIKIDO_ERR_INVALID_ARGUMENTS,
                  "aikido/tools: invalid tool arguments for tool \"divide\": missing required field \"by\"");
    dispatch_bytes("divide", NULL, 0, NULL, AIKIDO_ERR_INVALID_ARGUMENTS, "missing required field \"by\"");
    dispatch_text("divide", "{\"by\":null}", AIKIDO_ERR_INVALID_ARGUMENTS, "required field \"by\" is null");
    dispatch_text("divide", "{\"by\":1,\"by\":null}", AIKIDO_ERR_INVALID_ARGUMENTS, "required field \"by\" is null");
    dispatch_text("divide", "{\"BY\":1}", AIKIDO_ERR_INVALID_ARGUMENTS, "missing required field \"by\"");
    CHECK(last.runs == runs); /* the handler ran for none of them */
    dispatch_text("divide", "{\"by\":null,\"by\":0}", AIKIDO_OK, "{\"by\":null,\"by\":0}");
    dispatch_text("divide", "{\"by\":false}", AIKIDO_OK, "false");
    CHECK(last.runs == runs + 2);
}

/* {"a": followed by `depth` of `open`, as many `close`, and "}". */
static char *nested(size_t depth, char open, char close, size_t *len) {
    char *text = malloc(depth * 2 + 7);
    memcpy(text, "{\"a\":", 5);
    memset(text + 5, open, depth);
    memset(text + 5 + depth, close, depth);
    text[5 + 2 * depth] = '}';
    text[6 + 2 * depth] = '\0';
    *len = 6 + 2 * depth;
    return text;
}

static void deep_nesting(void) {
    size_t len;
    char *deep = nested(200000, '[', ']', &len);
    dispatch_bytes("echo", deep, len, NULL, AIKIDO_ERR_INVALID_ARGUMENTS, "nested deeper than 512 levels");
    free(deep);
    deep = nested(511, '[', ']', &len);
    dispatch_bytes("echo", deep, len, NULL, AIKIDO_OK, "[[[");
    free(deep);
    /* Deeply nested objects, and a document that ends while deep. */
    {
        size_t depth = 100000, i;
        char *objects = malloc(depth * 6 + 2);
        for (i = 0; i < depth; i++) memcpy(objects + i * 5, "{\"a\":", 5);
        memcpy(objects + depth * 5, "1", 2);
        dispatch_bytes("echo", objects, depth * 5 + 1, NULL, AIKIDO_ERR_INVALID_ARGUMENTS,
                       "nested deeper than 512 levels");
        free(objects);
    }
}

/* Arguments and session ids around the library's 1 KiB copy buffer, and far
 * beyond it, arrive whole and NUL-terminated, and come back whole. */
static void sizes(void) {
    static const size_t lengths[] = {1021, 1022, 1023, 1024, 1025, 1026, 4096, 1 << 20};
    size_t i;
    for (i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        size_t len = lengths[i];
        char *arguments = malloc(len + 1), *session = malloc(len + 1), *content = NULL;
        aikido_tool_call call = {NULL, "echo", NULL, 0};
        aikido_environment environment;
        memset(arguments, 'x', len);
        memcpy(arguments, "{\"s\":\"", 6);
        memcpy(arguments + len - 2, "\"}", 2);
        arguments[len] = '#'; /* not NUL-terminated: only len bytes count */
        memset(session, 's', len);
        session[len] = '\0';
        memset(&environment, 0, sizeof environment);
        environment.session_id = session;
        call.arguments = arguments;
        call.arguments_len = len;
        CHECK_STATUS(aikido_registry_dispatch(registry, &call, &environment, &content, NULL), AIKIDO_OK);
        CHECK(content != NULL && strlen(content) == len && memcmp(content, arguments, len) == 0);
        CHECK(last.arguments_len == len && last.arguments_terminated);
        CHECK(last.session_id_len == len);
        aikido_string_free(content);
        free(arguments);
        free(session);
    }
}

static void null_and_invalid_input(void) {
    aikido_tool_call call = {NULL, "echo", NULL, 0};
    aikido_environment environment;
    char *content = (char *)"sentinel", *error = NULL;
    memset(&environment, 0, sizeof environment);

    CHECK_STATUS(aikido_registry_dispatch(NULL, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK(content == NULL);
    CHECK_STR(error, "aikido/tools: invalid input: registry is NULL");
    aikido_string_free(error);
    CHECK_STATUS(aikido_registry_dispatch(registry, NULL, NULL, &content, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: call is NULL");
    aikido_string_free(error);
    call.name = NULL;
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: call->name is NULL");
    aikido_string_free(error);
    call.name = "ec\xffho";
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: call->name is not valid UTF-8");
    aikido_string_free(error);
    call.name = "echo";
    call.id = "\xfe";
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: call->id is not valid UTF-8");
    aikido_string_free(error);
    call.id = NULL;
    call.arguments_len = 3;
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: call->arguments is NULL but its length is 3");
    aikido_string_free(error);
    call.arguments_len = 0;
    environment.session_id = "sess\xff";
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, &environment, &content, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: environment->session_id is not valid UTF-8");
    aikido_string_free(error);
    /* Outputs the caller does not want may be NULL, on success and failure. */
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, NULL, NULL), AIKIDO_OK);
    call.name = "nope";
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, NULL, NULL), AIKIDO_ERR_UNKNOWN_TOOL);
}

static void environment_reaches_the_handler(void) {
    aikido_environment environment;
    aikido_cancel *token = aikido_cancel_new();
    uint8_t zero[16];
    memset(zero, 0, sizeof zero);
    environment.session_id = "conversation-1 \xc3\xa9";
    aikido_uuid_new_v7(environment.turn_id);
    environment.cancel = token;
    dispatch_bytes("echo", NULL, 0, &environment, AIKIDO_OK, "{}");
    CHECK(!last.environment_was_null);
    CHECK_STR(last.session_id, "conversation-1 \xc3\xa9");
    CHECK(memcmp(last.turn_id, environment.turn_id, 16) == 0);
    CHECK(last.cancel != NULL);
    CHECK(!aikido_cancel_is_fired(last.cancel));
    /* NULL session id means "". */
    environment.session_id = NULL;
    environment.cancel = NULL;
    dispatch_bytes("echo", NULL, 0, &environment, AIKIDO_OK, "{}");
    CHECK_STR(last.session_id, "");
    CHECK(last.cancel == NULL);
    /* A NULL environment: no session, nil turn, never cancelled; the handler still gets one. */
    memset(last.turn_id, 0xff, 16);
    dispatch_bytes("echo", NULL, 0, NULL, AIKIDO_OK, "{}");
    CHECK(!last.environment_was_null);
    CHECK_STR(last.session_id, "");
    CHECK(memcmp(last.turn_id, zero, 16) == 0);
    CHECK(last.cancel == NULL);
    aikido_cancel_free(token);
}

/* Fires the token it is given, then reports what env->cancel says. */
static aikido_status fire_and_poll(void *userdata, const char *arguments, size_t arguments_len,
                                   const aikido_environment *environment, aikido_reply *reply) {
    const char *answer;
    (void)arguments, (void)arguments_len;
    if (aikido_cancel_is_fired(environment->cancel)) return aikido_reply_set_content(reply, "fired early", 11);
    aikido_cancel_fire(userdata);
    answer = aikido_cancel_is_fired(environment->cancel) ? "fired" : "not fired";
    return aikido_reply_set_content(reply, answer, strlen(answer));
}

/* Polls env->cancel until another thread fires it, then gives up. */
static aikido_status wait_for_cancel(void *userdata, const char *arguments, size_t arguments_len,
                                     const aikido_environment *environment, aikido_reply *reply) {
    struct timespec pause = {0, 1000000};
    int *started = userdata, polls;
    (void)arguments, (void)arguments_len;
    __atomic_store_n(started, 1, __ATOMIC_RELEASE);
    for (polls = 0; polls < 60000; polls++) {
        if (aikido_cancel_is_fired(environment->cancel)) {
            aikido_reply_set_error(reply, "stopped: the call was cancelled", 31);
            return AIKIDO_ERR_TOOL_FAILED;
        }
        nanosleep(&pause, NULL);
    }
    aikido_reply_set_error(reply, "never cancelled", 15);
    return AIKIDO_ERR_TOOL_FAILED;
}

typedef struct cancel_call {
    aikido_environment environment;
    aikido_status status;
    char *error;
} cancel_call;

static void *dispatch_waiting(void *argument) {
    cancel_call *run = argument;
    aikido_tool_call call = {NULL, "wait", NULL, 0};
    run->status = aikido_registry_dispatch(registry, &call, &run->environment, NULL, &run->error);
    return NULL;
}

static void cancellation(void) {
    aikido_environment environment;
    aikido_cancel *token = aikido_cancel_new();
    aikido_cancel *other = aikido_cancel_new();
    int runs = last.runs, started = 0;
    memset(&environment, 0, sizeof environment);
    environment.cancel = token;

    /* Not fired: runs. Fired: the handler does not run. */
    dispatch_bytes("echo", "{}", 2, &environment, AIKIDO_OK, "{}");
    CHECK(last.runs == runs + 1);
    aikido_cancel_fire(token);
    dispatch_bytes("echo", "{}", 2, &environment, AIKIDO_ERR_CANCELLED,
                   "aikido/tools: call cancelled: tool \"echo\" was not run");
    CHECK(last.runs == runs + 1);
    /* Unknown names and bad arguments are reported before cancellation. */
    dispatch_bytes("nope", "{}", 2, &environment, AIKIDO_ERR_UNKNOWN_TOOL, "unknown tool \"nope\"");
    dispatch_bytes("divide", "{}", 2, &environment, AIKIDO_ERR_INVALID_ARGUMENTS, "missing required field \"by\"");
    CHECK(last.runs == runs + 1);

    /* A handler sees its environment's token, and sees it fire. */
    CHECK_STATUS(aikido_registry_register(registry, "fire", NULL, NULL, fire_and_poll, other, NULL, NULL), AIKIDO_OK);
    environment.cancel = other;
    dispatch_bytes("fire", NULL, 0, &environment, AIKIDO_OK, "fired");
    CHECK(aikido_cancel_is_fired(other));
    dispatch_bytes("fire", NULL, 0, &environment, AIKIDO_ERR_CANCELLED, "tool \"fire\" was not run");

    /* Fired from another thread while the handler runs and polls. */
    {
        cancel_call run;
        pthread_t thread;
        struct timespec pause = {0, 1000000};
        aikido_cancel *live = aikido_cancel_new();
        CHECK_STATUS(aikido_registry_register(registry, "wait", NULL, NULL, wait_for_cancel, &started, NULL, NULL),
                     AIKIDO_OK);
        memset(&run, 0, sizeof run);
        run.environment.cancel = live;
        CHECK(pthread_create(&thread, NULL, dispatch_waiting, &run) == 0);
        while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE)) nanosleep(&pause, NULL);
        aikido_cancel_fire(live);
        CHECK(pthread_join(thread, NULL) == 0);
        CHECK_STATUS(run.status, AIKIDO_ERR_TOOL_FAILED);
        CHECK_STR(run.error, "stopped: the call was cancelled");
        aikido_string_free(run.error);
        aikido_cancel_free(live);
    }
    aikido_cancel_free(token);
    aikido_cancel_free(other);
}

int main(void) {
    registry = aikido_registry_new();
    CHECK_STATUS(aikido_registry_register(registry, "echo", "Echo.", NULL, record, &last, NULL, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_register(registry, "divide", NULL,
                                          "{\"properties\":{\"by\":{\"type\":\"integer\"}},\"required\":[\"by\"],"
                                          "\"type\":\"object\"}",
                                          record, &last, NULL, NULL),
                 AIKIDO_OK);
    argument_check();
    deep_nesting();
    sizes();
    null_and_invalid_input();
    environment_reaches_the_handler();
    cancellation();
    aikido_registry_free(registry);
    return check_summary("dispatch");
}
