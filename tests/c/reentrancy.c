/* Handlers that call back into the registry running them: dispatch,
 * register, unregister and list, with no lock held. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static aikido_registry *registry;

static aikido_status inner(void *userdata, const char *arguments, size_t arguments_len,
                           const aikido_environment *environment, aikido_reply *reply) {
    char text[128];
    int len;
    (void)userdata;
    len = snprintf(text, sizeof text, "inner(%.*s, %s)", (int)arguments_len, arguments, environment->session_id);
    return aikido_reply_set_content(reply, text, (size_t)len);
}

/* Dispatches "inner" with its own environment and wraps the answer. */
static aikido_status outer(void *userdata, const char *arguments, size_t arguments_len,
                           const aikido_environment *environment, aikido_reply *reply) {
    aikido_tool_call call = {"nested", "inner", NULL, 0};
    char *content = NULL, *error = NULL, text[256];
    aikido_status status;
    int len;
    (void)userdata;
    call.arguments = arguments;
    call.arguments_len = arguments_len;
    status = aikido_registry_dispatch(registry, &call, environment, &content, &error);
    if (status != AIKIDO_OK) {
        aikido_reply_set_error(reply, error, strlen(error));
        aikido_string_free(error);
        return AIKIDO_ERR_TOOL_FAILED;
    }
    len = snprintf(text, sizeof text, "outer[%s]", content);
    aikido_string_free(content);
    return aikido_reply_set_content(reply, text, (size_t)len);
}

/* Counts down through itself: {"n":N} dispatches {"n":N-1} until 0. */
static aikido_status countdown(void *userdata, const char *arguments, size_t arguments_len,
                               const aikido_environment *environment, aikido_reply *reply) {
    aikido_tool_call call = {NULL, "countdown", NULL, 0};
    char next[32], *content = NULL, text[512];
    int n = atoi(arguments + 5), len;
    (void)userdata, (void)arguments_len;
    if (n == 0) return aikido_reply_set_content(reply, "0", 1);
    call.arguments = next;
    call.arguments_len = (size_t)snprintf(next, sizeof next, "{\"n\":%d}", n - 1);
    if (aikido_registry_dispatch(registry, &call, environment, &content, NULL) != AIKIDO_OK)
        return AIKIDO_ERR_TOOL_FAILED;
    len = snprintf(text, sizeof text, "%d %s", n, content);
    aikido_string_free(content);
    return aikido_reply_set_content(reply, text, (size_t)len);
}

/* Registers "made", runs it, lists the definitions, unregisters "victim". */
static aikido_status rearranges(void *userdata, const char *arguments, size_t arguments_len,
                                const aikido_environment *environment, aikido_reply *reply) {
    aikido_tool_call call = {NULL, "made", "{\"x\":1}", 7};
    char *content = NULL, *json = NULL, text[1024];
    int len;
    (void)userdata, (void)arguments, (void)arguments_len;
    if (aikido_registry_register(registry, "made", "Made by a handler.", "{\"required\":[\"x\"]}", inner, NULL, NULL,
                                 NULL) != AIKIDO_OK)
        return AIKIDO_ERR_TOOL_FAILED;
    if (aikido_registry_dispatch(registry, &call, environment, &content, NULL) != AIKIDO_OK)
        return AIKIDO_ERR_TOOL_FAILED;
    if (aikido_registry_unregister(registry, "victim", NULL) != AIKIDO_OK ||
        aikido_registry_definitions(registry, &json, NULL) != AIKIDO_OK) {
        aikido_string_free(content);
        return AIKIDO_ERR_TOOL_FAILED;
    }
    len = snprintf(text, sizeof text, "%s | %s", content, json);
    aikido_string_free(content);
    aikido_string_free(json);
    return aikido_reply_set_content(reply, text, (size_t)len);
}

/* A userdata_free that uses the registry the tool was in. */
static int len_seen_by_free = -1;
static void free_and_look(void *userdata) {
    (void)userdata;
    len_seen_by_free = (int)aikido_registry_len(registry);
}

static char *dispatch_ok(const char *name, const char *arguments) {
    aikido_tool_call call = {NULL, NULL, NULL, 0};
    aikido_environment environment;
    char *content = NULL, *error = NULL;
    memset(&environment, 0, sizeof environment);
    environment.session_id = "s-1";
    call.name = name;
    call.arguments = arguments;
    call.arguments_len = strlen(arguments);
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, &environment, &content, &error), AIKIDO_OK);
    if (error != NULL) fprintf(stderr, "    error: %s\n", error);
    aikido_string_free(error);
    return content;
}

int main(void) {
    char *content;
    registry = aikido_registry_new();
    CHECK_STATUS(aikido_registry_register(registry, "inner", NULL, NULL, inner, NULL, NULL, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_register(registry, "outer", NULL, NULL, outer, NULL, NULL, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_register(registry, "countdown", NULL, NULL, countdown, NULL, NULL, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_register(registry, "rearranges", NULL, NULL, rearranges, NULL, NULL, NULL),
                 AIKIDO_OK);
    CHECK_STATUS(aikido_registry_register(registry, "victim", NULL, NULL, inner, NULL, free_and_look, NULL),
                 AIKIDO_OK);

    content = dispatch_ok("outer", "{\"a\":1}");
    CHECK_STR(content, "outer[inner({\"a\":1}, s-1)]");
    aikido_string_free(content);

    content = dispatch_ok("countdown", "{\"n\":20}");
    CHECK_STR(content, "20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0");
    aikido_string_free(content);

    content = dispatch_ok("rearranges", "{}");
    CHECK_STR(content, "inner({\"x\":1}, s-1) | [{\"name\":\"inner\"},{\"name\":\"outer\"},{\"name\":\"countdown\"},"
                       "{\"name\":\"rearranges\"},{\"name\":\"made\",\"description\":\"Made by a handler.\","
                       "\"parameters\":{\"required\":[\"x\"]}}]");
    aikido_string_free(content);
    /* The victim's free ran, and could itself ask the registry. */
    CHECK(len_seen_by_free == 5);
    CHECK(aikido_registry_len(registry) == 5);

    /* A second run: "made" is taken now, so the handler reports failure. */
    {
        aikido_tool_call call = {NULL, "rearranges", NULL, 0};
        CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, NULL, NULL), AIKIDO_ERR_TOOL_FAILED);
    }
    /* A nested call's failure reaches the outer handler; the tool a handler
     * registered enforces its schema like any other. */
    {
        aikido_tool_call call = {NULL, "outer", "{\"y\":1}", 7};
        char *error = NULL;
        CHECK_STATUS(aikido_registry_unregister(registry, "inner", NULL), AIKIDO_OK);
        CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, NULL, &error), AIKIDO_ERR_TOOL_FAILED);
        CHECK_CONTAINS(error, "aikido/tools: unknown tool \"inner\"");
        aikido_string_free(error);
        call.name = "made";
        CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, NULL, &error), AIKIDO_ERR_INVALID_ARGUMENTS);
        CHECK_CONTAINS(error, "missing required field \"x\"");
        aikido_string_free(error);
    }
    aikido_registry_free(registry);
    return check_summary("reentrancy");
}
