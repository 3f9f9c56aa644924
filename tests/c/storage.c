/* The virtual file storage from C: each storage kind, composition, the
 * overlay's diff/commit/discard, the dry run's write set, policy, traversal
 * out of a host folder, the file tools, and bad input. */

#define _POSIX_C_SOURCE 200809L /* mkdtemp, symlink */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

/* The file's content as a NUL-terminated copy, or NULL with the error. */
static char *read_text(const aikido_storage *storage, const char *path, aikido_status *status) {
    uint8_t *data = NULL;
    size_t len = 0;
    char *error = NULL;
    *status = aikido_storage_read(storage, path, &data, &len, &error);
    aikido_string_free(error);
    if (*status != AIKIDO_OK) return NULL;
    char *text = malloc(len + 1);
    memcpy(text, data, len);
    text[len] = '\0';
    aikido_bytes_free(data, len);
    return text;
}

static void check_file(const aikido_storage *storage, const char *path, const char *want) {
    aikido_status status;
    char *text = read_text(storage, path, &status);
    CHECK_STATUS(status, AIKIDO_OK);
    CHECK_STR(text, want);
    free(text);
}

static void check_error(aikido_status status, char *error, aikido_status want_status, const char *want_text) {
    CHECK_STATUS(status, want_status);
    CHECK_STR(error, want_text);
    aikido_string_free(error);
}

/* The call runs first, then its status and the `error` it wrote are checked
 * (as function arguments, their order would be unspecified). */
#define CHECK_ERROR(call, want_status, want_text)                \
    do {                                                         \
        aikido_status got_ = (call);                             \
        check_error(got_, error, (want_status), (want_text));     \
        error = NULL;                                            \
    } while (0)

static void write_text(const aikido_storage *storage, const char *path, const char *text) {
    CHECK_STATUS(aikido_storage_write(storage, path, (const uint8_t *)text, strlen(text), NULL), AIKIDO_OK);
}

static void check_json(aikido_status status, char *json, const char *want) {
    CHECK_STATUS(status, AIKIDO_OK);
    CHECK_STR(json, want);
    aikido_string_free(json);
}

/* As CHECK_ERROR, for a call that writes `json`. */
#define CHECK_JSON(call, want)                \
    do {                                      \
        aikido_status got_ = (call);          \
        check_json(got_, json, (want));       \
        json = NULL;                          \
    } while (0)

static void memory_storage(void) {
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    char *error = NULL, *json = NULL;
    CHECK_STATUS(aikido_storage_mkdir(storage, "/a/b", true, NULL), AIKIDO_OK);
    write_text(storage, "/a/b/one.txt", "one");
    CHECK_STATUS(aikido_storage_append(storage, "a/b/one.txt", (const uint8_t *)" two", 4, NULL), AIKIDO_OK);
    check_file(storage, "/a/./b/../b/one.txt", "one two");

    /* Binary content with NUL bytes round-trips. */
    const uint8_t binary[] = {0, 1, 2, 0, 255};
    CHECK_STATUS(aikido_storage_write(storage, "/bin", binary, sizeof binary, NULL), AIKIDO_OK);
    uint8_t *data = NULL;
    size_t len = 0;
    CHECK_STATUS(aikido_storage_read(storage, "/bin", &data, &len, NULL), AIKIDO_OK);
    CHECK(len == sizeof binary && memcmp(data, binary, len) == 0);
    aikido_bytes_free(data, len);

    aikido_file_stat stat = {0};
    CHECK_STATUS(aikido_storage_stat(storage, "/a/b/one.txt", &stat, NULL), AIKIDO_OK);
    CHECK(stat.kind == AIKIDO_FILE_KIND_FILE && stat.size == 7 && stat.mode == 0644 && stat.modified_unix_ms > 0);
    CHECK_STATUS(aikido_storage_symlink(storage, "a/b", "/link", NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_storage_stat(storage, "/link", &stat, NULL), AIKIDO_OK);
    CHECK(stat.kind == AIKIDO_FILE_KIND_DIRECTORY);
    /* lstat reports the link itself, and follows links before the last name. */
    CHECK_STATUS(aikido_storage_lstat(storage, "/link", &stat, NULL), AIKIDO_OK);
    CHECK(stat.kind == AIKIDO_FILE_KIND_SYMLINK);
    CHECK_STATUS(aikido_storage_lstat(storage, "/link/one.txt", &stat, NULL), AIKIDO_OK);
    CHECK(stat.kind == AIKIDO_FILE_KIND_FILE && stat.size == 7);
    CHECK_STATUS(aikido_storage_lstat(storage, "/nothing", &stat, NULL), AIKIDO_ERR_STORAGE);
    CHECK_ERROR(aikido_storage_lstat(storage, "/link", NULL, &error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: stat_out is NULL");
    CHECK_STATUS(aikido_storage_readlink(storage, "/link", &json, NULL), AIKIDO_OK);
    CHECK_STR(json, "a/b");
    aikido_string_free(json);
    check_file(storage, "/link/one.txt", "one two");

    CHECK_STATUS(aikido_storage_list(storage, "/", &json, NULL), AIKIDO_OK);
    check_json(AIKIDO_OK, json,
               "[{\"kind\":\"directory\",\"name\":\"a\"},{\"kind\":\"file\",\"name\":\"bin\"},"
               "{\"kind\":\"symlink\",\"name\":\"link\"}]");

    CHECK_ERROR(aikido_storage_read(storage, "/missing", &data, &len, &error), AIKIDO_ERR_STORAGE,
                "/missing: No such file or directory");
    CHECK(data == NULL && len == 0);
    /* Errors name the whole path asked for, as a shell does. */
    CHECK_ERROR(aikido_storage_read(storage, "/no/such/file", &data, &len, &error), AIKIDO_ERR_STORAGE,
                "/no/such/file: No such file or directory");
    CHECK_ERROR(aikido_storage_remove(storage, "/a", false, &error), AIKIDO_ERR_STORAGE,
                "/a: Directory not empty");
    CHECK_ERROR(aikido_storage_rename(storage, "/a", "/a/b/inside", &error), AIKIDO_ERR_STORAGE,
                "/a/b/inside: Invalid argument");
    CHECK_STATUS(aikido_storage_rename(storage, "/a", "/z", NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_storage_remove(storage, "/z", true, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_storage_stat(storage, "/z", &stat, NULL), AIKIDO_ERR_STORAGE);
    aikido_storage_free(storage);

    /* Limits refuse growth and change nothing. */
    storage = aikido_storage_memory_new(10, 6);
    write_text(storage, "/a", "123456");
    CHECK_ERROR(aikido_storage_write(storage, "/b", (const uint8_t *)"1234567", 7, &error),
                AIKIDO_ERR_STORAGE, "/b: File too large (the limit is 6 bytes)");
    write_text(storage, "/b", "1234");
    CHECK_ERROR(aikido_storage_append(storage, "/b", (const uint8_t *)"5", 1, &error), AIKIDO_ERR_STORAGE,
                "/b: File too large (the limit is 10 bytes)");
    check_file(storage, "/b", "1234");
    aikido_storage_free(storage);
}

static void overlay_dry_run_and_read_only(void) {
    aikido_storage *lower = aikido_storage_memory_new(0, 0);
    char *json = NULL, *error = NULL;
    write_text(lower, "/keep.txt", "keep");
    write_text(lower, "/gone.txt", "gone");
    aikido_storage *overlay = aikido_storage_overlay_new(lower);
    write_text(overlay, "/keep.txt", "changed");
    write_text(overlay, "/new.txt", "new");
    CHECK_STATUS(aikido_storage_remove(overlay, "/gone.txt", false, NULL), AIKIDO_OK);
    check_file(lower, "/keep.txt", "keep");
    check_file(lower, "/gone.txt", "gone");
    CHECK_JSON(aikido_storage_diff(overlay, &json, NULL),
               "[{\"change\":\"deleted\",\"path\":\"/gone.txt\"},{\"change\":\"modified\",\"path\":\"/keep.txt\"},"
               "{\"change\":\"added\",\"path\":\"/new.txt\"}]");
    CHECK_STATUS(aikido_storage_commit(overlay, NULL), AIKIDO_OK);
    check_file(lower, "/keep.txt", "changed");
    check_file(lower, "/new.txt", "new");
    CHECK_JSON(aikido_storage_diff(overlay, &json, NULL), "[]");
    write_text(overlay, "/keep.txt", "again");
    CHECK_STATUS(aikido_storage_discard(overlay, NULL), AIKIDO_OK);
    check_file(overlay, "/keep.txt", "changed");

    aikido_storage *dry_run = aikido_storage_dry_run_new(lower);
    write_text(dry_run, "/planned.txt", "plan");
    CHECK_JSON(aikido_storage_diff(dry_run, &json, NULL), "[{\"change\":\"added\",\"path\":\"/planned.txt\"}]");
    CHECK_ERROR(aikido_storage_commit(dry_run, &error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: only an overlay can commit");
    CHECK_ERROR(aikido_storage_diff(lower, &json, &error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: only an overlay or a dry run has a diff");
    CHECK(json == NULL);

    aikido_storage *read_only = aikido_storage_read_only(lower);
    check_file(read_only, "/keep.txt", "changed");
    CHECK_ERROR(aikido_storage_write(read_only, "/keep.txt", (const uint8_t *)"x", 1, &error),
                AIKIDO_ERR_STORAGE, "/keep.txt: Read-only file system");

    /* Composed storages share what they wrap: the lower may go first. */
    aikido_storage_free(lower);
    check_file(read_only, "/new.txt", "new");
    check_file(dry_run, "/planned.txt", "plan");
    aikido_storage_free(read_only);
    aikido_storage_free(dry_run);
    aikido_storage_free(overlay);
}

static void mounts_and_policy(void) {
    uint8_t *data_out_unused = NULL;
    size_t len_unused = 0;
    aikido_storage *root = aikido_storage_memory_new(0, 0);
    aikido_storage *data = aikido_storage_memory_new(0, 0);
    char *error = NULL, *json = NULL;
    write_text(root, "/top.txt", "top");
    write_text(data, "/inside.txt", "inside");
    aikido_storage *mounted = aikido_storage_mount(root, "/mnt/data", data);
    check_file(mounted, "/mnt/data/inside.txt", "inside");
    CHECK_JSON(aikido_storage_list(mounted, "/", &json, NULL),
               "[{\"kind\":\"directory\",\"name\":\"mnt\"},{\"kind\":\"file\",\"name\":\"top.txt\"}]");
    CHECK_ERROR(aikido_storage_rename(mounted, "/top.txt", "/mnt/data/top.txt", &error), AIKIDO_ERR_STORAGE,
                "/mnt/data/top.txt: Invalid cross-device link");
    CHECK(aikido_storage_mount(NULL, "/x", data) == NULL);
    CHECK(aikido_storage_mount(root, NULL, data) == NULL);

    aikido_path_rule rules[] = {
        {AIKIDO_ACCESS_READ, true, "/mnt/**"},
        {AIKIDO_ACCESS_WRITE, false, "/**"},
    };
    aikido_storage *guarded = NULL;
    CHECK_STATUS(aikido_storage_policy_new(mounted, rules, 2, &guarded, NULL), AIKIDO_OK);
    check_file(guarded, "/mnt/data/inside.txt", "inside");
    aikido_status status;
    CHECK(read_text(guarded, "/top.txt", &status) == NULL);
    CHECK_STATUS(status, AIKIDO_ERR_STORAGE);
    CHECK_ERROR(aikido_storage_write(guarded, "/mnt/data/x", (const uint8_t *)"x", 1, &error),
                AIKIDO_ERR_STORAGE, "/mnt/data/x: Permission denied");
    aikido_path_rule bad[] = {{7, true, "/"}};
    aikido_storage *refused = (aikido_storage *)1;
    CHECK_ERROR(aikido_storage_policy_new(mounted, bad, 1, &refused, &error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: rules[0].access is 7, not an AIKIDO_ACCESS_* value");
    CHECK(refused == NULL);

    /* A rule without a slash matches a name at any depth, as in a .gitignore. */
    aikido_path_rule env_rules[] = {{AIKIDO_ACCESS_READ, false, "*.env"}};
    aikido_storage *env = NULL;
    CHECK_STATUS(aikido_storage_policy_new(mounted, env_rules, 1, &env, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_storage_mkdir(env, "/mnt/data/app", true, NULL), AIKIDO_OK);
    write_text(env, "/mnt/data/app/prod.env", "TOKEN=1");
    CHECK_ERROR(aikido_storage_read(env, "/mnt/data/app/prod.env", &data_out_unused, &len_unused, &error),
                AIKIDO_ERR_STORAGE, "/mnt/data/app/prod.env: Permission denied");
    aikido_storage_free(env);
    aikido_storage_free(guarded);
    aikido_storage_free(mounted);
    aikido_storage_free(data);
    aikido_storage_free(root);
}

static void host_folder_cannot_be_escaped(void) {
    char scratch[] = "/tmp/aikido-c-storage-XXXXXX";
    char root_path[128], outside[128], secret[160], link[160];
    CHECK(mkdtemp(scratch) != NULL);
    snprintf(root_path, sizeof root_path, "%s/root", scratch);
    snprintf(outside, sizeof outside, "%s/outside", scratch);
    snprintf(secret, sizeof secret, "%s/secret", outside);
    snprintf(link, sizeof link, "%s/escape", root_path);
    CHECK(mkdir(root_path, 0755) == 0 && mkdir(outside, 0755) == 0);
    FILE *file = fopen(secret, "w");
    fputs("top secret", file);
    fclose(file);
    CHECK(symlink(outside, link) == 0); /* planted inside, pointing out */

    aikido_storage *host = NULL;
    char *error = NULL;
    CHECK_STATUS(aikido_storage_host_new(root_path, false, &host, NULL), AIKIDO_OK);
    aikido_status status;
    CHECK(read_text(host, "/escape/secret", &status) == NULL);
    CHECK_STATUS(status, AIKIDO_ERR_STORAGE);
    CHECK(read_text(host, "/../outside/secret", &status) == NULL);
    CHECK_STATUS(aikido_storage_write(host, "/escape/secret", (const uint8_t *)"pwned", 5, NULL), AIKIDO_ERR_STORAGE);
    write_text(host, "/inside.txt", "fine");
    check_file(host, "/inside.txt", "fine");
    /* Links made through the storage must stay inside, for host programs too. */
    CHECK_ERROR(aikido_storage_symlink(host, "/etc/passwd", "/made", &error), AIKIDO_ERR_STORAGE,
                "/made: Operation not permitted: a symlink in a host folder must be relative and stay inside it "
                "(/etc/passwd)");
    CHECK_STATUS(aikido_storage_symlink(host, "../outside", "/made", NULL), AIKIDO_ERR_STORAGE);
    CHECK_STATUS(aikido_storage_symlink(host, "inside.txt", "/made", NULL), AIKIDO_OK);
    check_file(host, "/made", "fine");
    CHECK_STATUS(aikido_storage_remove(host, "/made", false, NULL), AIKIDO_OK);
    aikido_storage_free(host);

    FILE *check = fopen(secret, "r");
    char content[32] = {0};
    CHECK(fgets(content, sizeof content, check) != NULL);
    fclose(check);
    CHECK_STR(content, "top secret");

    host = (aikido_storage *)1;
    CHECK_ERROR(aikido_storage_host_new("/no/such/folder", false, &host, &error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: the folder \"/no/such/folder\" cannot be used: "
                "No such file or directory (os error 2)");
    CHECK(host == NULL);

    char inside[160];
    snprintf(inside, sizeof inside, "%s/inside.txt", root_path);
    unlink(inside);
    unlink(link);
    unlink(secret);
    rmdir(outside);
    rmdir(root_path);
    rmdir(scratch);
}

static void file_tools_on_a_registry(void) {
    aikido_registry *registry = aikido_registry_new();
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    char *content = NULL, *error = NULL;
    CHECK_STATUS(aikido_registry_register_file_tools(registry, storage, NULL), AIKIDO_OK);
    aikido_storage_free(storage); /* the tools keep their own share */
    CHECK(aikido_registry_len(registry) == 5);
    CHECK_ERROR(aikido_registry_register_file_tools(registry, NULL, &error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: storage is NULL");

    const char *write = "{\"path\":\"/notes/todo.md\",\"content\":\"- ship it\\n\"}";
    aikido_tool_call call = {"c1", "write_file", write, strlen(write)};
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, NULL), AIKIDO_OK);
    CHECK_STR(content, "wrote 10 bytes to /notes/todo.md");
    aikido_string_free(content);

    const char *edit = "{\"path\":\"/notes/todo.md\",\"old_text\":\"ship\",\"new_text\":\"test\"}";
    call = (aikido_tool_call){"c2", "edit_file", edit, strlen(edit)};
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, NULL), AIKIDO_OK);
    CHECK_STR(content, "replaced 1 occurrence in /notes/todo.md");
    aikido_string_free(content);

    const char *read = "{\"path\":\"/notes/todo.md\"}";
    call = (aikido_tool_call){"c3", "read_file", read, strlen(read)};
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, NULL), AIKIDO_OK);
    CHECK_STR(content, "- test it\n");
    aikido_string_free(content);

    const char *missing = "{\"path\":\"/nope\"}";
    call = (aikido_tool_call){"c4", "read_file", missing, strlen(missing)};
    CHECK_ERROR(aikido_registry_dispatch(registry, &call, NULL, NULL, &error), AIKIDO_ERR_TOOL_FAILED,
                "read_file: /nope: No such file or directory; list_directory shows what exists");
    aikido_registry_free(registry);
}

static void bad_input(void) {
    char *error = NULL;
    uint8_t *data = (uint8_t *)1;
    size_t len = 99;
    aikido_file_stat stat;
    CHECK_ERROR(aikido_storage_read(NULL, "/x", &data, &len, &error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: storage is NULL");
    CHECK(data == NULL && len == 0);
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    CHECK_ERROR(aikido_storage_read(storage, NULL, &data, &len, &error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: path is NULL");
    CHECK_ERROR(aikido_storage_read(storage, "/x", NULL, &len, &error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: data_out is NULL");
    CHECK_ERROR(aikido_storage_write(storage, "/x", NULL, 3, &error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: data is NULL but its length is 3");
    CHECK_STATUS(aikido_storage_write(storage, "/empty", NULL, 0, NULL), AIKIDO_OK);
    CHECK_ERROR(aikido_storage_stat(storage, "/empty", NULL, &error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: stat_out is NULL");
    CHECK_ERROR(aikido_storage_mkdir(storage, "\xff", true, &error), AIKIDO_ERR_INVALID_INPUT,
                "aikido/tools: invalid input: path is not valid UTF-8");
    CHECK_STATUS(aikido_storage_stat(storage, "/empty", &stat, NULL), AIKIDO_OK);
    CHECK(stat.size == 0);
    CHECK(aikido_storage_read_only(NULL) == NULL);
    CHECK(aikido_storage_overlay_new(NULL) == NULL);
    CHECK(aikido_storage_dry_run_new(NULL) == NULL);
    aikido_storage_free(NULL);
    aikido_bytes_free(NULL, 5);
    aikido_storage_free(storage);
}

int main(void) {
    memory_storage();
    overlay_dry_run_and_read_only();
    mounts_and_policy();
    host_folder_cannot_be_escaped();
    file_tools_on_a_registry();
    bad_input();
    return check_summary("storage");
}
