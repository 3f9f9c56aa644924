/* The C-ABI benchmark: what a C host pays per call of libaikido.
 *
 * Usage: dispatch [MEASURE [ITERATIONS]]
 * MEASURE is small, threads, large, definitions, rss or all (the default).
 * Each figure is printed as one line, `name<TAB>value<TAB>unit`, for
 * scripts/bench.sh to turn into the table. Timed figures are the median of
 * several rounds, and single-thread ones count the thread's CPU time, since
 * the machine may be shared.
 *
 * Built -O2 against the static library with malloc, calloc, realloc and
 * posix_memalign wrapped (-Wl,--wrap=...), so that it also counts the
 * allocations libaikido makes per call. */

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aikido.h"
#include "workload.h"

#define ROUNDS 7

/* ---- allocation counting: per thread, so the threads never share a line ---- */

static _Thread_local unsigned long allocations;

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *pointer, size_t size);
int __real_posix_memalign(void **out, size_t alignment, size_t size);

void *__wrap_malloc(size_t size) {
    allocations++;
    return __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size) {
    allocations++;
    return __real_calloc(count, size);
}

void *__wrap_realloc(void *pointer, size_t size) {
    allocations++;
    return __real_realloc(pointer, size);
}

int __wrap_posix_memalign(void **out, size_t alignment, size_t size) {
    allocations++;
    return __real_posix_memalign(out, alignment, size);
}

/* ---- helpers ---- */

static void fail(const char *what, aikido_status status, char *error) {
    fprintf(stderr, "dispatch bench: %s failed: %s: %s\n", what, aikido_status_name(status),
            error ? error : "(no message)");
    aikido_string_free(error);
    exit(1);
}

static double clock_ns(clockid_t clock) {
    struct timespec time;
    clock_gettime(clock, &time);
    return (double)time.tv_sec * 1e9 + (double)time.tv_nsec;
}

/* Wall time, for the threads' throughput. */
static double now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

/* The time this thread ran: single-thread figures use it, so that other
 * work on a shared machine does not count as ours. */
static double cpu_ns(void) { return clock_ns(CLOCK_THREAD_CPUTIME_ID); }

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    return values[count / 2];
}

static long resident_kib(void) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (status && fgets(line, sizeof line, status)) {
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kib = strtol(line + 6, NULL, 10);
        }
    }
    if (status) {
        fclose(status);
    }
    return kib;
}

/* ---- the tools ---- */

static const char LARGE_SCHEMA[] = "{\"type\":\"object\",\"required\":[\"records\"]}";

static void register_tool(aikido_registry *registry, const char *name, const char *description,
                          const char *schema) {
    char *error = NULL;
    aikido_status status =
        aikido_registry_register(registry, name, description, schema, reply_ok, NULL, NULL, &error);
    if (status != AIKIDO_OK) {
        fail("register", status, error);
    }
}

/* One dispatch as a host makes it: call, check, free the reply. */
static void dispatch_once(const aikido_registry *registry, const aikido_tool_call *call,
                          const aikido_environment *environment) {
    char *content = NULL;
    char *error = NULL;
    aikido_status status = aikido_registry_dispatch(registry, call, environment, &content, &error);
    if (status != AIKIDO_OK) {
        fail("dispatch", status, error);
    }
    aikido_string_free(content);
}

static void run_calls(const aikido_registry *registry, const aikido_tool_call *call,
                      const aikido_environment *environment, long iterations) {
    for (long i = 0; i < iterations; i++) {
        dispatch_once(registry, call, environment);
    }
}

struct fixture {
    aikido_registry *registry;
    aikido_cancel *cancel;
    aikido_environment environment;
    aikido_tool_call small_call;
};

static struct fixture fixture_new(void) {
    struct fixture fixture;
    fixture.registry = aikido_registry_new();
    fixture.cancel = aikido_cancel_new();
    register_tool(fixture.registry, "read_file", "Read lines of a file.", SMALL_SCHEMA);
    fixture.environment.session_id = "session-1";
    aikido_uuid_new_v7(fixture.environment.turn_id);
    fixture.environment.cancel = fixture.cancel;
    fixture.small_call.id = "call-1";
    fixture.small_call.name = "read_file";
    fixture.small_call.arguments = SMALL_ARGUMENTS;
    fixture.small_call.arguments_len = sizeof SMALL_ARGUMENTS - 1;
    return fixture;
}

static void fixture_free(struct fixture *fixture) {
    aikido_registry_free(fixture->registry);
    aikido_cancel_free(fixture->cancel);
}

/* ---- 1 and 2: one small dispatch, and its allocations ---- */

static void measure_small(long iterations) {
    struct fixture fixture = fixture_new();
    double per_call[ROUNDS];
    run_calls(fixture.registry, &fixture.small_call, &fixture.environment, iterations / 10 + 1);
    for (int round = 0; round < ROUNDS; round++) {
        double start = cpu_ns();
        run_calls(fixture.registry, &fixture.small_call, &fixture.environment, iterations);
        per_call[round] = (cpu_ns() - start) / (double)iterations;
    }
    printf("small_dispatch_ns\t%.1f\tns\n", median(per_call, ROUNDS));

    unsigned long before = allocations;
    run_calls(fixture.registry, &fixture.small_call, &fixture.environment, 1000);
    printf("small_dispatch_allocations\t%.2f\tallocations/call\n", (double)(allocations - before) / 1000.0);
    fixture_free(&fixture);
}

/* ---- 4: two threads on one registry ---- */

struct worker {
    const struct fixture *fixture; /* NULL: the arithmetic control */
    long iterations;
};

static volatile uint64_t sink;

static void *worker_run(void *argument) {
    const struct worker *worker = argument;
    if (worker->fixture) {
        run_calls(worker->fixture->registry, &worker->fixture->small_call, &worker->fixture->environment,
                  worker->iterations);
    } else {
        uint64_t state = 1;
        for (long i = 0; i < worker->iterations * 100; i++) {
            state = state * 6364136223846793005u + 1442695040888963407u;
        }
        sink = state;
    }
    return NULL;
}

/* Calls per second with `threads` threads each making `iterations` calls. */
static double throughput(const struct fixture *fixture, int threads, long iterations) {
    pthread_t ids[2];
    struct worker worker = {fixture, iterations};
    double start = now_ns();
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&ids[i], NULL, worker_run, &worker) != 0) {
            fprintf(stderr, "dispatch bench: pthread_create failed\n");
            exit(1);
        }
    }
    for (int i = 0; i < threads; i++) {
        pthread_join(ids[i], NULL);
    }
    return (double)threads * (double)iterations / ((now_ns() - start) / 1e9);
}

/* Two threads' throughput over one thread's, median of alternating rounds
 * so that both see the same machine load. */
static double scaling(const struct fixture *fixture, long iterations) {
    double ratio[ROUNDS];
    throughput(fixture, 2, iterations / 10 + 1);
    for (int round = 0; round < ROUNDS; round++) {
        double one = throughput(fixture, 1, iterations);
        double two = throughput(fixture, 2, iterations);
        ratio[round] = two / one;
    }
    return median(ratio, ROUNDS);
}

static void measure_threads(long iterations) {
    struct fixture fixture = fixture_new();
    printf("two_thread_scaling\t%.2f\tx\n", scaling(&fixture, iterations));
    /* What the machine gives two threads at all right now: a busy or
     * single-core machine caps the figure above. */
    printf("machine_scaling\t%.2f\tx\n", scaling(NULL, iterations));
    fixture_free(&fixture);
}

/* ---- 3: 1 MiB of arguments ---- */

/* An object holding an array of small records, as a model might send a
 * batch: strings (some with escapes or non-ASCII text), integers, decimals,
 * booleans, null and small nested objects and arrays. About 100 bytes each. */
static char *large_arguments(size_t target, size_t *length, long *records) {
    static const char *const names[] = {"alpha", "beta", "gamma", "caf\xc3\xa9", "tab\\there", "\\u00e9t\\u00e9"};
    char *text = malloc(target + 256);
    size_t used = (size_t)sprintf(text, "{\"batch\":\"nightly\",\"records\":[");
    long count = 0;
    while (used < target - 160) {
        used += (size_t)sprintf(text + used,
                                "%s{\"id\":%ld,\"name\":\"%s\",\"cost\":%ld.%02ld,\"ok\":%s,"
                                "\"tags\":[\"%s\"],\"at\":{\"x\":%ld,\"y\":-%ld},\"note\":null}",
                                count ? "," : "", count, names[count % 6], count % 97, count % 100,
                                count % 3 ? "true" : "false", names[(count + 1) % 6], count % 50, count % 7);
        count++;
    }
    used += (size_t)sprintf(text + used, "],\"total\":%ld,\"ratio\":1.5e-3}", count);
    while (used < target - 1) {
        text[used++] = ' '; /* trailing whitespace pads to exactly `target` bytes */
    }
    text[used++] = '\n';
    *length = used;
    *records = count;
    return text;
}

static void measure_large(long iterations) {
    aikido_registry *registry = aikido_registry_new();
    register_tool(registry, "import_records", "Import a batch of records.", LARGE_SCHEMA);
    size_t length;
    long records;
    char *arguments = large_arguments(1 << 20, &length, &records);
    aikido_tool_call call = {"call-2", "import_records", arguments, length};
    double per_call[ROUNDS];
    run_calls(registry, &call, NULL, 2);
    for (int round = 0; round < ROUNDS; round++) {
        double start = cpu_ns();
        run_calls(registry, &call, NULL, iterations);
        per_call[round] = (cpu_ns() - start) / (double)iterations;
    }
    printf("large_records\t%ld\trecords\n", records);
    printf("large_dispatch_gbps\t%.2f\tGB/s\n", (double)length / median(per_call, ROUNDS));
    free(arguments);
    aikido_registry_free(registry);
}

/* ---- 11 to 13: full validation (AIKIDO_VALIDATE_FULL) ---- */

/* The records of large_arguments, described whole: every field typed, with
 * bounds, so that FULL mode checks every value of the 1 MiB document. */
static const char RECORDS_SCHEMA[] =
    "{\"type\":\"object\",\"required\":[\"records\"],\"properties\":{"
    "\"batch\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\",\"minimum\":0},"
    "\"ratio\":{\"type\":\"number\"},"
    "\"records\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"required\":[\"id\",\"name\"],"
    "\"properties\":{\"id\":{\"type\":\"integer\",\"minimum\":0},\"name\":{\"type\":\"string\",\"maxLength\":64},"
    "\"cost\":{\"type\":\"number\"},\"ok\":{\"type\":\"boolean\"},"
    "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
    "\"at\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"integer\"},\"y\":{\"type\":\"integer\"}}},"
    "\"note\":{\"type\":[\"string\",\"null\"]}}}}}}";

static void set_mode(aikido_registry *registry, uint32_t mode) {
    char *error = NULL;
    aikido_status status = aikido_registry_set_validation(registry, mode, &error);
    if (status != AIKIDO_OK) {
        fail("set_validation", status, error);
    }
}

/* The small dispatch in REQUIRED and FULL mode, alternating rounds in one
 * run, so that both see the same machine; FULL's allocations per call. */
static void measure_validation(long iterations) {
    struct fixture required = fixture_new();
    struct fixture full = fixture_new();
    set_mode(full.registry, AIKIDO_VALIDATE_FULL);
    double required_ns[ROUNDS], full_ns[ROUNDS];
    run_calls(required.registry, &required.small_call, &required.environment, iterations / 10 + 1);
    run_calls(full.registry, &full.small_call, &full.environment, iterations / 10 + 1);
    for (int round = 0; round < ROUNDS; round++) {
        double start = cpu_ns();
        run_calls(required.registry, &required.small_call, &required.environment, iterations);
        required_ns[round] = (cpu_ns() - start) / (double)iterations;
        start = cpu_ns();
        run_calls(full.registry, &full.small_call, &full.environment, iterations);
        full_ns[round] = (cpu_ns() - start) / (double)iterations;
    }
    double required_median = median(required_ns, ROUNDS), full_median = median(full_ns, ROUNDS);
    printf("small_required_ns\t%.1f\tns\n", required_median);
    printf("small_full_ns\t%.1f\tns\n", full_median);
    printf("full_over_required\t%.2f\tx\n", full_median / required_median);
    unsigned long before = allocations;
    run_calls(full.registry, &full.small_call, &full.environment, 1000);
    printf("small_full_allocations\t%.2f\tallocations/call\n", (double)(allocations - before) / 1000.0);
    fixture_free(&required);
    fixture_free(&full);

    aikido_registry *registry = aikido_registry_new();
    set_mode(registry, AIKIDO_VALIDATE_FULL);
    register_tool(registry, "import_records", "Import a batch of records.", RECORDS_SCHEMA);
    size_t length;
    long records;
    char *arguments = large_arguments(1 << 20, &length, &records);
    aikido_tool_call call = {"call-3", "import_records", arguments, length};
    double per_call[ROUNDS];
    long large_iterations = iterations / 10000 + 2;
    run_calls(registry, &call, NULL, 2);
    for (int round = 0; round < ROUNDS; round++) {
        double start = cpu_ns();
        run_calls(registry, &call, NULL, large_iterations);
        per_call[round] = (cpu_ns() - start) / (double)large_iterations;
    }
    printf("large_full_mbps\t%.0f\tMB/s\n", (double)length * 1000.0 / median(per_call, ROUNDS));
    free(arguments);
    aikido_registry_free(registry);
}

/* ---- 5: definitions of 100 tools ---- */

static void measure_definitions(long iterations) {
    aikido_registry *registry = aikido_registry_new();
    for (int i = 0; i < 100; i++) {
        char name[32];
        snprintf(name, sizeof name, "tool_%03d", i);
        register_tool(registry, name, "Read lines of a file, from an offset, up to a limit.", SMALL_SCHEMA);
    }
    double per_call[ROUNDS];
    size_t bytes = 0;
    for (int round = -1; round < ROUNDS; round++) {
        double start = cpu_ns();
        for (long i = 0; i < iterations; i++) {
            char *json = NULL;
            char *error = NULL;
            aikido_status status = aikido_registry_definitions(registry, &json, &error);
            if (status != AIKIDO_OK) {
                fail("definitions", status, error);
            }
            bytes = strlen(json);
            aikido_string_free(json);
        }
        if (round >= 0) { /* round -1 warms the cache */
            per_call[round] = (cpu_ns() - start) / (double)iterations;
        }
    }
    printf("definitions_bytes\t%zu\tbytes\n", bytes);
    printf("definitions_100_ns\t%.1f\tns\n", median(per_call, ROUNDS));
    aikido_registry_free(registry);
}

/* ---- 7: resident memory over many dispatches ---- */

static void measure_rss(long iterations) {
    struct fixture fixture = fixture_new();
    run_calls(fixture.registry, &fixture.small_call, &fixture.environment, 100000);
    long before = resident_kib();
    run_calls(fixture.registry, &fixture.small_call, &fixture.environment, iterations);
    long after = resident_kib();
    printf("rss_dispatches\t%ld\tcalls\n", iterations);
    printf("rss_growth_kib\t%ld\tKiB\n", after - before);
    fixture_free(&fixture);
}

int main(int argc, char **argv) {
    const char *measure = argc > 1 ? argv[1] : "all";
    long iterations = argc > 2 ? atol(argv[2]) : 0;
    int all = strcmp(measure, "all") == 0;
    int known = all;
    if (all || strcmp(measure, "small") == 0) {
        measure_small(iterations ? iterations : 1000000);
        known = 1;
    }
    if (all || strcmp(measure, "threads") == 0) {
        measure_threads(iterations ? iterations : 1000000);
        known = 1;
    }
    if (all || strcmp(measure, "large") == 0) {
        measure_large(iterations ? iterations : 100);
        known = 1;
    }
    if (all || strcmp(measure, "definitions") == 0) {
        measure_definitions(iterations ? iterations : 100000);
        known = 1;
    }
    if (all || strcmp(measure, "validation") == 0) {
        measure_validation(iterations ? iterations : 300000);
        known = 1;
    }
    if (all || strcmp(measure, "rss") == 0) {
        measure_rss(iterations ? iterations : 10000000);
        known = 1;
    }
    if (!known) {
        fprintf(stderr, "usage: %s [small|threads|large|definitions|rss|validation|all] [iterations]\n", argv[0]);
        return 2;
    }
    return 0;
}
