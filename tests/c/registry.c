/* Registering, listing and unregistering tools, and every refusal of bad input. */

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static aikido_status answer(void *userdata, const char *arguments, size_t arguments_len,
                            const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments, (void)arguments_len, (void)environment;
    return aikido_reply_set_content(reply, "42", 2);
}

/* Registers with the answer handler; returns the status and checks error_out
 * agrees with it (NULL on success, a message otherwise). */
static aikido_status try_register(aikido_registry *registry, const char *name, const char *description,
                                  const char *parameters, const char *fragment) {
    char *error = (char *)"sentinel";
    aikido_status status = aikido_registry_register(registry, name, description, parameters, answer, NULL, NULL, &error);
    if (status == AIKIDO_OK) {
        CHECK(error == NULL);
    } else {
        CHECK_CONTAINS(error, fragment);
    }
    aikido_string_free(status == AIKIDO_OK ? NULL : error);
    return status;
}

static void check_definitions(const aikido_registry *registry, const char *want) {
    char *json = NULL, *error = NULL;
    CHECK_STATUS(aikido_registry_definitions(registry, &json, &error), AIKIDO_OK);
    CHECK_STR(json, want);
    CHECK(error == NULL);
    aikido_string_free(json);
}

static void register_and_list(void) {
    aikido_registry *registry = aikido_registry_new();
    CHECK(registry != NULL);
    CHECK(aikido_registry_len(registry) == 0);
    check_definitions(registry, "[]");

    CHECK_STATUS(try_register(registry, "read_file", "Read a file.",
                              "{ \"type\" : \"object\",\n \"required\" : [ \"path\" ],\n"
                              "  \"properties\" : { \"path\" : { \"type\" : \"string\", \"description\" : \"a b\" } } }",
                              NULL),
                 AIKIDO_OK);
    CHECK_STATUS(try_register(registry, "ping", NULL, NULL, NULL), AIKIDO_OK);
    CHECK_STATUS(try_register(registry, "say", "Say \"it\" \xc3\xa9.", "", NULL), AIKIDO_OK);
    CHECK_STATUS(try_register(registry, "sum", "", "[1, 2]", NULL), AIKIDO_OK);
    CHECK(aikido_registry_len(registry) == 4);
    /* Registration order; description and parameters left out when absent;
     * parameters compacted, their key order and string contents kept. */
    check_definitions(registry,
                      "[{\"name\":\"read_file\",\"description\":\"Read a file.\",\"parameters\":"
                      "{\"type\":\"object\",\"required\":[\"path\"],\"properties\":{\"path\":{\"type\":\"string\","
                      "\"description\":\"a b\"}}}},"
                      "{\"name\":\"ping\"},"
                      "{\"name\":\"say\",\"description\":\"Say \\\"it\\\" \xc3\xa9.\"},"
                      "{\"name\":\"sum\",\"parameters\":[1,2]}]");

    /* Unregister keeps the others in order; re-registering goes to the end. */
    CHECK_STATUS(aikido_registry_unregister(registry, "ping", NULL), AIKIDO_OK);
    CHECK(aikido_registry_len(registry) == 3);
    check_definitions(registry,
                      "[{\"name\":\"read_file\",\"description\":\"Read a file.\",\"parameters\":"
                      "{\"type\":\"object\",\"required\":[\"path\"],\"properties\":{\"path\":{\"type\":\"string\","
                      "\"description\":\"a b\"}}}},"
                      "{\"name\":\"say\",\"description\":\"Say \\\"it\\\" \xc3\xa9.\"},"
                      "{\"name\":\"sum\",\"parameters\":[1,2]}]");
    CHECK_STATUS(try_register(registry, "ping", "Back.", NULL, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_unregister(registry, "read_file", NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_unregister(registry, "sum", NULL), AIKIDO_OK);
    check_definitions(registry, "[{\"name\":\"say\",\"description\":\"Say \\\"it\\\" \xc3\xa9.\"},"
                                "{\"name\":\"ping\",\"description\":\"Back.\"}]");
    CHECK(aikido_registry_len(registry) == 2);

    /* A re-registered tool runs its new handler's answer. */
    {
        aikido_tool_call call = {"call-1", "ping", NULL, 0};
        char *content = NULL;
        CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, NULL), AIKIDO_OK);
        CHECK_STR(content, "42");
        aikido_string_free(content);
    }
    /* Either output of definitions may be NULL. */
    CHECK_STATUS(aikido_registry_definitions(registry, NULL, NULL), AIKIDO_OK);
    aikido_registry_free(registry);
}

static void register_refuses_bad_input(void) {
    aikido_registry *registry = aikido_registry_new();
    char *error = NULL;
    CHECK_STATUS(try_register(registry, "taken", NULL, NULL, NULL), AIKIDO_OK);
    CHECK_STATUS(try_register(registry, "taken", "Other.", NULL,
                              "aikido/tools: duplicate tool registration: a tool named \"taken\" is already registered"),
                 AIKIDO_ERR_DUPLICATE_TOOL);
    CHECK_STATUS(try_register(NULL, "x", NULL, NULL, "aikido/tools: invalid input: registry is NULL"),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(try_register(registry, NULL, NULL, NULL, "aikido/tools: invalid input: name is NULL"),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(try_register(registry, "", NULL, NULL, "aikido/tools: invalid input: a tool needs a non-empty name"),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(try_register(registry, "bad\xff", NULL, NULL, "name is not valid UTF-8"), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(try_register(registry, "x", "\xc0\xaf", NULL, "description is not valid UTF-8"),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(try_register(registry, "x", NULL, "{\"a\":\"\xff\"}", "parameters_json is not valid UTF-8"),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(try_register(registry, "x", NULL, "{\"type\":", "the parameters of tool \"x\" are not valid JSON"),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(try_register(registry, "x", NULL, "not json", "the parameters of tool \"x\" are not valid JSON"),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(try_register(registry, "x", NULL, "{} {}", "the parameters of tool \"x\" are not valid JSON"),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(try_register(registry, "x", NULL, "{'a':1}", "the parameters of tool \"x\" are not valid JSON"),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(aikido_registry_register(registry, "x", NULL, NULL, NULL, NULL, NULL, &error),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: handler is NULL");
    aikido_string_free(error);
    /* Without error_out the status still tells. */
    CHECK_STATUS(aikido_registry_register(registry, "", NULL, NULL, answer, NULL, NULL, NULL), AIKIDO_ERR_INVALID_INPUT);
    /* Valid JSON that is not an object schema is accepted. */
    CHECK_STATUS(try_register(registry, "scalar", NULL, "\"just a string\"", NULL), AIKIDO_OK);
    CHECK_STATUS(try_register(registry, "nothing", NULL, "null", NULL), AIKIDO_OK);
    /* Nothing failed got in. */
    CHECK(aikido_registry_len(registry) == 3);
    check_definitions(registry, "[{\"name\":\"taken\"},{\"name\":\"scalar\",\"parameters\":\"just a string\"},"
                                "{\"name\":\"nothing\",\"parameters\":null}]");
    aikido_registry_free(registry);
}

static void unregister_refuses_bad_input(void) {
    aikido_registry *registry = aikido_registry_new();
    char *error = NULL;
    CHECK_STATUS(aikido_registry_unregister(registry, "ghost", &error), AIKIDO_ERR_UNKNOWN_TOOL);
    CHECK_STR(error, "aikido/tools: unknown tool \"ghost\"; no tools are registered");
    aikido_string_free(error);
    CHECK_STATUS(try_register(registry, "real", NULL, NULL, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_unregister(registry, "ghost", &error), AIKIDO_ERR_UNKNOWN_TOOL);
    CHECK_STR(error, "aikido/tools: unknown tool \"ghost\"; the registered tools are \"real\"");
    aikido_string_free(error);
    CHECK_STATUS(aikido_registry_unregister(registry, NULL, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: name is NULL");
    aikido_string_free(error);
    CHECK_STATUS(aikido_registry_unregister(registry, "re\xffl", &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: name is not valid UTF-8");
    aikido_string_free(error);
    CHECK_STATUS(aikido_registry_unregister(NULL, "real", &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: registry is NULL");
    aikido_string_free(error);
    CHECK_STATUS(aikido_registry_unregister(registry, "real", NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_unregister(registry, "real", NULL), AIKIDO_ERR_UNKNOWN_TOOL);
    CHECK(aikido_registry_len(registry) == 0);
    aikido_registry_free(registry);
}

/* The unknown-tool message lists the first 32 tools, then how many more. */
static void unknown_tool_lists_the_tools(void) {
    aikido_registry *registry = aikido_registry_new();
    aikido_tool_call call = {NULL, "missing", NULL, 0};
    char name[16], *error = NULL;
    int i;
    for (i = 0; i < 40; i++) {
        snprintf(name, sizeof name, "t%02d", i);
        CHECK_STATUS(try_register(registry, name, NULL, NULL, NULL), AIKIDO_OK);
    }
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, NULL, &error), AIKIDO_ERR_UNKNOWN_TOOL);
    CHECK_CONTAINS(error, "aikido/tools: unknown tool \"missing\"; the registered tools include \"t00\", \"t01\", ");
    CHECK_CONTAINS(error, "\"t30\", \"t31\" and 8 more");
    CHECK(error != NULL && strstr(error, "t32") == NULL);
    aikido_string_free(error);
    aikido_registry_free(registry);
}

static void null_registry(void) {
    char *json = (char *)"sentinel", *error = NULL;
    CHECK(aikido_registry_len(NULL) == 0);
    CHECK_STATUS(aikido_registry_definitions(NULL, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK(json == NULL);
    CHECK_STR(error, "aikido/tools: invalid input: registry is NULL");
    aikido_string_free(error);
    aikido_registry_free(NULL);
}

int main(void) {
    register_and_list();
    register_refuses_bad_input();
    unregister_refuses_bad_input();
    unknown_tool_lists_the_tools();
    null_registry();
    return check_summary("registry");
}
