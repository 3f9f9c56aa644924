/* The shared dispatch cases (tests/cases/dispatch.tsv) through the C API.
 * Usage: parity [path/to/dispatch.tsv]; without a path, the table is found
 * from this file's place in the source tree. Fails when the table has fewer
 * than 40 cases or any case fails, printing each failure. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aikido.h"
#include "table.h"

enum { COLUMNS = 8, MIN_CASES = 40 };

typedef struct bytes {
    char *data;
    size_t len;
} bytes;

/* Decodes the table's escapes: \t \n \r \\ and \xHH (one raw byte). */
static bytes unescape(const char *text) {
    bytes out;
    size_t i;
    out.data = malloc(strlen(text) + 1);
    out.len = 0;
    for (i = 0; text[i] != '\0'; i++) {
        char c = text[i];
        if (c == '\\' && text[i + 1] != '\0') {
            char code = text[++i];
            if (code == 't') c = '\t';
            else if (code == 'n') c = '\n';
            else if (code == 'r') c = '\r';
            else if (code == '\\') c = '\\';
            else if (code == 'x' && text[i + 1] && text[i + 2]) {
                char hex[3] = {0, 0, 0};
                hex[0] = text[i + 1];
                hex[1] = text[i + 2];
                c = (char)strtol(hex, NULL, 16);
                i += 2;
            } else {
                fprintf(stderr, "parity: unknown escape \\%c\n", code);
                exit(2);
            }
        }
        out.data[out.len++] = c;
    }
    out.data[out.len] = '\0';
    return out;
}

/* @deep:N is {"a": followed by N '[' then N ']' and '}'; anything else is escaped text. */
static bytes arguments_of(const char *column) {
    bytes out;
    if (strncmp(column, "@deep:", 6) == 0) {
        size_t depth = strtoul(column + 6, NULL, 10);
        out.len = 6 + 2 * depth;
        out.data = malloc(out.len + 1);
        memcpy(out.data, "{\"a\":", 5);
        memset(out.data + 5, '[', depth);
        memset(out.data + 5 + depth, ']', depth);
        out.data[out.len - 1] = '}';
        out.data[out.len] = '\0';
        return out;
    }
    return unescape(column);
}

static int contains(const char *text, const bytes *fragment) {
    size_t len = strlen(text), i;
    if (fragment->len == 0) return 1;
    for (i = 0; i + fragment->len <= len; i++)
        if (memcmp(text + i, fragment->data, fragment->len) == 0) return 1;
    return 0;
}

/* The handler column: echo, content:TEXT, fail:TEXT or panic:TEXT. */
static aikido_status table_handler(void *userdata, const char *arguments, size_t arguments_len,
                                   const aikido_environment *environment, aikido_reply *reply) {
    const char *handler = userdata;
    (void)environment;
    if (strcmp(handler, "echo") == 0) return aikido_reply_set_content(reply, arguments, arguments_len);
    if (strncmp(handler, "content:", 8) == 0) return aikido_reply_set_content(reply, handler + 8, strlen(handler + 8));
    if (strncmp(handler, "fail:", 5) == 0) {
        aikido_reply_set_error(reply, handler + 5, strlen(handler + 5));
        return AIKIDO_ERR_TOOL_FAILED;
    }
    if (strncmp(handler, "panic:", 6) == 0) {
        aikido_reply_set_error(reply, handler + 6, strlen(handler + 6));
        return AIKIDO_ERR_TOOL_PANICKED;
    }
    aikido_reply_set_error(reply, "unknown handler column", 22);
    return AIKIDO_ERR_TOOL_FAILED;
}

static int has_flag(const char *flags, const char *flag) {
    size_t len = strlen(flag);
    const char *at = flags;
    while ((at = strstr(at, flag)) != NULL) {
        if ((at == flags || at[-1] == ',') && (at[len] == '\0' || at[len] == ',')) return 1;
        at += len;
    }
    return 0;
}

/* Runs one case; returns 1 when it holds, else prints why and returns 0. */
static int run_case(char **column) {
    const char *name = column[0], *schema = strcmp(column[1], "-") == 0 ? NULL : column[1];
    aikido_registry *registry = aikido_registry_new();
    aikido_cancel *token = aikido_cancel_new();
    aikido_environment environment;
    aikido_tool_call call;
    bytes arguments = arguments_of(column[4]), fragment = unescape(column[6]);
    char *content = NULL, *error = NULL;
    const char *text, *status_name;
    aikido_status status;
    int ok;

    memset(&environment, 0, sizeof environment);
    environment.cancel = token;
    if (has_flag(column[7], "cancelled")) aikido_cancel_fire(token);
    if (has_flag(column[7], "full")) aikido_registry_set_validation(registry, AIKIDO_VALIDATE_FULL, NULL);
    if (has_flag(column[7], "repair")) aikido_registry_set_validation(registry, AIKIDO_VALIDATE_REPAIR, NULL);
    status = aikido_registry_register(registry, "probe", NULL, schema, table_handler, column[2], NULL, &error);
    if (status != AIKIDO_OK) {
        printf("FAIL %s: register: %s\n", name, error ? error : aikido_status_name(status));
        ok = 0;
    } else {
        call.id = "call-1";
        call.name = column[3];
        call.arguments = arguments.data;
        call.arguments_len = arguments.len;
        status = aikido_registry_dispatch(registry, &call, &environment, &content, &error);
        status_name = aikido_status_name(status);
        text = status == AIKIDO_OK ? content : error;
        ok = text != NULL && strcmp(status_name, column[5]) == 0 && contains(text, &fragment);
        if (!ok)
            printf("FAIL %s: got %s \"%s\"; want %s containing \"%s\"\n", name, status_name, text ? text : "(NULL)",
                   column[5], column[6]);
    }
    aikido_string_free(content);
    aikido_string_free(error);
    aikido_registry_free(registry);
    aikido_cancel_free(token);
    free(arguments.data);
    free(fragment.data);
    return ok;
}

static int run_one(void *context, char **column) {
    (void)context;
    return run_case(column);
}

int main(int argc, char **argv) {
    return table_run("parity", argc, argv, __FILE__, "../cases/dispatch.tsv", COLUMNS, MIN_CASES, run_one, NULL);
}
