/* Lengths and counts no buffer can have (SIZE_MAX, 2^63, SIZE_MAX - 1),
 * given with a pointer to memory that cannot be read: every function must
 * refuse them with AIKIDO_ERR_INVALID_INPUT and a message naming the length
 * (or NULL where it has no status) before touching the buffer, where a read
 * would kill the process. A length over a configured limit (a storage's file
 * size, the MCP message cap) is refused the same way, untouched.
 * Exits 0 when every check holds; otherwise prints each failed check. */

#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "aikido.h"

static int failures;

#define CHECK(condition)                                                              \
    do {                                                                              \
        if (!(condition)) {                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
            failures++;                                                               \
        }                                                                             \
    } while (0)

static const size_t IMPOSSIBLE[] = {SIZE_MAX, (size_t)1 << 63, SIZE_MAX - 1};
#define EACH_IMPOSSIBLE(len) \
    for (size_t index_ = 0, len; index_ < 3 && (len = IMPOSSIBLE[index_], 1); index_++)

/* Memory that cannot be read: any touch is SIGSEGV. */
static void *unreadable(size_t bytes) {
    void *pages = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    return pages;
}

/* The status must be INVALID_INPUT and the message must hold `"<name> is
 * <len>"`; frees the message. */
static void refused(aikido_status status, char *error, const char *name, size_t len, int line) {
    char said[128];
    snprintf(said, sizeof said, "%s is %zu", name, len);
    if (status != AIKIDO_ERR_INVALID_INPUT || error == NULL || strstr(error, said) == NULL) {
        fprintf(stderr, "lengths.c:%d: %s: got %s, \"%s\"; expected INVALID_INPUT saying \"%s\"\n", line, name,
                aikido_status_name(status), error ? error : "(no message)", said);
        failures++;
    }
    aikido_string_free(error);
}
#define REFUSED(call, name, len)                          \
    do {                                                  \
        char *error = NULL;                               \
        aikido_status status_ = (call);                   \
        refused(status_, error, (name), (len), __LINE__); \
    } while (0)

static const char *bad_text;
static size_t bad_len;
/* A handler that sets its reply text with the length under test, and
 * returns that call's status. */
static aikido_status setting_handler(void *userdata, const char *arguments, size_t arguments_len,
                                     const aikido_environment *environment, aikido_reply *reply) {
    (void)arguments;
    (void)arguments_len;
    (void)environment;
    return userdata ? aikido_reply_set_error(reply, bad_text, bad_len) : aikido_reply_set_content(reply, bad_text, bad_len);
}

static void registry_lengths(const char *nowhere) {
    aikido_registry *registry = aikido_registry_new();
    static int set_error = 1;
    CHECK(aikido_registry_register(registry, "content", NULL, NULL, setting_handler, NULL, NULL, NULL) == AIKIDO_OK);
    CHECK(aikido_registry_register(registry, "error", NULL, NULL, setting_handler, &set_error, NULL, NULL) ==
          AIKIDO_OK);
    EACH_IMPOSSIBLE(len) {
        aikido_tool_call call = {NULL, "content", nowhere, len};
        char *content = NULL;
        REFUSED(aikido_registry_dispatch(registry, &call, NULL, &content, &error), "call->arguments_len", len);
        CHECK(content == NULL);
        REFUSED(aikido_registry_dispatch_ex(registry, &call, NULL, &content, NULL, &error), "call->arguments_len", len);
        CHECK(content == NULL);
        char *messages = NULL;
        REFUSED(aikido_registry_respond(registry, AIKIDO_DIALECT_OPENAI_CHAT, nowhere, len, NULL, 0, &messages, &error),
                "reply_len", len);
        CHECK(messages == NULL);
        REFUSED(aikido_tool_calls_parse(AIKIDO_DIALECT_OPENAI_CHAT, nowhere, len, &messages, &error), "reply_len", len);
        aikido_tool_calls *calls = NULL;
        REFUSED(aikido_tool_calls_read(AIKIDO_DIALECT_ANTHROPIC, nowhere, len, &calls, &error), "reply_len", len);
        CHECK(calls == NULL);

        /* The reply refuses the text; the tool's caller is told why. */
        bad_text = nowhere;
        bad_len = len;
        const char *names[] = {"content", "error"};
        for (int which = 0; which < 2; which++) {
            aikido_tool_call set = {NULL, names[which], "{}", 2};
            char *error = NULL;
            CHECK(aikido_registry_dispatch(registry, &set, NULL, &content, &error) == AIKIDO_ERR_TOOL_FAILED);
            char said[96];
            snprintf(said, sizeof said, "replied with text that was refused: len is %zu", len);
            CHECK(error != NULL && strstr(error, said) != NULL);
            aikido_string_free(error);
        }

        aikido_mcp_server *server = aikido_mcp_server_new(registry, NULL, NULL);
        char *response = NULL;
        REFUSED(aikido_mcp_server_handle(server, nowhere, len, &response, &error), "message_len", len);
        CHECK(response == NULL);
        aikido_mcp_server_free(server);
    }
    aikido_registry_free(registry);
}

static void schema_lengths(const char *const *nowhere) {
    EACH_IMPOSSIBLE(len) {
        CHECK(aikido_schema_enum("d", nowhere, len) == NULL);
        char *json = NULL;
        REFUSED(aikido_schema_object(nowhere, nowhere, len, NULL, 0, &json, &error), "len", len);
        REFUSED(aikido_schema_object(NULL, NULL, 0, nowhere, len, &json, &error), "required_len", len);
        CHECK(json == NULL);
    }
}

static void storage_and_shell_lengths(const void *nowhere) {
    aikido_storage *unlimited = aikido_storage_memory_new(0, 0);
    aikido_storage *limited = aikido_storage_memory_new(0, 1000);
    aikido_shell *shell = aikido_shell_new(unlimited, NULL);
    EACH_IMPOSSIBLE(len) {
        REFUSED(aikido_storage_write(unlimited, "/f", nowhere, len, &error), "len", len);
        REFUSED(aikido_storage_append(unlimited, "/f", nowhere, len, &error), "len", len);
        REFUSED(aikido_storage_write(limited, "/f", nowhere, len, &error), "len", len);
        aikido_storage *policy = NULL;
        REFUSED(aikido_storage_policy_new(unlimited, nowhere, len, &policy, &error), "rules_len", len);
        CHECK(policy == NULL);
        aikido_shell_result result;
        REFUSED(aikido_shell_run(shell, nowhere, len, NULL, &result, &error), "script_len", len);
        CHECK(result.stdout_data == NULL && result.stdout_len == 0);
        aikido_shell_result_free(&result);
        /* Freeing with a length no allocation has frees nothing (were the
         * pointer freed, the process would abort). */
        aikido_bytes_free((uint8_t *)nowhere, len);
    }
    /* Over the file size limit: refused as too large, the bytes untouched. */
    char *error = NULL;
    CHECK(aikido_storage_write(limited, "/f", nowhere, 4096, &error) == AIKIDO_ERR_STORAGE);
    CHECK(error != NULL && strstr(error, "File too large (the limit is 1000 bytes)") != NULL);
    aikido_string_free(error);
    error = NULL;
    CHECK(aikido_storage_append(limited, "/f", nowhere, 1001, &error) == AIKIDO_ERR_STORAGE);
    aikido_string_free(error);
    aikido_shell_free(shell);
    aikido_storage_free(limited);
    aikido_storage_free(unlimited);
}

static void mcp_cap(void) {
    /* One byte over the 16 MiB cap, in memory that cannot be read. */
    size_t len = ((size_t)16 << 20) + 1;
    const char *nowhere = unreadable(len);
    aikido_registry *registry = aikido_registry_new();
    aikido_mcp_server *server = aikido_mcp_server_new(registry, NULL, NULL);
    char *response = NULL;
    REFUSED(aikido_mcp_server_handle(server, nowhere, len, &response, &error), "message_len", len);
    CHECK(response == NULL);
    aikido_mcp_server_free(server);
    aikido_registry_free(registry);
    munmap((void *)nowhere, len);
}

int main(void) {
    void *nowhere = unreadable(4096);
    registry_lengths(nowhere);
    schema_lengths(nowhere);
    storage_and_shell_lengths(nowhere);
    mcp_cap();
    munmap(nowhere, 4096);
    if (failures) {
        fprintf(stderr, "lengths: %d checks failed\n", failures);
        return 1;
    }
    return 0;
}
