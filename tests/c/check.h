/* The C suite's assertions: each failed check prints where and what, and the
 * program's exit status counts them. Checks run on the main thread only;
 * threads report through their own counters. */

#ifndef AIKIDO_TEST_CHECK_H
#define AIKIDO_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

#include "aikido.h"

static int check_passed;
static int check_failed;

static inline int check_report(int ok, const char *file, int line, const char *what) {
    if (ok) {
        check_passed++;
    } else {
        check_failed++;
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    }
    return ok;
}

static inline int check_status(aikido_status got, aikido_status want, const char *expr, const char *file, int line) {
    if (got == want) return check_report(1, file, line, expr);
    fprintf(stderr, "%s:%d: %s is %s (%d), want %s\n", file, line, expr, aikido_status_name(got), (int)got,
            aikido_status_name(want));
    return check_report(0, file, line, expr);
}

static inline int check_str(const char *got, const char *want, const char *expr, const char *file, int line) {
    if (got != NULL && strcmp(got, want) == 0) return check_report(1, file, line, expr);
    fprintf(stderr, "%s:%d: %s is \"%s\"\n    want \"%s\"\n", file, line, expr, got ? got : "(NULL)", want);
    return check_report(0, file, line, expr);
}

static inline int check_contains(const char *got, const char *fragment, const char *expr, const char *file, int line) {
    if (got != NULL && strstr(got, fragment) != NULL) return check_report(1, file, line, expr);
    fprintf(stderr, "%s:%d: %s is \"%s\"\n    want it to contain \"%s\"\n", file, line, expr, got ? got : "(NULL)",
            fragment);
    return check_report(0, file, line, expr);
}

#define CHECK(cond) check_report((cond) != 0, __FILE__, __LINE__, #cond)
#define CHECK_STATUS(got, want) check_status((got), (want), #got, __FILE__, __LINE__)
#define CHECK_STR(got, want) check_str((got), (want), #got, __FILE__, __LINE__)
#define CHECK_CONTAINS(got, fragment) check_contains((got), (fragment), #got, __FILE__, __LINE__)

/* The program's exit status: 0 only when every check passed and some ran. */
/* Handlers several programs share: one that answers with its arguments, one
 * that fails with "disk full". */
static inline aikido_status check_echo_handler(void *userdata, const char *arguments, size_t arguments_len,
                                               const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata;
    (void)environment;
    return aikido_reply_set_content(reply, arguments, arguments_len);
}

static inline aikido_status check_failing_handler(void *userdata, const char *arguments, size_t arguments_len,
                                                  const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata;
    (void)arguments;
    (void)arguments_len;
    (void)environment;
    aikido_reply_set_error(reply, "disk full", 9);
    return AIKIDO_ERR_TOOL_FAILED;
}

static inline int check_summary(const char *program) {
    printf("%s: %d checks passed, %d failed\n", program, check_passed, check_failed);
    return check_failed == 0 && check_passed > 0 ? 0 : 1;
}

#endif /* AIKIDO_TEST_CHECK_H */
