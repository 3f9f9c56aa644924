/* Misuse of every exported function: each pointer argument NULL, text that
 * is not UTF-8, lengths that disagree with the NUL terminator. Each call must
 * return its documented status, write nothing it should not, and leak
 * nothing (the C runner also runs this under ASan and Valgrind).
 * Exits 0 when every check holds; otherwise prints each failed check. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aikido.h"

static int failures;

#define CHECK(condition)                                                              \
    do {                                                                              \
        if (!(condition)) {                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
            failures++;                                                               \
        }                                                                             \
    } while (0)

static const char NOT_UTF8[] = "caf\xc3\x28";

/* Checks a status and that a refusal came with a message; frees it. */
static void expect(aikido_status status, aikido_status expected, char *error, int line) {
    if (status != expected) {
        fprintf(stderr, "misuse.c:%d: got %s, expected %s (%s)\n", line, aikido_status_name(status),
                aikido_status_name(expected), error ? error : "no message");
        failures++;
    } else if (expected != AIKIDO_OK && (error == NULL || error[0] == '\0' ||
                                         /* storage errors read as the file system's own */
                                         (expected != AIKIDO_ERR_STORAGE && strncmp(error, "aikido/tools: ", 14) != 0))) {
        fprintf(stderr, "misuse.c:%d: a refusal without a proper message: %s\n", line, error ? error : "NULL");
        failures++;
    }
    aikido_string_free(error);
}
/* Makes the call first, then checks its status and the message it wrote to
 * the `error` variable in scope. */
#define EXPECT(call, expected)                               \
    do {                                                     \
        aikido_status status_ = (call);                      \
        expect(status_, (expected), error, __LINE__);        \
        error = NULL;                                        \
    } while (0)

static int frees;
static void count_free(void *userdata) {
    (void)userdata;
    frees++;
}

/* Misuses the reply from inside a handler; the reply must come out holding
 * exactly "kept". */
static aikido_status misusing_handler(void *userdata, const char *arguments, size_t arguments_len,
                                      const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata;
    (void)environment;
    CHECK(arguments != NULL && arguments[arguments_len] == '\0');
    CHECK(aikido_reply_set_content(NULL, "x", 1) == AIKIDO_ERR_INVALID_INPUT);
    CHECK(aikido_reply_set_error(NULL, "x", 1) == AIKIDO_ERR_INVALID_INPUT);
    CHECK(aikido_reply_set_content(reply, "kept and more", 4) == AIKIDO_OK); /* shorter than the string */
    CHECK(aikido_reply_set_content(reply, NULL, 3) == AIKIDO_ERR_INVALID_INPUT);
    CHECK(aikido_reply_set_content(reply, NOT_UTF8, strlen(NOT_UTF8)) == AIKIDO_ERR_INVALID_INPUT);
    CHECK(aikido_reply_set_content(reply, "ab\0cd", 5) == AIKIDO_ERR_INVALID_INPUT); /* a NUL inside */
    CHECK(aikido_reply_set_error(reply, "ab", 3) == AIKIDO_ERR_INVALID_INPUT);         /* its own NUL */
    CHECK(aikido_reply_set_error(reply, NULL, 0) == AIKIDO_OK);                        /* (NULL, 0) is "" */
    return AIKIDO_OK;
}

static aikido_status silent_handler(void *userdata, const char *arguments, size_t arguments_len,
                                    const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata;
    (void)arguments;
    (void)arguments_len;
    (void)environment;
    (void)reply;
    return AIKIDO_OK;
}

static const char *REQUIRED = "{\"type\":\"object\",\"required\":[\"path\"]}";

static void registry_misuse(void) {
    aikido_registry *registry = aikido_registry_new();
    char *error = NULL;
    CHECK(registry != NULL);
    aikido_registry_free(NULL);
    CHECK(aikido_registry_len(NULL) == 0);

    /* register: every pointer NULL in turn, bad text; userdata stays ours. */
    EXPECT(aikido_registry_register(NULL, "t", NULL, NULL, silent_handler, &frees, count_free, &error),
           AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_registry_register(registry, NULL, NULL, NULL, silent_handler, &frees, count_free, &error),
           AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_registry_register(registry, "t", NULL, NULL, NULL, &frees, count_free, &error),
           AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_registry_register(registry, "", NULL, NULL, silent_handler, &frees, count_free, &error),
           AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_registry_register(registry, NOT_UTF8, NULL, NULL, silent_handler, &frees, count_free, &error),
           AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_registry_register(registry, "t", NOT_UTF8, NULL, silent_handler, &frees, count_free, &error),
           AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_registry_register(registry, "t", NULL, NOT_UTF8, silent_handler, &frees, count_free, &error),
           AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_registry_register(registry, "t", NULL, "{\"required\":", silent_handler, &frees, count_free, &error),
           AIKIDO_ERR_INVALID_INPUT);
    CHECK(aikido_registry_register(registry, "t", NULL, "{} {}", silent_handler, &frees, count_free, NULL) ==
          AIKIDO_ERR_INVALID_INPUT);
    CHECK(frees == 0);
    CHECK(aikido_registry_len(registry) == 0);

    /* NULL description, NULL userdata_free and NULL error_out are allowed. */
    CHECK(aikido_registry_register(registry, "read", NULL, REQUIRED, misusing_handler, NULL, NULL, NULL) == AIKIDO_OK);
    CHECK(aikido_registry_register(registry, "quiet", "", "", silent_handler, &frees, count_free, NULL) == AIKIDO_OK);
    EXPECT(aikido_registry_register(registry, "read", NULL, NULL, silent_handler, &frees, count_free, &error),
           AIKIDO_ERR_DUPLICATE_TOOL);
    CHECK(aikido_registry_len(registry) == 2);

    /* definitions: NULL registry, NULL outputs. */
    {
        char *json = (char *)1;
        EXPECT(aikido_registry_definitions(NULL, &json, &error), AIKIDO_ERR_INVALID_INPUT);
        CHECK(json == NULL); /* cleared on entry */
        CHECK(aikido_registry_definitions(registry, NULL, NULL) == AIKIDO_OK);
        CHECK(aikido_registry_definitions(registry, &json, NULL) == AIKIDO_OK);
        CHECK(json != NULL && strcmp(json, "[{\"name\":\"read\",\"parameters\":{\"type\":\"object\",\"required\":"
                                           "[\"path\"]}},{\"name\":\"quiet\"}]") == 0);
        aikido_string_free(json);
    }

    /* dispatch: NULL pointers, bad text, lengths that disagree with NULs. */
    {
        const char *arguments = "{\"path\":\"a\"}";
        aikido_tool_call call = {NULL, "read", NULL, 0};
        aikido_environment environment = {NULL, {0}, NULL};
        char *content = (char *)1;
        EXPECT(aikido_registry_dispatch(NULL, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_INPUT);
        CHECK(content == NULL);
        EXPECT(aikido_registry_dispatch(registry, NULL, NULL, &content, &error), AIKIDO_ERR_INVALID_INPUT);
        call.name = NULL;
        EXPECT(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_INPUT);
        call.name = NOT_UTF8;
        EXPECT(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_INPUT);
        call.name = "nobody";
        EXPECT(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_UNKNOWN_TOOL);
        call.name = "read";
        call.id = NOT_UTF8;
        EXPECT(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_INPUT);
        call.id = "call-1";
        call.arguments_len = 3; /* NULL arguments with a length */
        EXPECT(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_INPUT);
        call.arguments_len = 0; /* (NULL, 0) is {}: the required path is missing */
        EXPECT(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_ARGUMENTS);
        call.arguments = arguments;
        call.arguments_len = 5; /* shorter than the string: a truncated object */
        EXPECT(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_ARGUMENTS);
        call.arguments_len = strlen(arguments) + 1; /* longer: the NUL is a byte after the object */
        EXPECT(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_ARGUMENTS);
        call.arguments = "{\"path\":\"a\0b\"}"; /* a NUL inside a string */
        call.arguments_len = 14;
        EXPECT(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_ARGUMENTS);
        call.arguments = "{\"path\":\"caf\xc3\x28\"}";
        call.arguments_len = strlen(call.arguments);
        EXPECT(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_ARGUMENTS);
        call.arguments = arguments;
        call.arguments_len = strlen(arguments);
        environment.session_id = NOT_UTF8;
        EXPECT(aikido_registry_dispatch(registry, &call, &environment, &content, &error), AIKIDO_ERR_INVALID_INPUT);
        environment.session_id = NULL; /* NULL session, NULL cancel: allowed */
        CHECK(aikido_registry_dispatch(registry, &call, &environment, &content, &error) == AIKIDO_OK);
        CHECK(error == NULL && content != NULL && strcmp(content, "kept") == 0);
        aikido_string_free(content);
        /* Outputs the caller does not want. */
        CHECK(aikido_registry_dispatch(registry, &call, NULL, NULL, NULL) == AIKIDO_OK);
        call.name = "quiet"; /* a handler that set no content gives "" */
        CHECK(aikido_registry_dispatch(registry, &call, NULL, &content, NULL) == AIKIDO_OK);
        CHECK(content != NULL && content[0] == '\0');
        aikido_string_free(content);
    }

    /* unregister: NULL pointers, bad text, unknown name. */
    EXPECT(aikido_registry_unregister(NULL, "read", &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_registry_unregister(registry, NULL, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_registry_unregister(registry, NOT_UTF8, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_registry_unregister(registry, "nobody", &error), AIKIDO_ERR_UNKNOWN_TOOL);
    CHECK(aikido_registry_unregister(registry, "read", NULL) == AIKIDO_OK);
    CHECK(frees == 0);
    aikido_registry_free(registry);
    CHECK(frees == 1); /* "quiet" freed its userdata with the registry, once */
}

static void schema_misuse(void) {
    const char *values[] = {"a", NULL};
    const char *bad_values[] = {"a", NOT_UTF8};
    const char *names[] = {"path"};
    const char *schemas[] = {"{\"type\":\"string\"}"};
    const char *not_json[] = {"{\"type\":"};
    const char *null_entry[] = {NULL};
    const char *bad_entry[] = {NOT_UTF8};
    char *json = (char *)1;
    char *error = NULL;
    char *text;

    /* A NULL description is left out; one that is not UTF-8 gives NULL. */
    text = aikido_schema_string(NULL);
    CHECK(text != NULL && strcmp(text, "{\"type\":\"string\"}") == 0);
    aikido_string_free(text);
    CHECK(aikido_schema_string(NOT_UTF8) == NULL);
    CHECK(aikido_schema_integer(NOT_UTF8) == NULL);
    CHECK(aikido_schema_number(NOT_UTF8) == NULL);
    CHECK(aikido_schema_boolean(NOT_UTF8) == NULL);
    text = aikido_schema_boolean(NULL);
    CHECK(text != NULL && strcmp(text, "{\"type\":\"boolean\"}") == 0);
    aikido_string_free(text);

    CHECK(aikido_schema_enum(NULL, NULL, 2) == NULL);
    CHECK(aikido_schema_enum(NULL, values, 2) == NULL);
    CHECK(aikido_schema_enum(NULL, bad_values, 2) == NULL);
    CHECK(aikido_schema_enum(NOT_UTF8, values, 1) == NULL);
    text = aikido_schema_enum(NULL, NULL, 0);
    CHECK(text != NULL && strcmp(text, "{\"enum\":[],\"type\":\"string\"}") == 0);
    aikido_string_free(text);

    CHECK(aikido_schema_array(NULL, "d") == NULL);
    CHECK(aikido_schema_array("{\"type\":", "d") == NULL);
    CHECK(aikido_schema_array(NOT_UTF8, "d") == NULL);
    CHECK(aikido_schema_array("{}", NOT_UTF8) == NULL);
    text = aikido_schema_array("{}", NULL);
    CHECK(text != NULL && strcmp(text, "{\"items\":{},\"type\":\"array\"}") == 0);
    aikido_string_free(text);

    EXPECT(aikido_schema_object(NULL, schemas, 1, NULL, 0, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK(json == NULL);
    EXPECT(aikido_schema_object(names, NULL, 1, NULL, 0, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_schema_object(names, schemas, 1, NULL, 1, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_schema_object(null_entry, schemas, 1, NULL, 0, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_schema_object(names, null_entry, 1, NULL, 0, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_schema_object(names, schemas, 1, null_entry, 1, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_schema_object(bad_entry, schemas, 1, NULL, 0, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_schema_object(names, bad_entry, 1, NULL, 0, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_schema_object(names, schemas, 1, bad_entry, 1, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_schema_object(names, not_json, 1, NULL, 0, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK(json == NULL);
    CHECK(aikido_schema_object(names, schemas, 1, names, 1, NULL, NULL) == AIKIDO_OK);
    CHECK(aikido_schema_object(NULL, NULL, 0, NULL, 0, &json, NULL) == AIKIDO_OK);
    CHECK(json != NULL && strcmp(json, "{\"type\":\"object\"}") == 0);
    aikido_string_free(json);
}

static void uuid_and_cancel_misuse(void) {
    uint8_t id[16];
    uint8_t untouched[16];
    char text[37];
    aikido_cancel *cancel;

    memset(id, 0xAB, sizeof id);
    memcpy(untouched, id, sizeof id);
    aikido_uuid_new_v4(NULL);
    aikido_uuid_new_v7(NULL);
    CHECK(aikido_uuid_parse(NULL, id) == AIKIDO_ERR_INVALID_INPUT);
    CHECK(aikido_uuid_parse("67e55044-10b1-426f-9247-bb680e5fe0c8", NULL) == AIKIDO_ERR_INVALID_INPUT);
    CHECK(aikido_uuid_parse(NOT_UTF8, id) == AIKIDO_ERR_INVALID_INPUT);
    CHECK(aikido_uuid_parse("67e55044-10b1-426f-9247-bb680e5fe0c", id) == AIKIDO_ERR_INVALID_INPUT);
    CHECK(memcmp(id, untouched, sizeof id) == 0); /* left as it was */

    memset(text, 'x', sizeof text);
    aikido_uuid_format(NULL, text);
    CHECK(text[0] == 'x' && text[36] == 'x');
    aikido_uuid_format(id, NULL);
    aikido_uuid_format(id, text);
    CHECK(strcmp(text, "abababab-abab-abab-abab-abababababab") == 0);

    aikido_cancel_fire(NULL);
    CHECK(!aikido_cancel_is_fired(NULL));
    aikido_cancel_free(NULL);
    cancel = aikido_cancel_new();
    CHECK(cancel != NULL && !aikido_cancel_is_fired(cancel));
    aikido_cancel_fire(cancel);
    aikido_cancel_fire(cancel);
    CHECK(aikido_cancel_is_fired(cancel));
    aikido_cancel_free(cancel);
}

static void status_misuse(void) {
    CHECK(strcmp(aikido_status_name(-1), "AIKIDO_UNKNOWN_STATUS") == 0);
    CHECK(strcmp(aikido_status_name(AIKIDO_ERR_STORAGE + 1), "AIKIDO_UNKNOWN_STATUS") == 0);
    CHECK(strcmp(aikido_status_name(0x7fffffff), "AIKIDO_UNKNOWN_STATUS") == 0);
    CHECK(strcmp(aikido_status_name(AIKIDO_ERR_CANCELLED), "AIKIDO_ERR_CANCELLED") == 0);
    CHECK(strcmp(aikido_version(), AIKIDO_VERSION) == 0);
    aikido_string_free(NULL);
}

static void storage_misuse(void) {
    aikido_storage *memory = aikido_storage_memory_new(0, 0);
    aikido_storage *made = (aikido_storage *)1;
    aikido_registry *registry = aikido_registry_new();
    aikido_file_stat stat;
    uint8_t *data = (uint8_t *)1;
    size_t len = 7;
    char *json = (char *)1;
    char *error = NULL;

    CHECK(memory != NULL);
    aikido_storage_free(NULL);
    aikido_bytes_free(NULL, 0);
    CHECK(aikido_storage_read_only(NULL) == NULL);
    CHECK(aikido_storage_overlay_new(NULL) == NULL);
    CHECK(aikido_storage_dry_run_new(NULL) == NULL);
    CHECK(aikido_storage_mount(NULL, "/m", memory) == NULL);
    CHECK(aikido_storage_mount(memory, NULL, memory) == NULL);
    CHECK(aikido_storage_mount(memory, "/m", NULL) == NULL);
    CHECK(aikido_storage_mount(memory, NOT_UTF8, memory) == NULL);
    EXPECT(aikido_storage_host_new(NULL, false, &made, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK(made == NULL);
    EXPECT(aikido_storage_host_new(NOT_UTF8, false, &made, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_policy_new(NULL, NULL, 0, &made, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_policy_new(memory, NULL, 1, &made, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK(made == NULL);

    /* Each function on a NULL storage, a NULL path, a path that is not UTF-8. */
    EXPECT(aikido_storage_write(NULL, "/a", (const uint8_t *)"x", 1, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_write(memory, NULL, (const uint8_t *)"x", 1, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_write(memory, NOT_UTF8, (const uint8_t *)"x", 1, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_write(memory, "/a", NULL, 1, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_append(NULL, "/a", (const uint8_t *)"x", 1, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_append(memory, NULL, (const uint8_t *)"x", 1, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_append(memory, "/a", NULL, 1, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_read(NULL, "/a", &data, &len, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_read(memory, NULL, &data, &len, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_read(memory, NOT_UTF8, &data, &len, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_mkdir(NULL, "/d", true, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_mkdir(memory, NULL, true, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_remove(NULL, "/d", true, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_remove(memory, NULL, true, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_rename(NULL, "/a", "/b", &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_rename(memory, NULL, "/b", &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_rename(memory, "/a", NULL, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_symlink(NULL, "/a", "/l", &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_symlink(memory, NULL, "/l", &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_symlink(memory, "/a", NULL, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_readlink(NULL, "/l", &json, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_readlink(memory, NULL, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_stat(NULL, "/", &stat, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_stat(memory, NULL, &stat, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_list(NULL, "/", &json, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_list(memory, NULL, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_list(memory, NOT_UTF8, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_diff(NULL, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_diff(memory, &json, &error), AIKIDO_ERR_INVALID_INPUT); /* not an overlay */
    EXPECT(aikido_storage_commit(NULL, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_commit(memory, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_discard(NULL, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_discard(memory, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_registry_register_file_tools(NULL, memory, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_registry_register_file_tools(registry, NULL, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK(json == NULL);
    CHECK(aikido_registry_len(registry) == 0);

    /* (NULL, 0) data is an empty file; outputs not wanted may be NULL. */
    CHECK(aikido_storage_write(memory, "/empty", NULL, 0, NULL) == AIKIDO_OK);
    CHECK(aikido_storage_read(memory, "/empty", &data, &len, NULL) == AIKIDO_OK);
    CHECK(len == 0);
    aikido_bytes_free(data, len);
    /* The bytes and their length come as a pair: both outputs are required. */
    EXPECT(aikido_storage_read(memory, "/empty", NULL, &len, &error), AIKIDO_ERR_INVALID_INPUT);
    EXPECT(aikido_storage_read(memory, "/empty", &data, NULL, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK(aikido_storage_list(memory, "/", NULL, NULL) == AIKIDO_OK);
    EXPECT(aikido_storage_read(memory, "/missing", &data, &len, &error), AIKIDO_ERR_STORAGE);

    aikido_registry_free(registry);
    aikido_storage_free(memory);
}

int main(void) {
    registry_misuse();
    storage_misuse();
    schema_misuse();
    uuid_and_cancel_misuse();
    status_misuse();
    if (failures) {
        fprintf(stderr, "misuse: %d checks failed\n", failures);
        return 1;
    }
    printf("misuse: every misuse returned its documented status\n");
    return 0;
}
