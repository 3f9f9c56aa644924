/* Status names, the version string, freeing strings and cancellation tokens. */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static void status_names(void) {
    CHECK_STR(aikido_status_name(AIKIDO_OK), "AIKIDO_OK");
    CHECK_STR(aikido_status_name(AIKIDO_ERR_DUPLICATE_TOOL), "AIKIDO_ERR_DUPLICATE_TOOL");
    CHECK_STR(aikido_status_name(AIKIDO_ERR_UNKNOWN_TOOL), "AIKIDO_ERR_UNKNOWN_TOOL");
    CHECK_STR(aikido_status_name(AIKIDO_ERR_INVALID_ARGUMENTS), "AIKIDO_ERR_INVALID_ARGUMENTS");
    CHECK_STR(aikido_status_name(AIKIDO_ERR_TOOL_PANICKED), "AIKIDO_ERR_TOOL_PANICKED");
    CHECK_STR(aikido_status_name(AIKIDO_ERR_TOOL_FAILED), "AIKIDO_ERR_TOOL_FAILED");
    CHECK_STR(aikido_status_name(AIKIDO_ERR_INVALID_INPUT), "AIKIDO_ERR_INVALID_INPUT");
    CHECK_STR(aikido_status_name(AIKIDO_ERR_CANCELLED), "AIKIDO_ERR_CANCELLED");
    CHECK_STR(aikido_status_name(AIKIDO_ERR_STORAGE), "AIKIDO_ERR_STORAGE");
    CHECK_STR(aikido_status_name(9), "AIKIDO_UNKNOWN_STATUS");
    CHECK_STR(aikido_status_name(-1), "AIKIDO_UNKNOWN_STATUS");
    CHECK_STR(aikido_status_name(INT32_MAX), "AIKIDO_UNKNOWN_STATUS");
    CHECK_STR(aikido_status_name(INT32_MIN), "AIKIDO_UNKNOWN_STATUS");
    /* Static strings: the same pointer every time, never to be freed. */
    CHECK(aikido_status_name(AIKIDO_OK) == aikido_status_name(AIKIDO_OK));
}

static void constants_keep_their_values(void) {
    /* SPEC §2 fixes these forever. */
    CHECK(AIKIDO_OK == 0);
    CHECK(AIKIDO_ERR_DUPLICATE_TOOL == 1);
    CHECK(AIKIDO_ERR_UNKNOWN_TOOL == 2);
    CHECK(AIKIDO_ERR_INVALID_ARGUMENTS == 3);
    CHECK(AIKIDO_ERR_TOOL_PANICKED == 4);
    CHECK(AIKIDO_ERR_TOOL_FAILED == 5);
    CHECK(AIKIDO_ERR_INVALID_INPUT == 6);
    CHECK(AIKIDO_ERR_CANCELLED == 7);
    CHECK(AIKIDO_ERR_STORAGE == 8);
    CHECK(sizeof(aikido_status) == 4);
}

static void version(void) {
    char from_parts[32];
    CHECK_STR(aikido_version(), AIKIDO_VERSION);
    snprintf(from_parts, sizeof from_parts, "%d.%d.%d", AIKIDO_VERSION_MAJOR, AIKIDO_VERSION_MINOR,
             AIKIDO_VERSION_PATCH);
    CHECK_STR(aikido_version(), from_parts);
}

static void string_free_accepts_null(void) {
    char *text = aikido_schema_string("x");
    CHECK(text != NULL);
    aikido_string_free(text);
    aikido_string_free(NULL);
    CHECK(1); /* reached: freeing NULL did nothing */
}

static void cancellation_tokens(void) {
    aikido_cancel *token = aikido_cancel_new();
    aikido_cancel *other = aikido_cancel_new();
    CHECK(token != NULL && other != NULL);
    CHECK(!aikido_cancel_is_fired(token));
    aikido_cancel_fire(token);
    CHECK(aikido_cancel_is_fired(token));
    aikido_cancel_fire(token); /* firing twice is firing once */
    CHECK(aikido_cancel_is_fired(token));
    CHECK(!aikido_cancel_is_fired(other)); /* tokens are independent */
    CHECK(!aikido_cancel_is_fired(NULL));
    aikido_cancel_fire(NULL);
    CHECK(!aikido_cancel_is_fired(NULL));
    aikido_cancel_free(token);
    aikido_cancel_free(other);
    aikido_cancel_free(NULL);
}

int main(void) {
    status_names();
    constants_keep_their_values();
    version();
    string_free_accepts_null();
    cancellation_tokens();
    return check_summary("basics");
}
