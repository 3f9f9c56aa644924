/* What a handler writes into its reply, and what each handler status becomes. */

#include <string.h>

#include "check.h"

/* Each handler below is one behaviour; the test table names what it must give. */

static aikido_status sets_nothing(void *userdata, const char *arguments, size_t arguments_len,
                                  const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments, (void)arguments_len, (void)environment, (void)reply;
    return AIKIDO_OK;
}

/* The outcomes of the reply calls a handler made, for the test to check after dispatch. */
static aikido_status reply_calls[16];
static int reply_call_count;
#define RECORD(call) (reply_calls[reply_call_count++] = (call))

static aikido_status replaces_content(void *userdata, const char *arguments, size_t arguments_len,
                                      const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments, (void)arguments_len, (void)environment;
    RECORD(aikido_reply_set_content(reply, "first", 5));
    RECORD(aikido_reply_set_content(reply, "second, longer", 14));
    RECORD(aikido_reply_set_content(reply, "third", 5));
    return AIKIDO_OK;
}

/* Every refused text leaves the reply as it was: "kept". */
static aikido_status refused_texts(void *userdata, const char *arguments, size_t arguments_len,
                                   const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments, (void)arguments_len, (void)environment;
    RECORD(aikido_reply_set_content(reply, "kept", 4));
    RECORD(aikido_reply_set_content(reply, "a\0b", 3));          /* embedded NUL */
    RECORD(aikido_reply_set_content(reply, "bad \xff", 5));       /* not UTF-8 */
    RECORD(aikido_reply_set_content(reply, "\xe2\x82", 2));       /* cut-off sequence */
    RECORD(aikido_reply_set_content(reply, NULL, 4));             /* NULL with a length */
    RECORD(aikido_reply_set_content(NULL, "lost", 4));            /* NULL reply */
    RECORD(aikido_reply_set_error(NULL, "lost", 4));
    return AIKIDO_OK;
}

static aikido_status length_not_terminator(void *userdata, const char *arguments, size_t arguments_len,
                                           const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments, (void)arguments_len, (void)environment;
    return aikido_reply_set_content(reply, "hello, world", 5);
}

static aikido_status empty_from_null(void *userdata, const char *arguments, size_t arguments_len,
                                     const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments, (void)arguments_len, (void)environment;
    RECORD(aikido_reply_set_content(reply, "gone", 4));
    RECORD(aikido_reply_set_content(reply, NULL, 0)); /* (NULL, 0) is the empty string */
    return AIKIDO_OK;
}

static aikido_status fails(void *userdata, const char *arguments, size_t arguments_len,
                           const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments, (void)arguments_len, (void)environment;
    aikido_reply_set_content(reply, "not shown", 9);
    aikido_reply_set_error(reply, "draft", 5);
    RECORD(aikido_reply_set_error(reply, "file not found: /etc/nope \xc3\xa9", 28));
    /* Refused: the error stays. */
    RECORD(aikido_reply_set_error(reply, "x\0y", 3));
    RECORD(aikido_reply_set_error(reply, "\xff", 1));
    RECORD(aikido_reply_set_error(reply, NULL, 1));
    return AIKIDO_ERR_TOOL_FAILED;
}

static aikido_status fails_silently(void *userdata, const char *arguments, size_t arguments_len,
                                    const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments, (void)arguments_len, (void)environment, (void)reply;
    return AIKIDO_ERR_TOOL_FAILED;
}

static aikido_status panics(void *userdata, const char *arguments, size_t arguments_len,
                            const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments, (void)arguments_len, (void)environment;
    aikido_reply_set_error(reply, "division by zero", 16);
    return AIKIDO_ERR_TOOL_PANICKED;
}

static aikido_status panics_silently(void *userdata, const char *arguments, size_t arguments_len,
                                     const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments, (void)arguments_len, (void)environment, (void)reply;
    return AIKIDO_ERR_TOOL_PANICKED;
}

/* Returns the status in its userdata, one a handler may not return. */
static aikido_status returns_status(void *userdata, const char *arguments, size_t arguments_len,
                                    const aikido_environment *environment, aikido_reply *reply) {
    (void)arguments, (void)arguments_len, (void)environment;
    aikido_reply_set_content(reply, "ignored", 7);
    aikido_reply_set_error(reply, "ignored too", 11);
    return *(const aikido_status *)userdata;
}

/* An error set but OK returned: the content counts. */
static aikido_status error_then_ok(void *userdata, const char *arguments, size_t arguments_len,
                                   const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments, (void)arguments_len, (void)environment;
    aikido_reply_set_error(reply, "not an error after all", 22);
    aikido_reply_set_content(reply, "fine", 4);
    return AIKIDO_OK;
}

static aikido_registry *registry;

static void check_dispatch(const char *name, aikido_handler handler, void *userdata, aikido_status want,
                           const char *want_text) {
    aikido_tool_call call = {"call-1", NULL, "{}", 2};
    char *content = NULL, *error = NULL;
    call.name = name;
    reply_call_count = 0;
    CHECK_STATUS(aikido_registry_register(registry, name, NULL, NULL, handler, userdata, NULL, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, &error), want);
    if (want == AIKIDO_OK) {
        CHECK_STR(content, want_text);
        CHECK(error == NULL);
    } else {
        CHECK_STR(error, want_text);
        CHECK(content == NULL);
    }
    aikido_string_free(content);
    aikido_string_free(error);
}

int main(void) {
    static const aikido_status not_allowed[] = {42, -1, AIKIDO_ERR_INVALID_ARGUMENTS, AIKIDO_ERR_CANCELLED};
    static const char *const not_allowed_names[] = {"status-42", "status-minus-1", "status-3", "status-7"};
    static const char *const not_allowed_texts[] = {"returned status 42,", "returned status -1,", "returned status 3,",
                                                      "returned status 7,"};
    size_t i;
    registry = aikido_registry_new();

    check_dispatch("nothing", sets_nothing, NULL, AIKIDO_OK, "");
    check_dispatch("replaces", replaces_content, NULL, AIKIDO_OK, "third");
    CHECK(reply_call_count == 3 && reply_calls[0] == AIKIDO_OK && reply_calls[1] == AIKIDO_OK &&
          reply_calls[2] == AIKIDO_OK);
    check_dispatch("refused", refused_texts, NULL, AIKIDO_OK, "kept");
    CHECK(reply_call_count == 7);
    CHECK_STATUS(reply_calls[0], AIKIDO_OK);
    for (i = 1; i < 7; i++) CHECK_STATUS(reply_calls[i], AIKIDO_ERR_INVALID_INPUT);
    check_dispatch("length", length_not_terminator, NULL, AIKIDO_OK, "hello");
    check_dispatch("empty", empty_from_null, NULL, AIKIDO_OK, "");
    CHECK(reply_call_count == 2 && reply_calls[1] == AIKIDO_OK);

    /* A handler's error text comes back unchanged. */
    check_dispatch("fails", fails, NULL, AIKIDO_ERR_TOOL_FAILED, "file not found: /etc/nope \xc3\xa9");
    CHECK(reply_call_count == 4 && reply_calls[0] == AIKIDO_OK);
    for (i = 1; i < 4; i++) CHECK_STATUS(reply_calls[i], AIKIDO_ERR_INVALID_INPUT);
    check_dispatch("fails-silently", fails_silently, NULL, AIKIDO_ERR_TOOL_FAILED,
                   "aikido/tools: tool failed: tool \"fails-silently\" reported an error without a message");
    check_dispatch("panics", panics, NULL, AIKIDO_ERR_TOOL_PANICKED,
                   "aikido/tools: tool panicked: tool \"panics\": division by zero");
    check_dispatch("panics-silently", panics_silently, NULL, AIKIDO_ERR_TOOL_PANICKED,
                   "aikido/tools: tool panicked: tool \"panics-silently\": the handler reported a panic without a message");
    check_dispatch("error-then-ok", error_then_ok, NULL, AIKIDO_OK, "fine");

    /* A status a handler may not return fails the call, naming the tool and the value. */
    for (i = 0; i < sizeof not_allowed / sizeof not_allowed[0]; i++) {
        aikido_tool_call call = {NULL, NULL, NULL, 0};
        char *error = NULL;
        call.name = not_allowed_names[i];
        CHECK_STATUS(aikido_registry_register(registry, call.name, NULL, NULL, returns_status,
                                              (void *)&not_allowed[i], NULL, NULL),
                     AIKIDO_OK);
        CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, NULL, &error), AIKIDO_ERR_TOOL_FAILED);
        CHECK_CONTAINS(error, "aikido/tools: tool failed: tool \"");
        CHECK_CONTAINS(error, call.name);
        CHECK_CONTAINS(error, not_allowed_texts[i]);
        CHECK_CONTAINS(error, "which a handler may not return");
        aikido_string_free(error);
    }
    CHECK(aikido_registry_len(registry) == 14);
    aikido_registry_free(registry);
    return check_summary("handlers");
}
