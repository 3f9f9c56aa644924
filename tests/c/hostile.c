/* The C surface under a careless or hostile caller (issue 29): arguments of
 * megabytes and nested past any sane depth, thousands of handles alive at
 * once, and a tool unregistered and registered again while calls of it run.
 * Sizes stay small enough for the Valgrind configuration to take seconds. */

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

enum { HUGE_STRING = 8 << 20, DEEP = 100000, REGISTRIES = 2000, STORAGES = 500, SHELLS = 500 };

static size_t received_len;
static int received_intact;

/* Records what it was given: the length, and whether the payload is the
 * caller's bytes, whole, NUL-terminated. */
static aikido_status measure(void *userdata, const char *arguments, size_t arguments_len,
                             const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)environment;
    received_len = arguments_len;
    received_intact = arguments_len > 20 && arguments[arguments_len] == '\0' && arguments[arguments_len - 3] == 'x' &&
                      arguments[arguments_len - 2] == '"' && arguments[arguments_len - 1] == '}';
    return aikido_reply_set_content(reply, "measured", 8);
}

static void huge_and_deep_arguments(void) {
    aikido_registry *registry = aikido_registry_new();
    char *content = NULL, *error = NULL, *arguments;
    size_t len = 0, i;
    aikido_tool_call call = {NULL, "measure", NULL, 0};
    CHECK_STATUS(aikido_registry_register(registry, "measure", NULL,
                                          "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},"
                                          "\"required\":[\"text\"]}",
                                          measure, NULL, NULL, NULL),
                 AIKIDO_OK);

    /* {"text":"xxx…x"}: 8 MiB reaches the handler whole. */
    arguments = malloc(HUGE_STRING + 32);
    CHECK(arguments != NULL);
    if (arguments == NULL) return;
    len += (size_t)sprintf(arguments, "{\"text\":\"");
    memset(arguments + len, 'x', HUGE_STRING);
    len += HUGE_STRING;
    memcpy(arguments + len, "\"}", 2);
    len += 2;
    call.arguments = arguments;
    call.arguments_len = len;
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_OK);
    CHECK_STR(content, "measured");
    CHECK(received_len == len);
    CHECK(received_intact);
    aikido_string_free(content);
    aikido_string_free(error);
    content = error = NULL;

    /* 100,000 nested arrays: refused with a message, no stack overflow. */
    len = 0;
    len += (size_t)sprintf(arguments, "{\"text\":");
    for (i = 0; i < DEEP; i++) arguments[len++] = '[';
    for (i = 0; i < DEEP; i++) arguments[len++] = ']';
    arguments[len++] = '}';
    call.arguments_len = len;
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_ARGUMENTS);
    CHECK(content == NULL);
    CHECK_CONTAINS(error, "nested deeper than");
    CHECK(error != NULL && strlen(error) < 1000);
    aikido_string_free(error);
    error = NULL;

    /* Cut off inside the string: refused, and the handler never ran. */
    received_len = 0;
    len = (size_t)sprintf(arguments, "{\"text\":\"");
    memset(arguments + len, 'x', HUGE_STRING / 2);
    call.arguments_len = len + HUGE_STRING / 2;
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, &error), AIKIDO_ERR_INVALID_ARGUMENTS);
    CHECK(received_len == 0);
    aikido_string_free(error);
    free(arguments);
    aikido_registry_free(registry);
}

/* Thousands of each handle alive at once, used, then all freed: Valgrind's
 * configuration checks that nothing leaks. */
static void many_handles(void) {
    static aikido_registry *registries[REGISTRIES];
    static aikido_storage *storages[STORAGES];
    static aikido_shell *shells[SHELLS];
    size_t live = 0;
    int i, used = 0;
    for (i = 0; i < REGISTRIES; i++) {
        registries[i] = aikido_registry_new();
        if (registries[i] != NULL &&
            aikido_registry_register(registries[i], "echo", NULL, NULL, check_echo_handler, NULL, NULL, NULL) ==
                AIKIDO_OK)
            live += aikido_registry_len(registries[i]);
    }
    CHECK(live == REGISTRIES);
    for (i = 0; i < STORAGES; i++) storages[i] = aikido_storage_memory_new(1 << 20, 0);
    for (i = 0; i < SHELLS; i++) shells[i] = aikido_shell_new(storages[i % STORAGES], NULL);
    for (i = 0; i < SHELLS; i += 50) {
        aikido_shell_result result;
        const char *script = "echo hi > f; cat f";
        if (aikido_shell_run(shells[i], script, strlen(script), NULL, &result, NULL) == AIKIDO_OK &&
            result.exit_code == 0 && strcmp(result.stdout_data, "hi\n") == 0)
            used++;
        aikido_shell_result_free(&result);
    }
    CHECK(used == SHELLS / 50);
    for (i = 0; i < SHELLS; i++) aikido_shell_free(shells[i]);
    for (i = 0; i < STORAGES; i++) aikido_storage_free(storages[i]);
    for (i = 0; i < REGISTRIES; i++) aikido_registry_free(registries[i]);
}

/* A tool unregistered and registered again, under the same name, while
 * four threads call it. Each registration's userdata must stay alive for
 * every call that reached it and be freed exactly once, after them. */
enum { RACERS = 4, RACE_CALLS = 400, RACE_ROUNDS = 100, ALIVE = 0x5eed };

struct racer_data {
    int magic;
    long calls;
};

static long race_freed, race_made, race_bad, race_ok, race_unknown, race_done;

static void race_count(long *counter) { __atomic_add_fetch(counter, 1, __ATOMIC_ACQ_REL); }
static long race_value(long *counter) { return __atomic_load_n(counter, __ATOMIC_ACQUIRE); }

static aikido_status racer_handler(void *userdata, const char *arguments, size_t arguments_len,
                                   const aikido_environment *environment, aikido_reply *reply) {
    struct racer_data *data = userdata;
    struct timespec pause = {0, 20000};
    (void)arguments, (void)arguments_len, (void)environment;
    if (data->magic != ALIVE) race_count(&race_bad);
    __atomic_add_fetch(&data->calls, 1, __ATOMIC_ACQ_REL);
    nanosleep(&pause, NULL); /* an unregister lands mid-call */
    if (data->magic != ALIVE) race_count(&race_bad);
    return aikido_reply_set_content(reply, "raced", 5);
}

static void racer_free(void *userdata) {
    struct racer_data *data = userdata;
    if (data->magic != ALIVE) race_count(&race_bad);
    data->magic = 0;
    free(data);
    race_count(&race_freed);
}

static aikido_registry *race_registry;

static void *racer(void *argument) {
    int i;
    (void)argument;
    for (i = 0; i < RACE_CALLS; i++) {
        aikido_tool_call call = {NULL, "racer", "{}", 2};
        char *content = NULL;
        aikido_status status = aikido_registry_dispatch(race_registry, &call, NULL, &content, NULL);
        if (status == AIKIDO_OK && content != NULL && strcmp(content, "raced") == 0) race_count(&race_ok);
        else if (status == AIKIDO_ERR_UNKNOWN_TOOL) race_count(&race_unknown);
        else race_count(&race_bad);
        aikido_string_free(content);
    }
    race_count(&race_done);
    return NULL;
}

static void register_racer(void) {
    struct racer_data *data = malloc(sizeof *data);
    if (data == NULL) return;
    data->magic = ALIVE;
    data->calls = 0;
    if (aikido_registry_register(race_registry, "racer", NULL, NULL, racer_handler, data, racer_free, NULL) ==
        AIKIDO_OK)
        race_count(&race_made);
    else
        racer_free(data), race_count(&race_bad);
}

static void dispatch_racing_unregister(void) {
    pthread_t threads[RACERS];
    int i, rounds = 0;
    race_registry = aikido_registry_new();
    register_racer();
    for (i = 0; i < RACERS; i++) CHECK(pthread_create(&threads[i], NULL, racer, NULL) == 0);
    while (race_value(&race_done) < RACERS || rounds < RACE_ROUNDS) {
        struct timespec pause = {0, 50000};
        if (aikido_registry_unregister(race_registry, "racer", NULL) != AIKIDO_OK) race_count(&race_bad);
        register_racer();
        rounds++;
        if (race_value(&race_done) < RACERS) nanosleep(&pause, NULL);
    }
    for (i = 0; i < RACERS; i++) CHECK(pthread_join(threads[i], NULL) == 0);
    CHECK(race_value(&race_bad) == 0);
    CHECK(race_value(&race_ok) + race_value(&race_unknown) == (long)RACERS * RACE_CALLS);
    CHECK(race_value(&race_ok) > 0);
    /* Every registration but the last was freed, each once; the last goes
     * with the registry. */
    CHECK(race_value(&race_freed) == race_value(&race_made) - 1);
    aikido_registry_free(race_registry);
    CHECK(race_value(&race_freed) == race_value(&race_made));
    CHECK(race_value(&race_bad) == 0);
    printf("hostile: %d unregister rounds; %ld calls answered, %ld found no tool\n", rounds, race_value(&race_ok),
           race_value(&race_unknown));
}

int main(void) {
    huge_and_deep_arguments();
    many_handles();
    dispatch_racing_unregister();
    return check_summary("hostile");
}
