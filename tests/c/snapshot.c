/* Session snapshots from C: a shell's session as bytes and back (into a
 * new memory storage, or into a storage given), a fork that shares nothing
 * mutable, and bad bytes refused with AIKIDO_ERR_INVALID_INPUT. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Runs a script and returns its stdout, for the caller to free. */
static char *out(aikido_shell *shell, const char *script) {
    aikido_shell_result result;
    CHECK_STATUS(aikido_shell_run(shell, script, strlen(script), NULL, &result, NULL), AIKIDO_OK);
    char *text = malloc(result.stdout_len + 1);
    memcpy(text, result.stdout_data, result.stdout_len + 1);
    aikido_shell_result_free(&result);
    return text;
}

static void check_out(aikido_shell *shell, const char *script, const char *want) {
    char *text = out(shell, script);
    CHECK_STR(text, want);
    free(text);
}

static void snapshot_and_restore(void) {
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    aikido_shell *shell = aikido_shell_new(storage, NULL);
    check_out(shell, "mkdir /w && cd /w && echo data > f; x=1; arr=(a b); g() { echo \"g $x\"; }", "");
    uint8_t *bytes = NULL;
    size_t len = 0;
    CHECK_STATUS(aikido_shell_snapshot(shell, &bytes, &len, NULL), AIKIDO_OK);
    CHECK(bytes != NULL && len > 28 && memcmp(bytes, "AIKIDOSS", 8) == 0);

    /* Into a new memory storage: the session goes on. */
    aikido_shell *restored = NULL;
    CHECK_STATUS(aikido_shell_restore(bytes, len, NULL, NULL, &restored, NULL), AIKIDO_OK);
    check_out(restored, "g; echo ${arr[@]} $PWD; cat f", "g 1\na b /w\ndata\n");
    aikido_storage *files = aikido_shell_storage(restored);
    uint8_t *data = NULL;
    size_t data_len = 0;
    CHECK_STATUS(aikido_storage_read(files, "/w/f", &data, &data_len, NULL), AIKIDO_OK);
    CHECK(data_len == 5 && memcmp(data, "data\n", 5) == 0);
    aikido_bytes_free(data, data_len);
    aikido_storage_free(files);

    /* Into a storage given: its content is replaced. */
    aikido_storage *other = aikido_storage_memory_new(0, 0);
    CHECK_STATUS(aikido_storage_write(other, "/stale", (const uint8_t *)"x", 1, NULL), AIKIDO_OK);
    aikido_shell *into = NULL;
    CHECK_STATUS(aikido_shell_restore(bytes, len, other, NULL, &into, NULL), AIKIDO_OK);
    check_out(into, "ls /; g", "w\ng 1\n");

    /* Bad bytes: a clear error, no shell. */
    char *error = NULL;
    aikido_shell *bad = (aikido_shell *)1;
    bytes[len / 2] ^= 0x10;
    CHECK_STATUS(aikido_shell_restore(bytes, len, NULL, NULL, &bad, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK(bad == NULL);
    CHECK_STR(error, "aikido/tools: invalid input: the snapshot is corrupt: its checksum does not match");
    aikido_string_free(error);
    CHECK_STATUS(aikido_shell_restore(bytes, len - 1, NULL, NULL, &bad, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_CONTAINS(error, "truncated");
    aikido_string_free(error);
    CHECK_STATUS(aikido_shell_restore((const uint8_t *)"nope", 4, NULL, NULL, &bad, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_CONTAINS(error, "not a session snapshot");
    aikido_string_free(error);
    aikido_bytes_free(bytes, len);

    aikido_shell_free(into);
    aikido_storage_free(other);
    aikido_shell_free(restored);
    aikido_shell_free(shell);
    aikido_storage_free(storage);
}

static void fork_shares_nothing(void) {
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    aikido_shell *shell = aikido_shell_new(storage, NULL);
    check_out(shell, "echo one > /f; v=1", "");
    aikido_shell *fork = aikido_shell_fork(shell);
    CHECK(fork != NULL);
    check_out(fork, "echo two >> /f; v=2", "");
    check_out(shell, "cat /f; echo $v", "one\n1\n");
    check_out(fork, "cat /f; echo $v", "one\ntwo\n2\n");
    aikido_shell_free(fork);
    aikido_shell_free(shell);
    aikido_storage_free(storage);
}

static void misuse(void) {
    char *error = NULL;
    uint8_t *bytes = NULL;
    size_t len = 0;
    CHECK_STATUS(aikido_shell_snapshot(NULL, &bytes, &len, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: shell is NULL");
    aikido_string_free(error);
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    aikido_shell *shell = aikido_shell_new(storage, NULL);
    CHECK_STATUS(aikido_shell_snapshot(shell, NULL, &len, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: data_out is NULL");
    aikido_string_free(error);
    aikido_shell *restored = NULL;
    CHECK_STATUS(aikido_shell_restore(NULL, 5, NULL, NULL, &restored, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: data is NULL but its length is 5");
    aikido_string_free(error);
    CHECK_STATUS(aikido_shell_restore(NULL, 0, NULL, NULL, NULL, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STR(error, "aikido/tools: invalid input: shell_out is NULL");
    aikido_string_free(error);
    CHECK(aikido_shell_fork(NULL) == NULL);
    CHECK(aikido_shell_storage(NULL) == NULL);
    aikido_shell_free(shell);
    aikido_storage_free(storage);
}

int main(void) {
    snapshot_and_restore();
    fork_shares_nothing();
    misuse();
    return check_summary("snapshot");
}
