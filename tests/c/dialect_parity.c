/* The shared dialect cases (tests/cases/dialects.tsv; its header comment
 * defines the columns) through the C API, as every binding runs them.
 * Usage: dialect_parity [path/to/dialects.tsv]; without a path, the table is
 * found beside this source file. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aikido.h"
#include "table.h"

#define COLUMNS 7
#define MIN_CASES 25

static aikido_status echo(void *userdata, const char *arguments, size_t arguments_len,
                          const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata;
    (void)environment;
    return aikido_reply_set_content(reply, arguments, arguments_len);
}

static aikido_status fail(void *userdata, const char *arguments, size_t arguments_len,
                          const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata;
    (void)arguments;
    (void)arguments_len;
    (void)environment;
    aikido_reply_set_error(reply, "disk full", 9);
    return AIKIDO_ERR_TOOL_FAILED;
}

/* The calls of a reply as the table writes them: `[id] name arguments`,
 * joined by " | ", or "(none)"; a string to free with free(). */
static aikido_status read_calls(uint32_t dialect, const char *reply, char **out, char **error) {
    aikido_tool_calls *calls = NULL;
    aikido_status status = aikido_tool_calls_read(dialect, reply, strlen(reply), &calls, error);
    size_t i, n = aikido_tool_calls_len(calls), size = sizeof "(none)";
    aikido_tool_call call;
    if (status != AIKIDO_OK) return status;
    for (i = 0; i < n; i++) {
        if (aikido_tool_calls_get(calls, i, &call, error) != AIKIDO_OK) break;
        size += strlen(call.id) + strlen(call.name) + call.arguments_len + 8;
    }
    *out = malloc(size);
    strcpy(*out, n == 0 ? "(none)" : "");
    for (i = 0; i < n && aikido_tool_calls_get(calls, i, &call, NULL) == AIKIDO_OK; i++) {
        if (i > 0) strcat(*out, " | ");
        strcat(*out, "[");
        strcat(*out, call.id);
        strcat(*out, "] ");
        strcat(*out, call.name);
        strcat(*out, " ");
        strncat(*out, call.arguments, call.arguments_len);
    }
    aikido_tool_calls_free(calls);
    return status;
}

static int run_case(const aikido_registry *registry, char **column) {
    uint32_t dialect = (uint32_t)strtoul(column[2], NULL, 10), flags = (uint32_t)strtoul(column[3], NULL, 10);
    char *out = NULL, *error = NULL, *calls = NULL;
    aikido_status status;
    const char *status_name, *text;
    int ok;
    if (strcmp(column[1], "definitions") == 0) {
        status = aikido_registry_definitions_for(registry, dialect, flags, &out, &error);
    } else if (strcmp(column[1], "parse") == 0) {
        status = aikido_tool_calls_parse(dialect, column[4], strlen(column[4]), &out, &error);
    } else if (strcmp(column[1], "calls") == 0) {
        status = read_calls(dialect, column[4], &calls, &error);
    } else {
        status = aikido_registry_respond(registry, dialect, column[4], strlen(column[4]), NULL, flags, &out, &error);
    }
    status_name = aikido_status_name(status);
    text = status != AIKIDO_OK ? error : calls != NULL ? calls : out;
    ok = text != NULL && strcmp(status_name, column[5]) == 0 &&
         (status == AIKIDO_OK ? strcmp(text, column[6]) == 0 : strstr(text, column[6]) != NULL);
    if (!ok) printf("FAIL %s: got %s\n  %s\nwant %s\n  %s\n", column[0], status_name, text ? text : "(NULL)", column[5], column[6]);
    aikido_string_free(out);
    aikido_string_free(error);
    free(calls);
    return ok;
}

static int run_one(void *registry, char **column) {
    return run_case(registry, column);
}

int main(int argc, char **argv) {
    aikido_registry *registry = aikido_registry_new();
    int status;
    aikido_registry_register(registry, "read", "Read a file.",
                             "{\"properties\":{\"limit\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"}},"
                             "\"required\":[\"path\"],\"type\":\"object\"}",
                             echo, NULL, NULL, NULL);
    aikido_registry_register(registry, "fail", NULL, NULL, fail, NULL, NULL, NULL);
    status = table_run("dialect_parity", argc, argv, __FILE__, "../cases/dialects.tsv", COLUMNS, MIN_CASES, run_one,
                       registry);
    aikido_registry_free(registry);
    return status;
}
