/* Structured results (docs/C-API.md): directory entries, changes, a shell
 * run's write set and a reply's tool calls as array handles of structs, the
 * same data the JSON forms give; strings borrowed until the array is freed;
 * NULL and out-of-range arguments refused with a message. */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

/* `call` writes its message to last_error. */
#define CHECK_ERROR(call, want_status, want_message)                                                   \
    do {                                                                                               \
        aikido_status status_ = (call);                                                                \
        CHECK_STATUS(status_, want_status);                                                            \
        CHECK_STR(last_error, want_message);                                                           \
        aikido_string_free(last_error);                                                                \
        last_error = NULL;                                                                             \
    } while (0)

static char *last_error;

static void write_text(aikido_storage *storage, const char *path, const char *text) {
    CHECK_STATUS(aikido_storage_write(storage, path, (const uint8_t *)text, strlen(text), NULL), AIKIDO_OK);
}

static void entries(void) {
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    CHECK_STATUS(aikido_storage_mkdir(storage, "/src", false, NULL), AIKIDO_OK);
    write_text(storage, "/a.txt", "a");
    CHECK_STATUS(aikido_storage_symlink(storage, "src", "/link", NULL), AIKIDO_OK);

    aikido_dir_entries *list = NULL;
    CHECK_STATUS(aikido_storage_entries(storage, "/", &list, NULL), AIKIDO_OK);
    CHECK(aikido_dir_entries_len(list) == 3);
    const char *names[] = {"a.txt", "link", "src"};
    const int32_t kinds[] = {AIKIDO_FILE_KIND_FILE, AIKIDO_FILE_KIND_SYMLINK, AIKIDO_FILE_KIND_DIRECTORY};
    for (size_t i = 0; i < 3; i++) {
        aikido_dir_entry entry = {NULL, -1};
        CHECK_STATUS(aikido_dir_entries_get(list, i, &entry, NULL), AIKIDO_OK);
        CHECK_STR(entry.name, names[i]);
        CHECK(entry.kind == kinds[i]);
    }
    aikido_dir_entry entry = {NULL, -1};
    CHECK_ERROR(aikido_dir_entries_get(list, 3, &entry, &last_error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: index 3 is out of range: the array holds 3 items");
    CHECK(entry.name == NULL); /* untouched on failure */
    CHECK_ERROR(aikido_dir_entries_get(list, 0, NULL, &last_error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: item_out is NULL");
    CHECK_ERROR(aikido_dir_entries_get(NULL, 0, &entry, &last_error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: array is NULL");
    CHECK(aikido_dir_entries_len(NULL) == 0);
    aikido_dir_entries_free(list);
    aikido_dir_entries_free(NULL);

    /* An empty folder is an empty array; failures leave the output NULL. */
    CHECK_STATUS(aikido_storage_entries(storage, "/src", &list, NULL), AIKIDO_OK);
    CHECK(list != NULL && aikido_dir_entries_len(list) == 0);
    aikido_dir_entries_free(list);
    CHECK_ERROR(aikido_storage_entries(storage, "/missing", &list, &last_error), AIKIDO_ERR_STORAGE,
                "/missing: No such file or directory");
    CHECK(list == NULL);
    CHECK_ERROR(aikido_storage_entries(NULL, "/", &list, &last_error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: storage is NULL");
    CHECK_ERROR(aikido_storage_entries(storage, NULL, &list, &last_error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: path is NULL");
    CHECK_ERROR(aikido_storage_entries(storage, "/", NULL, &last_error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: the output pointer is NULL");
    aikido_storage_free(storage);
}

static void changes(void) {
    aikido_storage *lower = aikido_storage_memory_new(0, 0);
    write_text(lower, "/keep.txt", "keep");
    write_text(lower, "/gone.txt", "gone");
    aikido_storage *overlay = aikido_storage_overlay_new(lower);
    write_text(overlay, "/keep.txt", "changed");
    write_text(overlay, "/new.txt", "new");
    CHECK_STATUS(aikido_storage_remove(overlay, "/gone.txt", false, NULL), AIKIDO_OK);

    aikido_changes *list = NULL;
    CHECK_STATUS(aikido_storage_changes(overlay, &list, NULL), AIKIDO_OK);
    CHECK(aikido_changes_len(list) == 3);
    const char *paths[] = {"/gone.txt", "/keep.txt", "/new.txt"};
    const int32_t kinds[] = {AIKIDO_CHANGE_DELETED, AIKIDO_CHANGE_MODIFIED, AIKIDO_CHANGE_ADDED};
    for (size_t i = 0; i < 3; i++) {
        aikido_change change = {NULL, -1};
        CHECK_STATUS(aikido_changes_get(list, i, &change, NULL), AIKIDO_OK);
        CHECK_STR(change.path, paths[i]);
        CHECK(change.change == kinds[i]);
    }
    aikido_change change = {NULL, -1};
    CHECK_ERROR(aikido_changes_get(list, SIZE_MAX, &change, &last_error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: index 18446744073709551615 is out of range: the array holds 3 items");
    aikido_changes_free(list);

    /* After a commit, nothing; a dry run records; a plain storage has no diff. */
    CHECK_STATUS(aikido_storage_commit(overlay, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_storage_changes(overlay, &list, NULL), AIKIDO_OK);
    CHECK(aikido_changes_len(list) == 0);
    aikido_changes_free(list);
    aikido_storage *dry_run = aikido_storage_dry_run_new(lower);
    write_text(dry_run, "/planned.txt", "plan");
    CHECK_STATUS(aikido_storage_changes(dry_run, &list, NULL), AIKIDO_OK);
    CHECK(aikido_changes_len(list) == 1);
    CHECK_STATUS(aikido_changes_get(list, 0, &change, NULL), AIKIDO_OK);
    CHECK_STR(change.path, "/planned.txt");
    CHECK(change.change == AIKIDO_CHANGE_ADDED);
    aikido_changes_free(list);
    CHECK_ERROR(aikido_storage_changes(lower, &list, &last_error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: only an overlay or a dry run has a diff");
    CHECK(list == NULL);
    aikido_storage_free(dry_run);
    aikido_storage_free(overlay);
    aikido_storage_free(lower);
}

static void write_set(void) {
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    aikido_shell *shell = aikido_shell_new(storage, NULL);
    aikido_shell_result result;
    const char *script = "mkdir /d; echo > /x; echo > /d/y; echo > '/q\"b'";
    CHECK_STATUS(aikido_shell_run(shell, script, strlen(script), NULL, &result, NULL), AIKIDO_OK);
    CHECK_STR(result.write_set_json, "[\"/d\",\"/d/y\",\"/q\\\"b\",\"/x\"]");
    const char *want[] = {"/d", "/d/y", "/q\"b", "/x"};
    CHECK(aikido_strings_len(result.write_set) == 4);
    for (size_t i = 0; i < 4; i++) {
        const char *path = NULL;
        CHECK_STATUS(aikido_strings_get(result.write_set, i, &path, NULL), AIKIDO_OK);
        CHECK_STR(path, want[i]);
    }
    const char *path = NULL;
    CHECK_ERROR(aikido_strings_get(result.write_set, 4, &path, &last_error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: index 4 is out of range: the array holds 4 items");
    aikido_shell_result_free(&result);
    CHECK(result.write_set == NULL); /* freed with the result */

    /* A run that writes nothing has an empty set, never NULL. */
    CHECK_STATUS(aikido_shell_run(shell, "cat /x", 6, NULL, &result, NULL), AIKIDO_OK);
    CHECK(result.write_set != NULL && aikido_strings_len(result.write_set) == 0);
    aikido_shell_result_free(&result);
    /* A refused run leaves a zeroed result. */
    CHECK_STATUS(aikido_shell_run(shell, NULL, 3, NULL, &result, NULL), AIKIDO_ERR_INVALID_INPUT);
    CHECK(result.write_set == NULL && aikido_strings_len(result.write_set) == 0);
    aikido_shell_free(shell);
    aikido_storage_free(storage);
}

static void tool_calls(void) {
    const char *reply = "{\"content\":[{\"type\":\"text\",\"text\":\"hi\"},"
                        "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"add\",\"input\":{\"b\":2,\"a\":1}},"
                        "{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"echo\",\"input\":{}}]}";
    aikido_tool_calls *calls = NULL;
    CHECK_STATUS(aikido_tool_calls_read(AIKIDO_DIALECT_ANTHROPIC, reply, strlen(reply), &calls, NULL), AIKIDO_OK);
    CHECK(aikido_tool_calls_len(calls) == 2);
    aikido_tool_call call = {NULL, NULL, NULL, 0};
    CHECK_STATUS(aikido_tool_calls_get(calls, 0, &call, NULL), AIKIDO_OK);
    CHECK_STR(call.id, "toolu_1");
    CHECK_STR(call.name, "add");
    CHECK_STR(call.arguments, "{\"b\":2,\"a\":1}"); /* key order and spelling kept */
    CHECK(call.arguments_len == strlen("{\"b\":2,\"a\":1}"));

    /* Each call goes straight to dispatch. */
    aikido_registry *registry = aikido_registry_new();
    CHECK_STATUS(aikido_registry_register(registry, "echo", "Echo.", NULL, check_echo_handler, NULL, NULL, NULL),
                 AIKIDO_OK);
    CHECK_STATUS(aikido_tool_calls_get(calls, 1, &call, NULL), AIKIDO_OK);
    char *content = NULL;
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, NULL), AIKIDO_OK);
    CHECK_STR(content, "{}");
    aikido_string_free(content);
    aikido_registry_free(registry);
    CHECK_ERROR(aikido_tool_calls_get(calls, 2, &call, &last_error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: index 2 is out of range: the array holds 2 items");
    aikido_tool_calls_free(calls);

    /* No calls: an empty array. A reply that cannot be read: NULL and the
     * same message as aikido_tool_calls_parse. */
    CHECK_STATUS(aikido_tool_calls_read(AIKIDO_DIALECT_ANTHROPIC, "{\"content\":[]}", 14, &calls, NULL), AIKIDO_OK);
    CHECK(calls != NULL && aikido_tool_calls_len(calls) == 0);
    aikido_tool_calls_free(calls);
    char *json = NULL, *parse_error = NULL;
    CHECK_STATUS(aikido_tool_calls_parse(AIKIDO_DIALECT_ANTHROPIC, "[\xff]", 3, &json, &parse_error),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(aikido_tool_calls_read(AIKIDO_DIALECT_ANTHROPIC, "[\xff]", 3, &calls, &last_error),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK(calls == NULL);
    CHECK_STR(last_error, parse_error);
    aikido_string_free(last_error);
    aikido_string_free(parse_error);
    last_error = NULL;
    CHECK_ERROR(aikido_tool_calls_read(99, "{}", 2, &calls, &last_error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: unknown dialect 99 (the dialects are 0 to 5)");
    CHECK_ERROR(aikido_tool_calls_read(AIKIDO_DIALECT_GEMINI, "{}", 2, NULL, &last_error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: the output pointer is NULL");
}

int main(void) {
    entries();
    changes();
    write_set();
    tool_calls();
    return check_summary("structured");
}
