/* Many threads at once: four dispatch while others register, unregister and
 * list. Every count is checked at the end. */

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"

/* Each dispatcher makes at least CALLS calls, and goes on until the churner
 * has done CHURN_ROUNDS rounds, so that calls overlap registration. */
enum { DISPATCHERS = 4, CALLS = 3000, CHURN_ROUNDS = 50, FLICKERING = 4, LISTINGS = 100 };

static aikido_registry *registry;

/* Counters shared by all threads; every update is atomic. */
static long stable_runs, stable_ok, flicker_runs, flicker_ok, flicker_unknown, unexpected;
static long calls, flicker_registered, flicker_freed, churn_rounds, listings, listings_ok, dispatchers_done, started;

static void count(long *counter) { __atomic_add_fetch(counter, 1, __ATOMIC_ACQ_REL); }
static long value(long *counter) { return __atomic_load_n(counter, __ATOMIC_ACQUIRE); }
static void pause_briefly(void) {
    struct timespec pause = {0, 100000};
    nanosleep(&pause, NULL);
}

static aikido_status stable(void *userdata, const char *arguments, size_t arguments_len,
                            const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)environment;
    count(&stable_runs);
    return aikido_reply_set_content(reply, arguments, arguments_len);
}

static aikido_status flicker(void *userdata, const char *arguments, size_t arguments_len,
                             const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments, (void)arguments_len, (void)environment;
    count(&flicker_runs);
    return aikido_reply_set_content(reply, "flicker", 7);
}

static void free_flicker(void *userdata) {
    (void)userdata;
    count(&flicker_freed);
}

static void *dispatcher(void *argument) {
    long id = (long)argument;
    int i;
    while (!value(&started)) pause_briefly();
    for (i = 0; i < CALLS || value(&churn_rounds) < CHURN_ROUNDS; i++) {
        char arguments[64], name[32], *content = NULL;
        aikido_tool_call call = {NULL, "stable", NULL, 0};
        aikido_status status;
        count(&calls);
        call.arguments = arguments;
        call.arguments_len = (size_t)snprintf(arguments, sizeof arguments, "{\"thread\":%ld,\"i\":%d}", id, i);
        status = aikido_registry_dispatch(registry, &call, NULL, &content, NULL);
        if (status == AIKIDO_OK && content != NULL && strcmp(content, arguments) == 0) count(&stable_ok);
        else count(&unexpected);
        aikido_string_free(content);

        snprintf(name, sizeof name, "flicker-%d", i % FLICKERING);
        call.name = name;
        call.arguments = NULL;
        call.arguments_len = 0;
        status = aikido_registry_dispatch(registry, &call, NULL, NULL, NULL);
        if (status == AIKIDO_OK) count(&flicker_ok);
        else if (status == AIKIDO_ERR_UNKNOWN_TOOL) count(&flicker_unknown);
        else count(&unexpected);
        /* Past CALLS only the churner's rounds are awaited: give it the CPU
         * (Valgrind runs one thread at a time, and a spinning dispatcher
         * once starved it until the run's time limit). */
        if (i >= CALLS) pause_briefly();
    }
    count(&dispatchers_done);
    return NULL;
}

static void register_flickering(int round) {
    int k;
    for (k = 0; k < FLICKERING; k++) {
        char name[32];
        snprintf(name, sizeof name, "flicker-%d", k);
        if (aikido_registry_register(registry, name, "Comes and goes.", "{\"type\":\"object\"}", flicker, NULL,
                                     free_flicker, NULL) == AIKIDO_OK)
            count(&flicker_registered);
        else
            count(&unexpected);
        /* Taken now: a second registration must be refused. */
        if (round % 7 == 0 &&
            aikido_registry_register(registry, name, NULL, NULL, flicker, NULL, free_flicker, NULL) !=
                AIKIDO_ERR_DUPLICATE_TOOL)
            count(&unexpected);
    }
}

static void unregister_flickering(void) {
    int k;
    for (k = 0; k < FLICKERING; k++) {
        char name[32];
        snprintf(name, sizeof name, "flicker-%d", k);
        if (aikido_registry_unregister(registry, name, NULL) != AIKIDO_OK) count(&unexpected);
    }
}

/* Registers and unregisters the flickering tools until the dispatchers are
 * done. It opens the start gate with them registered and waits for one call
 * to reach them, so that calls do overlap registration. */
static void *churner(void *argument) {
    int round;
    (void)argument;
    register_flickering(0);
    __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
    while (!value(&flicker_ok) && value(&dispatchers_done) < DISPATCHERS) pause_briefly();
    unregister_flickering();
    for (round = 1; value(&dispatchers_done) < DISPATCHERS; round++) {
        register_flickering(round);
        unregister_flickering();
        count(&churn_rounds);
    }
    return NULL;
}

/* Lists the definitions, at least LISTINGS times and until the dispatchers
 * are done: always a JSON array that holds the stable tool first. */
static void *lister(void *argument) {
    int i;
    (void)argument;
    while (!value(&started)) pause_briefly();
    for (i = 0; i < LISTINGS || value(&dispatchers_done) < DISPATCHERS; i++) {
        char *json = NULL;
        size_t len = aikido_registry_len(registry);
        count(&listings);
        if (aikido_registry_definitions(registry, &json, NULL) == AIKIDO_OK && json != NULL &&
            strncmp(json, "[{\"name\":\"stable\"}", 18) == 0 && json[strlen(json) - 1] == ']' && len >= 1 &&
            len <= 1 + FLICKERING)
            count(&listings_ok);
        aikido_string_free(json);
    }
    return NULL;
}

int main(void) {
    pthread_t threads[DISPATCHERS + 2];
    long i;
    registry = aikido_registry_new();
    CHECK_STATUS(aikido_registry_register(registry, "stable", NULL, NULL, stable, NULL, NULL, NULL), AIKIDO_OK);
    for (i = 0; i < DISPATCHERS; i++) CHECK(pthread_create(&threads[i], NULL, dispatcher, (void *)i) == 0);
    CHECK(pthread_create(&threads[DISPATCHERS], NULL, churner, NULL) == 0);
    CHECK(pthread_create(&threads[DISPATCHERS + 1], NULL, lister, NULL) == 0);
    for (i = 0; i < DISPATCHERS + 2; i++) CHECK(pthread_join(threads[i], NULL) == 0);

    CHECK(value(&unexpected) == 0);
    CHECK(value(&calls) >= (long)DISPATCHERS * CALLS);
    CHECK(value(&churn_rounds) >= CHURN_ROUNDS);
    CHECK(value(&stable_ok) == value(&calls));
    CHECK(value(&stable_runs) == value(&calls));
    CHECK(value(&flicker_ok) > 0);
    CHECK(value(&flicker_ok) + value(&flicker_unknown) == value(&calls));
    CHECK(value(&flicker_runs) == value(&flicker_ok));
    CHECK(value(&listings) >= LISTINGS);
    CHECK(value(&listings_ok) == value(&listings));
    /* Every flickering tool was unregistered at the end, and so freed exactly once. */
    CHECK(value(&flicker_registered) >= FLICKERING);
    CHECK(value(&flicker_freed) == value(&flicker_registered));
    CHECK(aikido_registry_len(registry) == 1);
    aikido_registry_free(registry);
    printf("threads: %ld registrations, %ld listings, %ld flickering calls ran, %ld found no tool\n",
           value(&flicker_registered), value(&listings), value(&flicker_ok), value(&flicker_unknown));
    return check_summary("threads");
}
