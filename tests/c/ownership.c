/* Who owns userdata: userdata_free runs exactly once after a successful
 * registration, never after a failed one, and never while a call of the tool
 * is still running. */

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

/* Userdata that counts its own frees and knows whether its handler is running. */
typedef struct owned {
    int frees;
    int running;
    int freed_while_running;
    int frees_seen_inside; /* frees counted from inside the handler, after it unregistered itself */
    aikido_registry *registry;
    const char *name;
} owned;

static void free_owned(void *userdata) {
    owned *data = userdata;
    if (__atomic_load_n(&data->running, __ATOMIC_ACQUIRE)) data->freed_while_running = 1;
    __atomic_add_fetch(&data->frees, 1, __ATOMIC_ACQ_REL);
}

static aikido_status answer(void *userdata, const char *arguments, size_t arguments_len,
                            const aikido_environment *environment, aikido_reply *reply) {
    (void)userdata, (void)arguments, (void)arguments_len, (void)environment;
    return aikido_reply_set_content(reply, "ok", 2);
}

static void freed_once_on_unregister(void) {
    aikido_registry *registry = aikido_registry_new();
    owned data;
    memset(&data, 0, sizeof data);
    CHECK_STATUS(aikido_registry_register(registry, "tool", NULL, NULL, answer, &data, free_owned, NULL), AIKIDO_OK);
    CHECK(data.frees == 0);
    CHECK_STATUS(aikido_registry_unregister(registry, "tool", NULL), AIKIDO_OK);
    CHECK(data.frees == 1);
    CHECK_STATUS(aikido_registry_unregister(registry, "tool", NULL), AIKIDO_ERR_UNKNOWN_TOOL);
    aikido_registry_free(registry);
    CHECK(data.frees == 1);
}

static void freed_once_per_tool_on_registry_free(void) {
    aikido_registry *registry = aikido_registry_new();
    owned data[3];
    const char *names[] = {"a", "b", "c"};
    int i;
    memset(data, 0, sizeof data);
    for (i = 0; i < 3; i++)
        CHECK_STATUS(aikido_registry_register(registry, names[i], NULL, NULL, answer, &data[i], free_owned, NULL),
                     AIKIDO_OK);
    /* A tool without userdata_free is fine too. */
    CHECK_STATUS(aikido_registry_register(registry, "d", NULL, NULL, answer, &data[0], NULL, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_unregister(registry, "b", NULL), AIKIDO_OK);
    CHECK(data[0].frees == 0 && data[1].frees == 1 && data[2].frees == 0);
    aikido_registry_free(registry);
    CHECK(data[0].frees == 1 && data[1].frees == 1 && data[2].frees == 1);
}

static void never_freed_when_registration_fails(void) {
    aikido_registry *registry = aikido_registry_new();
    owned kept, refused;
    memset(&kept, 0, sizeof kept);
    memset(&refused, 0, sizeof refused);
    CHECK_STATUS(aikido_registry_register(registry, "taken", NULL, NULL, answer, &kept, free_owned, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_register(registry, "taken", NULL, NULL, answer, &refused, free_owned, NULL),
                 AIKIDO_ERR_DUPLICATE_TOOL);
    CHECK_STATUS(aikido_registry_register(registry, "", NULL, NULL, answer, &refused, free_owned, NULL),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(aikido_registry_register(registry, NULL, NULL, NULL, answer, &refused, free_owned, NULL),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(aikido_registry_register(registry, "x", NULL, NULL, NULL, &refused, free_owned, NULL),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(aikido_registry_register(registry, "x", NULL, "{\"type\"", answer, &refused, free_owned, NULL),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(aikido_registry_register(registry, "x\xff", NULL, NULL, answer, &refused, free_owned, NULL),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(aikido_registry_register(registry, "x", "\xff", NULL, answer, &refused, free_owned, NULL),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(aikido_registry_register(NULL, "x", NULL, NULL, answer, &refused, free_owned, NULL),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK(refused.frees == 0);
    aikido_registry_free(registry);
    CHECK(refused.frees == 0 && kept.frees == 1);
}

/* Userdata on the heap: the registry's free releases it, so Valgrind and
 * ASan see a leak or a double free if the count is wrong. */
static void free_heap(void *userdata) { free(userdata); }

static void heap_userdata(void) {
    aikido_registry *registry = aikido_registry_new();
    char *mine = malloc(32);
    CHECK_STATUS(aikido_registry_register(registry, "heap", NULL, NULL, answer, malloc(64), free_heap, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_register(registry, "heap2", NULL, NULL, answer, malloc(64), free_heap, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_unregister(registry, "heap", NULL), AIKIDO_OK);
    /* A refused registration leaves the buffer ours to free. */
    CHECK_STATUS(aikido_registry_register(registry, "heap2", NULL, NULL, answer, mine, free_heap, NULL),
                 AIKIDO_ERR_DUPLICATE_TOOL);
    free(mine);
    aikido_registry_free(registry);
}

/* Unregisters its own tool, then checks it was not freed under it. */
static aikido_status unregisters_itself(void *userdata, const char *arguments, size_t arguments_len,
                                        const aikido_environment *environment, aikido_reply *reply) {
    owned *data = userdata;
    aikido_status status;
    (void)arguments, (void)arguments_len, (void)environment;
    __atomic_store_n(&data->running, 1, __ATOMIC_RELEASE);
    status = aikido_registry_unregister(data->registry, data->name, NULL);
    data->frees_seen_inside = __atomic_load_n(&data->frees, __ATOMIC_ACQUIRE);
    __atomic_store_n(&data->running, 0, __ATOMIC_RELEASE);
    return status == AIKIDO_OK ? aikido_reply_set_content(reply, "gone", 4) : AIKIDO_ERR_TOOL_FAILED;
}

static void not_freed_under_its_own_handler(void) {
    aikido_registry *registry = aikido_registry_new();
    aikido_tool_call call = {NULL, "self", NULL, 0};
    owned data;
    char *content = NULL;
    memset(&data, 0, sizeof data);
    data.registry = registry;
    data.name = "self";
    CHECK_STATUS(aikido_registry_register(registry, "self", NULL, NULL, unregisters_itself, &data, free_owned, NULL),
                 AIKIDO_OK);
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, NULL, &content, NULL), AIKIDO_OK);
    CHECK_STR(content, "gone");
    aikido_string_free(content);
    CHECK(data.frees_seen_inside == 0);
    CHECK(data.frees == 1);
    CHECK(!data.freed_while_running);
    CHECK(aikido_registry_len(registry) == 0);
    aikido_registry_free(registry);
    CHECK(data.frees == 1);
}

/* Blocks until the test lets it go, so that another thread can unregister
 * the tool while this call is in flight. */
typedef struct gate {
    owned data;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int entered, released;
} gate;

static aikido_status waits_at_gate(void *userdata, const char *arguments, size_t arguments_len,
                                   const aikido_environment *environment, aikido_reply *reply) {
    gate *g = userdata;
    (void)arguments, (void)arguments_len, (void)environment;
    __atomic_store_n(&g->data.running, 1, __ATOMIC_RELEASE);
    pthread_mutex_lock(&g->lock);
    g->entered = 1;
    pthread_cond_broadcast(&g->changed);
    while (!g->released) pthread_cond_wait(&g->changed, &g->lock);
    pthread_mutex_unlock(&g->lock);
    __atomic_store_n(&g->data.running, 0, __ATOMIC_RELEASE);
    return aikido_reply_set_content(reply, "finished", 8);
}

typedef struct in_flight {
    aikido_registry *registry;
    aikido_status status;
    char *content;
} in_flight;

static void *dispatch_gated(void *argument) {
    in_flight *run = argument;
    aikido_tool_call call = {NULL, "gated", NULL, 0};
    run->status = aikido_registry_dispatch(run->registry, &call, NULL, &run->content, NULL);
    return NULL;
}

static void not_freed_while_another_thread_runs_it(void) {
    aikido_registry *registry = aikido_registry_new();
    gate g;
    in_flight run;
    pthread_t thread;
    memset(&g, 0, sizeof g);
    pthread_mutex_init(&g.lock, NULL);
    pthread_cond_init(&g.changed, NULL);
    run.registry = registry;
    run.content = NULL;
    CHECK_STATUS(aikido_registry_register(registry, "gated", NULL, NULL, waits_at_gate, &g, free_owned, NULL),
                 AIKIDO_OK);
    CHECK(pthread_create(&thread, NULL, dispatch_gated, &run) == 0);
    pthread_mutex_lock(&g.lock);
    while (!g.entered) pthread_cond_wait(&g.changed, &g.lock);
    pthread_mutex_unlock(&g.lock);

    /* Unregistered while in flight: gone from the registry, not yet freed. */
    CHECK_STATUS(aikido_registry_unregister(registry, "gated", NULL), AIKIDO_OK);
    CHECK(aikido_registry_len(registry) == 0);
    CHECK(__atomic_load_n(&g.data.frees, __ATOMIC_ACQUIRE) == 0);

    pthread_mutex_lock(&g.lock);
    g.released = 1;
    pthread_cond_broadcast(&g.changed);
    pthread_mutex_unlock(&g.lock);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_STATUS(run.status, AIKIDO_OK);
    CHECK_STR(run.content, "finished");
    aikido_string_free(run.content);
    CHECK(g.data.frees == 1);
    CHECK(!g.data.freed_while_running);
    aikido_registry_free(registry);
    CHECK(g.data.frees == 1);
    pthread_cond_destroy(&g.changed);
    pthread_mutex_destroy(&g.lock);
}

int main(void) {
    freed_once_on_unregister();
    freed_once_per_tool_on_registry_free();
    never_freed_when_registration_fails();
    heap_userdata();
    not_freed_under_its_own_handler();
    not_freed_while_another_thread_runs_it();
    return check_summary("ownership");
}
