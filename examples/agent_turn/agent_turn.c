/*
 * One full agent turn with libaikido, no network and no model:
 *
 *   1. register three tools (read part of a file, list a directory, convert
 *      units), their schemas built with the aikido_schema_* helpers;
 *   2. print their definitions as the JSON a model would receive;
 *   3. read a recorded model reply holding several tool calls, one with bad
 *      arguments and one naming an unknown tool;
 *   4. dispatch every call and print each outcome as the tool-result message
 *      the agent would send back, errors included;
 *   5. a second turn, in two providers' own formats: the same three tools
 *      as Anthropic's and OpenAI's "tools", and one aikido_registry_respond
 *      per recorded reply, printing exactly what the agent would append.
 *
 * Usage: agent_turn MODEL_REPLY.json [ANTHROPIC_REPLY.json OPENAI_REPLY.json]
 * (run from examples/agent_turn: the file tools act on ./workspace only; the
 * second turn's replies default to anthropic-reply.json and openai-reply.json).
 */
#define _POSIX_C_SOURCE 200809L /* strdup, opendir */
#include "aikido.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- A small JSON reader, enough for a model reply and tool arguments ----
 * libaikido checks every call's arguments before a handler runs (one JSON
 * object, required fields present), so handlers only need to pick fields. */

static const char *skip_space(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

/* Returns the end of the JSON value that starts at p. */
static const char *skip_value(const char *p) {
    int depth = 0;
    p = skip_space(p);
    do {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1]) p++;
            if (*p) p++;
        } else if (*p == '{' || *p == '[') {
            depth++, p++;
        } else if (*p == '}' || *p == ']') {
            depth--, p++;
        } else if (depth > 0 && *p) {
            p++;
        } else {
            while (*p && !strchr(",}] \t\r\n", *p)) p++;
        }
        if (depth > 0) p = skip_space(p);
    } while (depth > 0 && *p);
    return p;
}

/* Finds the value of `key` in the object at p; NULL when it is absent. */
static const char *member(const char *object, const char *key) {
    const char *p = skip_space(object);
    size_t key_len = strlen(key);
    if (*p++ != '{') return NULL;
    for (;;) {
        p = skip_space(p);
        if (*p != '"') return NULL;
        const char *name = p + 1;
        const char *value = skip_space(strchr(skip_value(p), ':') + 1);
        if ((size_t)(skip_value(p) - name - 1) == key_len && strncmp(name, key, key_len) == 0) return value;
        p = skip_space(skip_value(value));
        if (*p++ != ',') return NULL;
    }
}

/* Decodes the JSON string at p into a new buffer (ASCII escapes and \uXXXX
 * below U+0080 are enough for this demo); NULL when p is not a string. */
static char *string_value(const char *p) {
    if (p == NULL || *p != '"') return NULL;
    const char *end = skip_value(p) - 1;
    char *out = malloc((size_t)(end - p) + 1), *o = out;
    for (p++; p < end; p++) {
        if (*p != '\\') { *o++ = *p; continue; }
        switch (*++p) {
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case 'r': *o++ = '\r'; break;
        case 'u': *o++ = (char)strtol((char[5]){p[1], p[2], p[3], p[4], 0}, NULL, 16); p += 4; break;
        default: *o++ = *p;
        }
    }
    *o = '\0';
    return out;
}

static double number_value(const char *p, double fallback) {
    return p != NULL && (*p == '-' || (*p >= '0' && *p <= '9')) ? strtod(p, NULL) : fallback;
}

/* Writes text as a JSON string literal. */
static void print_json_string(const char *text) {
    putchar('"');
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '"' || *c == '\\') printf("\\%c", *c);
        else if (*c == '\n') printf("\\n");
        else if (*c == '\t') printf("\\t");
        else if (*c < 0x20) printf("\\u%04x", *c);
        else putchar(*c);
    }
    putchar('"');
}

static char *read_whole_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    char *text = malloc((size_t)size + 1);
    size_t got = fread(text, 1, (size_t)size, file);
    text[got] = '\0';
    fclose(file);
    return text;
}

/* ---- The tools ---- */

static aikido_status reply_text(aikido_reply *reply, const char *text) {
    aikido_reply_set_content(reply, text, strlen(text));
    return AIKIDO_OK;
}

static aikido_status reply_failure(aikido_reply *reply, const char *text) {
    aikido_reply_set_error(reply, text, strlen(text));
    return AIKIDO_ERR_TOOL_FAILED;
}

/* Resolves a model-given path inside the workspace, or fails. */
static int workspace_path(const char *path, char *out, size_t out_size) {
    if (path[0] == '/' || strstr(path, "..") != NULL) return 0;
    return snprintf(out, out_size, "%s/%s", (const char *)"workspace", path) < (int)out_size;
}

static aikido_status read_file(void *userdata, const char *arguments, size_t arguments_len,
                               const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments_len, (void)environment;
    char *path = string_value(member(arguments, "path"));
    long offset = (long)number_value(member(arguments, "offset"), 1);
    long limit = (long)number_value(member(arguments, "limit"), 50);
    char full[1024], line[1024], out[8192] = "";
    aikido_status status;
    FILE *file;
    if (!workspace_path(path, full, sizeof full)) {
        status = reply_failure(reply, "read_file: the path must be relative and stay inside the workspace "
                                      "(no leading '/', no '..'); list_directory shows what is there");
    } else if ((file = fopen(full, "r")) == NULL) {
        snprintf(out, sizeof out, "read_file: no file at \"%s\"; list_directory shows what is there", path);
        status = reply_failure(reply, out);
    } else {
        for (long number = 1; fgets(line, sizeof line, file) != NULL && number < offset + limit; number++)
            if (number >= offset)
                snprintf(out + strlen(out), sizeof out - strlen(out), "%ld: %s", number, line);
        fclose(file);
        status = reply_text(reply, out);
    }
    free(path);
    return status;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static aikido_status list_directory(void *userdata, const char *arguments, size_t arguments_len,
                                    const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments_len, (void)environment;
    char *path = string_value(member(arguments, "path"));
    char full[1024], out[4096] = "", *names[256];
    size_t count = 0;
    DIR *dir = workspace_path(path, full, sizeof full) ? opendir(full) : NULL;
    free(path);
    if (dir == NULL) return reply_failure(reply, "list_directory: no such directory inside the workspace");
    for (struct dirent *entry; (entry = readdir(dir)) != NULL && count < 256;)
        if (entry->d_name[0] != '.') names[count++] = strdup(entry->d_name);
    closedir(dir);
    qsort(names, count, sizeof *names, compare_names);
    for (size_t i = 0; i < count; i++) {
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s\n", names[i]);
        free(names[i]);
    }
    return reply_text(reply, out);
}

/* Units in one table: a dimension and the factor to its base unit. */
static const struct unit { const char *name, *dimension; double to_base; } units[] = {
    {"m", "length", 1.0}, {"km", "length", 1000.0}, {"mi", "length", 1609.344}, {"ft", "length", 0.3048},
    {"kg", "mass", 1.0}, {"lb", "mass", 0.45359237},
};
#define UNIT_COUNT (sizeof units / sizeof *units)

static const struct unit *find_unit(const char *name) {
    for (size_t i = 0; name != NULL && i < UNIT_COUNT; i++)
        if (strcmp(units[i].name, name) == 0) return &units[i];
    return NULL;
}

static aikido_status convert_units(void *userdata, const char *arguments, size_t arguments_len,
                                   const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments_len, (void)environment;
    char *from_name = string_value(member(arguments, "from")), *to_name = string_value(member(arguments, "to"));
    const struct unit *from = find_unit(from_name), *to = find_unit(to_name);
    double value = number_value(member(arguments, "value"), 0);
    char out[256];
    aikido_status status;
    if (from == NULL || to == NULL || strcmp(from->dimension, to->dimension) != 0) {
        snprintf(out, sizeof out, "convert_units: cannot convert \"%s\" to \"%s\"", from_name, to_name);
        status = reply_failure(reply, out);
    } else {
        snprintf(out, sizeof out, "%g %s = %.3f %s", value, from->name, value * from->to_base / to->to_base, to->name);
        status = reply_text(reply, out);
    }
    free(from_name);
    free(to_name);
    return status;
}

/* ---- Registration, with schemas from the helpers ---- */

static void register_tool(aikido_registry *registry, const char *name, const char *description,
                          aikido_handler handler, size_t count, const char *const *names,
                          char *const *schemas, size_t required_count, const char *const *required) {
    char *parameters = NULL, *error = NULL;
    if (aikido_schema_object(names, (const char *const *)schemas, count, required, required_count,
                             &parameters, &error) != AIKIDO_OK ||
        aikido_registry_register(registry, name, description, parameters, handler, NULL, NULL, &error) !=
            AIKIDO_OK) {
        fprintf(stderr, "registering %s: %s\n", name, error);
        exit(1);
    }
    aikido_string_free(parameters);
    for (size_t i = 0; i < count; i++) aikido_string_free(schemas[i]);
}

static void register_tools(aikido_registry *registry) {
    const char *read_names[] = {"path", "offset", "limit"};
    char *read_schemas[] = {aikido_schema_string("Path of the file, relative to the workspace."),
                            aikido_schema_integer("First line to read, counting from 1. Default 1."),
                            aikido_schema_integer("How many lines to read. Default 50.")};
    const char *read_required[] = {"path"};
    register_tool(registry, "read_file", "Read part of a text file in the workspace, with line numbers.",
                  read_file, 3, read_names, read_schemas, 1, read_required);

    const char *list_names[] = {"path"};
    char *list_schemas[] = {aikido_schema_string("Directory, relative to the workspace; \".\" for its root.")};
    register_tool(registry, "list_directory", "List the entries of a directory in the workspace.",
                  list_directory, 1, list_names, list_schemas, 1, list_names);

    const char *unit_names_list[] = {"m", "km", "mi", "ft", "kg", "lb"};
    const char *convert_names[] = {"value", "from", "to"};
    char *convert_schemas[] = {aikido_schema_number("The quantity to convert."),
                               aikido_schema_enum("Unit of the value.", unit_names_list, UNIT_COUNT),
                               aikido_schema_enum("Unit to convert to.", unit_names_list, UNIT_COUNT)};
    register_tool(registry, "convert_units", "Convert a length or a mass between units.",
                  convert_units, 3, convert_names, convert_schemas, 3, convert_names);
}

/* One turn in a provider's format: its "tools", then what respond makes of
 * the recorded reply, which the agent appends to its next request as is. */
static int provider_turn(const aikido_registry *registry, uint32_t dialect, const char *label, const char *path,
                         const aikido_environment *environment) {
    char *tools = NULL, *messages = NULL, *error = NULL;
    char *reply = read_whole_file(path);
    if (reply == NULL) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    if (aikido_registry_definitions_for(registry, dialect, 0, &tools, &error) != AIKIDO_OK ||
        aikido_registry_respond(registry, dialect, reply, strlen(reply), environment, 0, &messages, &error) !=
            AIKIDO_OK) {
        fprintf(stderr, "%s: %s\n", label, error);
        aikido_string_free(tools);
        aikido_string_free(error);
        free(reply);
        return 1;
    }
    printf("\n-- %s: the tools, as the request's \"tools\"\n%s\n", label, tools);
    printf("-- %s: the reply in %s, answered by one aikido_registry_respond; append:\n%s\n", label, path,
           messages);
    aikido_string_free(tools);
    aikido_string_free(messages);
    free(reply);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2 && argc != 4) {
        fprintf(stderr, "usage: %s MODEL_REPLY.json [ANTHROPIC_REPLY.json OPENAI_REPLY.json]\n", argv[0]);
        return 2;
    }
    aikido_registry *registry = aikido_registry_new();
    register_tools(registry);

    char *definitions = NULL;
    aikido_registry_definitions(registry, &definitions, NULL);
    printf("== The tools, as the model receives them (%zu)\n%s\n", aikido_registry_len(registry), definitions);
    aikido_string_free(definitions);

    char *reply = read_whole_file(argv[1]);
    if (reply == NULL) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    /* Calls of one model reply share a turn id. */
    aikido_environment environment = {"demo-session", {0}, NULL};
    aikido_uuid_new_v7(environment.turn_id);

    const char *call = skip_space(member(reply, "tool_calls") + 1);
    printf("\n== The model's reply asks for these calls; each result goes back as a tool message\n");
    for (int index = 1; *call == '{'; index++) {
        const char *function = member(call, "function");
        char *id = string_value(member(call, "id"));
        char *name = string_value(member(function, "name"));
        char *arguments = string_value(member(function, "arguments"));
        aikido_tool_call tool_call = {id, name, arguments, strlen(arguments)};
        char *content = NULL, *error = NULL;
        aikido_status status = aikido_registry_dispatch(registry, &tool_call, &environment, &content, &error);

        printf("\n%d. %s(%s) -> %s\n", index, name, arguments, aikido_status_name(status));
        printf("{\"role\":\"tool\",\"tool_call_id\":");
        print_json_string(id);
        printf(",\"content\":");
        print_json_string(status == AIKIDO_OK ? content : error);
        printf("%s}\n", status == AIKIDO_OK ? "" : ",\"is_error\":true");

        aikido_string_free(content);
        aikido_string_free(error);
        free(id), free(name), free(arguments);
        call = skip_space(skip_value(call));
        call = skip_space(*call == ',' ? call + 1 : call);
    }
    free(reply);

    /* The second turn: the program speaks the provider's format, and the
     * library does the translating, the running (the calls of one reply at
     * once) and the result messages. */
    printf("\n== Second turn, in the providers' own formats (aikido_registry_respond)\n");
    aikido_uuid_new_v7(environment.turn_id);
    int failed = provider_turn(registry, AIKIDO_DIALECT_ANTHROPIC, "Anthropic Messages",
                               argc == 4 ? argv[2] : "anthropic-reply.json", &environment);
    aikido_uuid_new_v7(environment.turn_id);
    failed |= provider_turn(registry, AIKIDO_DIALECT_OPENAI_CHAT, "OpenAI Chat Completions",
                            argc == 4 ? argv[3] : "openai-reply.json", &environment);
    aikido_registry_free(registry);
    return failed;
}
