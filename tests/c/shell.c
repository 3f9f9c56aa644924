/* The virtual bash from C: the `bash` tool on a registry (result text,
 * sessions, restart, limits) and the direct API for running scripts without
 * a model (results, limits, cancellation, reset), and bad input. */

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static char *repeated(const char *prefix, const char *piece, size_t n, const char *suffix);

/* Dispatches `bash` with these arguments in a session; returns the content
 * (or the error text) for the caller to free. */
static char *bash(const aikido_registry *registry, const char *session, const char *arguments,
                  aikido_status *status) {
    aikido_tool_call call = {NULL, "bash", arguments, strlen(arguments)};
    aikido_environment environment = {session, {0}, NULL};
    char *content = NULL, *error = NULL;
    *status = aikido_registry_dispatch(registry, &call, &environment, &content, &error);
    if (*status == AIKIDO_OK) return content;
    return error;
}

static void check_bash(const aikido_registry *registry, const char *session, const char *arguments,
                       const char *want) {
    aikido_status status;
    char *text = bash(registry, session, arguments, &status);
    CHECK_STATUS(status, AIKIDO_OK);
    CHECK_STR(text, want);
    aikido_string_free(text);
}

static int ends_with(const char *text, const char *tail) {
    size_t text_len = strlen(text), tail_len = strlen(tail);
    return text_len >= tail_len && strcmp(text + text_len - tail_len, tail) == 0;
}

static void check_bash_ends_with(const aikido_registry *registry, const char *arguments, const char *tail) {
    aikido_status status;
    char *text = bash(registry, "limits", arguments, &status);
    CHECK_STATUS(status, AIKIDO_OK);
    if (!CHECK(text != NULL && ends_with(text, tail)))
        fprintf(stderr, "    got \"%s\"\n    want it to end with \"%s\"\n", text ? text : "(NULL)", tail);
    aikido_string_free(text);
}

static void the_tool(void) {
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    aikido_registry *registry = aikido_registry_new();
    CHECK_STATUS(aikido_registry_register_shell_tool(registry, storage, NULL, NULL), AIKIDO_OK);
    CHECK(aikido_registry_len(registry) == 1);

    char *json = NULL;
    CHECK_STATUS(aikido_registry_definitions(registry, &json, NULL), AIKIDO_OK);
    CHECK_CONTAINS(json, "\"name\":\"bash\"");
    CHECK_CONTAINS(json, "\"required\":[\"command\"]");
    aikido_string_free(json);

    check_bash(registry, "s1", "{\"command\":\"echo hi > f; cat f\"}", "hi\n[exit code: 0]");
    /* The file is in the storage, for every tool and every session. */
    uint8_t *data = NULL;
    size_t len = 0;
    CHECK_STATUS(aikido_storage_read(storage, "/f", &data, &len, NULL), AIKIDO_OK);
    CHECK(len == 3 && data != NULL && memcmp(data, "hi\n", 3) == 0);
    aikido_bytes_free(data, len);

    /* State persists per session; another session has its own shell. */
    check_bash(registry, "s1", "{\"command\":\"X=42; mkdir /d; cd /d\"}", "[exit code: 0]");
    check_bash(registry, "s1", "{\"command\":\"echo $X; pwd\"}", "42\n/d\n[exit code: 0]");
    check_bash(registry, "s2", "{\"command\":\"echo ${X:-unset}; cat /f\"}", "unset\nhi\n[exit code: 0]");

    /* A failing script is a result, with its stderr and exit code. */
    check_bash(registry, "s1", "{\"command\":\"cat /nope; exit 3\"}",
               "[stderr]\ncat: /nope: No such file or directory\n[exit code: 3]");

    /* Restart: alone, then with a command. */
    check_bash(registry, "s1", "{\"command\":\"\",\"restart\":true}", "[shell restarted]\n[exit code: 0]");
    check_bash(registry, "s1", "{\"command\":\"echo ${X:-unset}; pwd\"}", "unset\n/\n[exit code: 0]");
    check_bash(registry, "s1", "{\"command\":\"X=1\"}", "[exit code: 0]");
    check_bash(registry, "s1", "{\"command\":\"echo ${X:-unset}\",\"restart\":true}", "unset\n[exit code: 0]");

    /* Arguments of the wrong shape. */
    aikido_status status;
    char *error = bash(registry, "s1", "{}", &status);
    CHECK_STATUS(status, AIKIDO_ERR_INVALID_ARGUMENTS);
    CHECK_CONTAINS(error, "\"command\"");
    aikido_string_free(error);
    error = bash(registry, "s1", "{\"command\":[\"ls\"]}", &status);
    CHECK_STATUS(status, AIKIDO_ERR_TOOL_FAILED);
    CHECK_STR(error, "bash: \"command\" must be a string");
    aikido_string_free(error);

    /* The name is taken now. */
    CHECK_STATUS(aikido_registry_register_shell_tool(registry, storage, NULL, NULL), AIKIDO_ERR_DUPLICATE_TOOL);
    aikido_storage_free(storage); /* the tool keeps its share */
    check_bash(registry, "s3", "{\"command\":\"cat /f\"}", "hi\n[exit code: 0]");
    aikido_registry_free(registry);
}

static void tool_limits(void) {
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    aikido_registry *registry = aikido_registry_new();
    aikido_shell_limits limits = {0};
    limits.max_loop_iterations = 100;
    limits.max_output_bytes = 64;
    CHECK_STATUS(aikido_registry_register_shell_tool(registry, storage, &limits, NULL), AIKIDO_OK);
    check_bash_ends_with(registry, "{\"command\":\"while :; do :; done\"}",
                         "[stopped: loop iteration limit reached]\n[exit code: 125]");
    check_bash_ends_with(registry, "{\"command\":\"for i in 1 2 3 4 5 6 7 8 9; do echo 0123456789; done\"}",
                         "[stopped: output limit reached, output truncated]\n[exit code: 125]");
    aikido_registry_free(registry);
    aikido_storage_free(storage);
}

/* Runs a NUL-terminated script; the result is the caller's to free. */
static aikido_status run(aikido_shell *shell, const char *script, const aikido_cancel *cancel,
                         aikido_shell_result *result) {
    return aikido_shell_run(shell, script, strlen(script), cancel, result, NULL);
}

static void direct_runs(void) {
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    aikido_shell *shell = aikido_shell_new(storage, NULL);
    CHECK(shell != NULL);
    aikido_shell_result result;

    CHECK_STATUS(run(shell, "echo hi > /f; cat /f; echo err >&2; X=5; exit 3", NULL, &result), AIKIDO_OK);
    CHECK_STR(result.stdout_data, "hi\n");
    CHECK(result.stdout_len == 3);
    CHECK_STR(result.stderr_data, "err\n");
    CHECK(result.stderr_len == 4);
    CHECK(result.exit_code == 3);
    CHECK(!result.truncated);
    CHECK(result.limit == AIKIDO_SHELL_LIMIT_NONE);
    CHECK_STR(result.write_set_json, "[\"/f\"]");
    aikido_shell_result_free(&result);
    CHECK(result.stdout_data == NULL && result.stderr_data == NULL && result.write_set_json == NULL);
    aikido_shell_result_free(&result); /* a zeroed result frees nothing */

    /* Output is bytes: a NUL inside is kept and counted. */
    CHECK_STATUS(run(shell, "printf 'a\\0b'", NULL, &result), AIKIDO_OK);
    CHECK(result.stdout_len == 3 && memcmp(result.stdout_data, "a\0b", 4) == 0);
    aikido_shell_result_free(&result);

    /* State persists until reset. */
    CHECK_STATUS(run(shell, "echo ${X:-none}", NULL, &result), AIKIDO_OK);
    CHECK_STR(result.stdout_data, "5\n");
    aikido_shell_result_free(&result);
    aikido_shell_reset(shell);
    CHECK_STATUS(run(shell, "echo ${X:-none}; cat /f", NULL, &result), AIKIDO_OK);
    CHECK_STR(result.stdout_data, "none\nhi\n");
    aikido_shell_result_free(&result);

    /* A fired token stops the script. */
    aikido_cancel *cancel = aikido_cancel_new();
    aikido_cancel_fire(cancel);
    CHECK_STATUS(run(shell, "while :; do :; done", cancel, &result), AIKIDO_OK);
    CHECK(result.exit_code == 130);
    CHECK(result.limit == AIKIDO_SHELL_LIMIT_CANCELLED);
    aikido_shell_result_free(&result);
    aikido_cancel_free(cancel);

    aikido_shell_free(shell);
    aikido_storage_free(storage);
}

static void direct_limits(void) {
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    aikido_shell_limits limits = {0};
    limits.max_output_bytes = 16;
    limits.max_commands = 1000;
    aikido_shell *shell = aikido_shell_new(storage, &limits);
    aikido_shell_result result;

    CHECK_STATUS(run(shell, "while :; do echo 0123456789; done", NULL, &result), AIKIDO_OK);
    CHECK(result.stdout_len == 16);
    CHECK(result.truncated);
    CHECK(result.limit == AIKIDO_SHELL_LIMIT_OUTPUT);
    CHECK(result.exit_code == 125);
    aikido_shell_result_free(&result);

    CHECK_STATUS(run(shell, "while :; do :; done", NULL, &result), AIKIDO_OK);
    CHECK(result.limit == AIKIDO_SHELL_LIMIT_COMMANDS || result.limit == AIKIDO_SHELL_LIMIT_LOOP_ITERATIONS);
    CHECK(result.exit_code == 125);
    aikido_shell_result_free(&result);

    CHECK_STATUS(run(shell, "f() { f; }; f", NULL, &result), AIKIDO_OK);
    CHECK(result.limit == AIKIDO_SHELL_LIMIT_FUNCTION_DEPTH);
    CHECK(result.exit_code == 125);
    aikido_shell_result_free(&result);
    aikido_shell_free(shell);

    /* Time: the other limits far away, 50 ms of wall clock. */
    limits.max_output_bytes = 0;
    limits.max_commands = UINT64_MAX;
    limits.max_loop_iterations = UINT64_MAX;
    limits.max_milliseconds = 50;
    shell = aikido_shell_new(storage, &limits);
    CHECK_STATUS(run(shell, "while :; do :; done", NULL, &result), AIKIDO_OK);
    CHECK(result.limit == AIKIDO_SHELL_LIMIT_TIME);
    CHECK(result.exit_code == 124);
    CHECK_CONTAINS(result.stderr_data, "time limit");
    aikido_shell_result_free(&result);
    aikido_shell_free(shell);

    /* Memory: a replacement that would square a 100 KB string. */
    limits = (aikido_shell_limits){0};
    limits.max_memory_bytes = 1 << 20;
    shell = aikido_shell_new(storage, &limits);
    CHECK_STATUS(run(shell, "x=$(printf '%*s' 100000 ''); y=${x// /$x}", NULL, &result), AIKIDO_OK);
    CHECK(result.limit == AIKIDO_SHELL_LIMIT_MEMORY);
    CHECK(result.exit_code == 125);
    CHECK_CONTAINS(result.stderr_data, "memory limit reached");
    aikido_shell_result_free(&result);
    aikido_shell_free(shell);

    /* Pipelines stream: an endless writer stops at a closed pipe (141), and
     * too many stages at once end with the thread limit. */
    shell = aikido_shell_new(storage, NULL);
    CHECK_STATUS(run(shell, "yes | head -n 2; echo ${PIPESTATUS[@]}", NULL, &result), AIKIDO_OK);
    CHECK_STR(result.stdout_data, "y\ny\n141 0\n");
    CHECK(result.limit == AIKIDO_SHELL_LIMIT_NONE);
    aikido_shell_result_free(&result);
    char *stages = repeated("true", " | true", 300, "");
    CHECK_STATUS(run(shell, stages, NULL, &result), AIKIDO_OK);
    CHECK(result.limit == AIKIDO_SHELL_LIMIT_THREADS);
    CHECK(result.exit_code == 125);
    CHECK_CONTAINS(result.stderr_data, "thread limit reached");
    free(stages);
    aikido_shell_result_free(&result);
    aikido_shell_free(shell);
    aikido_storage_free(storage);
}

/* A long result of the tool keeps its head and tail; the whole is a file. */
static void tool_result_cut(void) {
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    aikido_registry *registry = aikido_registry_new();
    aikido_shell_limits limits = {0};
    limits.max_result_bytes = 1000;
    CHECK_STATUS(aikido_registry_register_shell_tool(registry, storage, &limits, NULL), AIKIDO_OK);
    aikido_status status;
    char *text = bash(registry, "cut", "{\"command\":\"seq 1 10000\"}", &status);
    CHECK_STATUS(status, AIKIDO_OK);
    CHECK(strlen(text) < 1300);
    CHECK(strncmp(text, "1\n2\n3\n", 6) == 0);
    CHECK(ends_with(text, "9999\n10000\n[exit code: 0]"));
    const char *path = strstr(text, "/tmp/aikido-bash/output-");
    CHECK(path != NULL);
    if (path) {
        char name[128] = {0};
        size_t n = strcspn(path, ":");
        memcpy(name, path, n < sizeof name - 1 ? n : sizeof name - 1);
        /* The whole is the session's own: its shell reads it, another
         * session's does not, and the shared storage does not hold it. */
        char command[256];
        snprintf(command, sizeof command, "{\"command\":\"wc -c < %s\"}", name);
        char *size = bash(registry, "cut", command, &status);
        CHECK_STATUS(status, AIKIDO_OK);
        CHECK(size != NULL && strncmp(size, "48908\n", 6) == 0); /* 48894 + "[exit code: 0]" */
        aikido_string_free(size);
        char *other = bash(registry, "other", command, &status);
        CHECK_STATUS(status, AIKIDO_OK);
        CHECK(other != NULL && strstr(other, "No such file or directory") != NULL);
        aikido_string_free(other);
        uint8_t *data = NULL;
        size_t len = 0;
        CHECK(aikido_storage_read(storage, name, &data, &len, NULL) != AIKIDO_OK);
    }
    aikido_string_free(text);
    aikido_storage_free(storage);
    aikido_registry_free(registry);
}

static void misuse(void) {
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    aikido_registry *registry = aikido_registry_new();
    char *error = NULL;
    CHECK_STATUS(aikido_registry_register_shell_tool(NULL, storage, NULL, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: registry is NULL");
    aikido_string_free(error);
    CHECK_STATUS(aikido_registry_register_shell_tool(registry, NULL, NULL, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: storage is NULL");
    aikido_string_free(error);
    CHECK(aikido_registry_len(registry) == 0);

    CHECK(aikido_shell_new(NULL, NULL) == NULL);
    aikido_shell *shell = aikido_shell_new(storage, NULL);
    aikido_shell_result result;
    memset(&result, 0xAB, sizeof result); /* garbage: zeroed on entry */
    CHECK_STATUS(aikido_shell_run(NULL, "true", 4, NULL, &result, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: shell is NULL");
    aikido_string_free(error);
    CHECK(result.stdout_data == NULL && result.stdout_len == 0 && result.exit_code == 0);
    aikido_shell_result_free(&result);
    CHECK_STATUS(aikido_shell_run(shell, NULL, 4, NULL, &result, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: script is NULL but its length is 4");
    aikido_string_free(error);
    CHECK_STATUS(aikido_shell_run(shell, "a\xff", 2, NULL, &result, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: script is not valid UTF-8");
    aikido_string_free(error);
    CHECK_STATUS(aikido_shell_run(shell, "a\0b", 3, NULL, &result, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: script holds a NUL byte");
    aikido_string_free(error);
    CHECK_STATUS(aikido_shell_run(shell, "true", 4, NULL, NULL, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: result_out is NULL");
    aikido_string_free(error);
    /* (NULL, 0) is the empty script. */
    CHECK_STATUS(aikido_shell_run(shell, NULL, 0, NULL, &result, NULL), AIKIDO_OK);
    CHECK(result.exit_code == 0 && result.stdout_len == 0);
    aikido_shell_result_free(&result);

    aikido_shell_result_free(NULL);
    aikido_shell_reset(NULL);
    aikido_shell_free(NULL);
    aikido_shell_free(shell);
    aikido_registry_free(registry);
    aikido_storage_free(storage);
}

/* Issue 11: inputs of a few KB nesting deeper than a small thread's stack
 * killed the host with SIGSEGV. From a 256 KiB thread, through the tool,
 * each ends with bash's answer or a named refusal, never a crash. */
static char *repeated(const char *prefix, const char *piece, size_t n, const char *suffix) {
    size_t len = strlen(prefix) + strlen(piece) * n + strlen(suffix) + 1;
    char *text = malloc(len);
    if (!text) return NULL;
    char *end = text;
    end += strlen(strcpy(end, prefix));
    for (size_t i = 0; i < n; i++) end += strlen(strcpy(end, piece));
    strcpy(end, suffix);
    return text;
}

static void *deep_inputs(void *arg) {
    const aikido_registry *registry = arg;
    char *arith = repeated("{\"command\":\"echo $(( ", "!", 3125, "1 ))\"}");
    char *jq = repeated("{\"command\":\"jq -n '", ".|", 1025, ".'\"}");
    char *test = repeated("{\"command\":\"[[ ", "! ", 5000, "a ]]; echo $?\"}");
    if (CHECK(arith && jq && test)) {
        check_bash(registry, "deep", arith, "0\n[exit code: 0]");
        check_bash(registry, "deep", jq, "null\n[exit code: 0]");
        check_bash(registry, "deep", test, "0\n[exit code: 0]");
    }
    free(arith);
    free(jq);
    free(test);
    return NULL;
}

static void deep_nesting_on_a_small_stack(void) {
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    aikido_registry *registry = aikido_registry_new();
    CHECK_STATUS(aikido_registry_register_shell_tool(registry, storage, NULL, NULL), AIKIDO_OK);
    pthread_attr_t attr;
    pthread_t thread;
    CHECK(pthread_attr_init(&attr) == 0);
    CHECK(pthread_attr_setstacksize(&attr, 256 * 1024) == 0);
    if (CHECK(pthread_create(&thread, &attr, deep_inputs, registry) == 0)) CHECK(pthread_join(thread, NULL) == 0);
    pthread_attr_destroy(&attr);
    aikido_registry_free(registry);
    aikido_storage_free(storage);
}

int main(void) {
    the_tool();
    deep_nesting_on_a_small_stack();
    tool_limits();
    direct_runs();
    direct_limits();
    tool_result_cut();
    misuse();
    return check_summary("shell");
}
