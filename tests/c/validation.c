/* Full argument validation from C: aikido_registry_set_validation, the
 * messages of FULL mode, and the repairs aikido_registry_dispatch_ex
 * reports in REPAIR mode. */

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static const char *READ = "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
                          "\"limit\":{\"type\":\"integer\"},\"mode\":{\"enum\":[\"r\",\"w\"]}},"
                          "\"required\":[\"path\"]}";

static aikido_status reg(aikido_registry *registry, const char *name, const char *parameters, char **error) {
    return aikido_registry_register(registry, name, NULL, parameters, check_echo_handler, NULL, NULL, error);
}

static aikido_tool_call call_of(const char *arguments) {
    aikido_tool_call call;
    call.id = "call-1";
    call.name = "read";
    call.arguments = arguments;
    call.arguments_len = strlen(arguments);
    return call;
}

static void modes_and_refusals(void) {
    aikido_registry *registry = aikido_registry_new();
    char *error = NULL;
    CHECK_STATUS(aikido_registry_set_validation(NULL, AIKIDO_VALIDATE_FULL, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_CONTAINS(error, "registry is NULL");
    aikido_string_free(error);
    CHECK_STATUS(aikido_registry_set_validation(registry, 9, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_CONTAINS(error, "9 is not a validation mode");
    aikido_string_free(error);

    /* REQUIRED (the default) accepts a schema that is not valid JSON Schema;
     * switching to FULL then fails, naming it, and changes nothing. */
    CHECK_STATUS(reg(registry, "lenient", "{\"type\":\"objekt\"}", NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_set_validation(registry, AIKIDO_VALIDATE_FULL, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_CONTAINS(error, "the parameters of tool \"lenient\" are not valid JSON Schema");
    aikido_string_free(error);
    CHECK_STATUS(aikido_registry_unregister(registry, "lenient", NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_set_validation(registry, AIKIDO_VALIDATE_FULL, &error), AIKIDO_OK);
    CHECK(error == NULL);

    /* FULL refuses such a schema, and a remote $ref, at registration. */
    CHECK_STATUS(reg(registry, "strict", "{\"type\":\"objekt\"}", &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_CONTAINS(error, "tool \"strict\"");
    aikido_string_free(error);
    CHECK_STATUS(reg(registry, "remote", "{\"$ref\":\"https://example.com/s.json\"}", &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_CONTAINS(error, "never fetched");
    aikido_string_free(error);
    CHECK(aikido_registry_len(registry) == 0);
    aikido_registry_free(registry);
}

static void full_messages(void) {
    aikido_registry *registry = aikido_registry_new();
    char *content = NULL, *error = NULL;
    CHECK_STATUS(reg(registry, "read", READ, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_set_validation(registry, AIKIDO_VALIDATE_FULL, NULL), AIKIDO_OK);
    aikido_tool_call call = call_of("{\"path\":\"a\",\"limit\":\"200\",\"mode\":\"x\"}");
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_ARGUMENTS);
    CHECK(content == NULL);
    CHECK_STR(error, "aikido/tools: invalid tool arguments for tool \"read\": /limit: expected integer, got string "
                     "\"200\"; /mode: must be one of \"r\", \"w\"");
    aikido_string_free(error);
    call = call_of("{\"limit\":5}");
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_ARGUMENTS);
    CHECK_STR(error, "aikido/tools: invalid tool arguments for tool \"read\": (root): missing required field \"path\"");
    aikido_string_free(error);
    call = call_of("{\"path\":\"a\",\"limit\":5}");
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_OK);
    CHECK_STR(content, "{\"path\":\"a\",\"limit\":5}");
    aikido_string_free(content);
    aikido_registry_free(registry);
}

static void repairs(void) {
    aikido_registry *registry = aikido_registry_new();
    char *content = NULL, *repaired = (char *)"sentinel", *error = NULL;
    CHECK_STATUS(reg(registry, "read", READ, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_set_validation(registry, AIKIDO_VALIDATE_FULL | AIKIDO_VALIDATE_REPAIR, NULL),
                 AIKIDO_OK);
    aikido_tool_call call = call_of("{\"path\":\"a\",\"limit\":\"200\"}");
    CHECK_STATUS(aikido_registry_dispatch_ex(registry, &call, NULL, &content, &repaired, &error), AIKIDO_OK);
    CHECK_STR(content, "{\"path\":\"a\",\"limit\":200}");
    CHECK_STR(repaired, "[{\"pointer\":\"/limit\",\"from\":\"200\",\"to\":200}]");
    CHECK(error == NULL);
    aikido_string_free(content);
    aikido_string_free(repaired);

    /* Nothing to repair: [] */
    call = call_of("{\"path\":\"a\"}");
    CHECK_STATUS(aikido_registry_dispatch_ex(registry, &call, NULL, &content, &repaired, NULL), AIKIDO_OK);
    CHECK_STR(repaired, "[]");
    aikido_string_free(content);
    aikido_string_free(repaired);

    /* Not unambiguous: still fails, and repairs_out stays NULL. */
    call = call_of("{\"path\":\"a\",\"limit\":\"2.5\"}");
    CHECK_STATUS(aikido_registry_dispatch_ex(registry, &call, NULL, &content, &repaired, &error),
                 AIKIDO_ERR_INVALID_ARGUMENTS);
    CHECK(content == NULL && repaired == NULL);
    CHECK_CONTAINS(error, "/limit: expected integer, got string \"2.5\"");
    aikido_string_free(error);

    /* Every output may be NULL; the plain dispatch gets the repaired text. */
    call = call_of("{\"path\":\"a\",\"limit\":\"7\"}");
    CHECK_STATUS(aikido_registry_dispatch_ex(registry, &call, NULL, NULL, NULL, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, NULL), AIKIDO_OK);
    CHECK_STR(content, "{\"path\":\"a\",\"limit\":7}");
    aikido_string_free(content);
    CHECK_STATUS(aikido_registry_dispatch_ex(NULL, &call, NULL, NULL, NULL, &error), AIKIDO_ERR_INVALID_INPUT);
    aikido_string_free(error);
    aikido_registry_free(registry);
}

int main(void) {
    modes_and_refusals();
    full_messages();
    repairs();
    return check_summary("validation");
}
