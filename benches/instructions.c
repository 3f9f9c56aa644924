/* Deterministic workloads for counting instructions (scripts/instructions.sh)
 * and the registry's scaling curve (scripts/bench.sh).
 *
 * Usage: instructions MEASURE ITERATIONS
 *   dispatch_small   one small dispatch through the C ABI (75-byte arguments,
 *                    two required fields, a handler answering "ok")
 *   definitions_100  aikido_registry_definitions of 100 tools (cached)
 *   full_small       the small dispatch in AIKIDO_VALIDATE_FULL mode
 *   respond_one      aikido_registry_respond of an Anthropic reply holding one
 *                    call, sequential, its result written back
 *   shell_echo       `echo hi` through the bash tool's dispatch
 *   scale TOOLS      register TOOLS tools, then time one `definitions` of
 *                    them; ITERATIONS dispatches of one of them are counted
 *
 * Each measure sets up, warms up, then runs ITERATIONS times between
 * CALLGRIND_START_INSTRUMENTATION and CALLGRIND_STOP_INSTRUMENTATION, so that
 * `valgrind --tool=callgrind --instr-atstart=no` counts the loop alone
 * (and runs the setup at nearly native speed). Outside valgrind the
 * requests do nothing. No timing decides anything here, so two runs count
 * the same instructions. */

#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

#include "aikido.h"
#include "workload.h"

#define WARM_UP 100

static void fail(const char *what, aikido_status status, char *error) {
    fprintf(stderr, "instructions: %s failed: %s: %s\n", what, aikido_status_name(status),
            error ? error : "(no message)");
    aikido_string_free(error);
    exit(1);
}

static void check(const char *what, aikido_status status, char *error) {
    if (status != AIKIDO_OK) {
        fail(what, status, error);
    }
}

static void register_tool(aikido_registry *registry, const char *name, const char *schema) {
    char *error = NULL;
    check("register", aikido_registry_register(registry, name, "Read lines of a file.", schema, reply_ok, NULL, NULL,
                                               &error),
          error);
}

static double cpu_seconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

struct call_fixture {
    aikido_registry *registry;
    aikido_cancel *cancel;
    aikido_environment environment;
    aikido_tool_call call;
};

static struct call_fixture call_fixture(aikido_registry *registry, const char *tool, const char *arguments) {
    struct call_fixture fixture;
    fixture.registry = registry;
    fixture.cancel = aikido_cancel_new();
    fixture.environment.session_id = "session-1";
    memset(fixture.environment.turn_id, 7, sizeof fixture.environment.turn_id);
    fixture.environment.cancel = fixture.cancel;
    fixture.call.id = "call-1";
    fixture.call.name = tool;
    fixture.call.arguments = arguments;
    fixture.call.arguments_len = strlen(arguments);
    return fixture;
}

static void dispatch_once(const struct call_fixture *fixture) {
    char *content = NULL;
    char *error = NULL;
    check("dispatch",
          aikido_registry_dispatch(fixture->registry, &fixture->call, &fixture->environment, &content, &error),
          error);
    aikido_string_free(content);
}

/* Warms up, then counts `iterations` dispatches of the fixture's call. */
static void count_dispatches(const struct call_fixture *fixture, long iterations) {
    for (int i = 0; i < WARM_UP; i++) {
        dispatch_once(fixture);
    }
    CALLGRIND_START_INSTRUMENTATION;
    for (long i = 0; i < iterations; i++) {
        dispatch_once(fixture);
    }
    CALLGRIND_STOP_INSTRUMENTATION;
}

static void free_fixture(struct call_fixture *fixture) {
    aikido_cancel_free(fixture->cancel);
    aikido_registry_free(fixture->registry);
}

static void measure_dispatch(long iterations, uint32_t mode) {
    aikido_registry *registry = aikido_registry_new();
    char *error = NULL;
    check("set_validation", aikido_registry_set_validation(registry, mode, &error), error);
    register_tool(registry, "read_file", SMALL_SCHEMA);
    struct call_fixture fixture = call_fixture(registry, "read_file", SMALL_ARGUMENTS);
    count_dispatches(&fixture, iterations);
    free_fixture(&fixture);
}

static void definitions_once(const aikido_registry *registry) {
    char *json = NULL;
    char *error = NULL;
    check("definitions", aikido_registry_definitions(registry, &json, &error), error);
    aikido_string_free(json);
}

static void measure_definitions(long iterations) {
    aikido_registry *registry = aikido_registry_new();
    for (int i = 0; i < 100; i++) {
        char name[32];
        snprintf(name, sizeof name, "tool_%03d", i);
        register_tool(registry, name, SMALL_SCHEMA);
    }
    for (int i = 0; i < WARM_UP; i++) {
        definitions_once(registry);
    }
    CALLGRIND_START_INSTRUMENTATION;
    for (long i = 0; i < iterations; i++) {
        definitions_once(registry);
    }
    CALLGRIND_STOP_INSTRUMENTATION;
    aikido_registry_free(registry);
}

static void respond_once(const struct call_fixture *fixture, const char *reply) {
    char *messages = NULL;
    char *error = NULL;
    check("respond",
          aikido_registry_respond(fixture->registry, AIKIDO_DIALECT_ANTHROPIC, reply, strlen(reply),
                                  &fixture->environment, AIKIDO_RESPOND_SEQUENTIAL, &messages, &error),
          error);
    aikido_string_free(messages);
}

static void measure_respond(long iterations) {
    static const char REPLY[] =
        "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Reading it.\"},"
        "{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"read_file\",\"input\":"
        "{\"path\":\"/var/log/syslog\",\"limit\":200,\"encoding\":\"utf-8\",\"follow\":false}}],"
        "\"stop_reason\":\"tool_use\"}";
    aikido_registry *registry = aikido_registry_new();
    register_tool(registry, "read_file", SMALL_SCHEMA);
    struct call_fixture fixture = call_fixture(registry, "read_file", SMALL_ARGUMENTS);
    for (int i = 0; i < WARM_UP; i++) {
        respond_once(&fixture, REPLY);
    }
    CALLGRIND_START_INSTRUMENTATION;
    for (long i = 0; i < iterations; i++) {
        respond_once(&fixture, REPLY);
    }
    CALLGRIND_STOP_INSTRUMENTATION;
    free_fixture(&fixture);
}

static void measure_shell(long iterations) {
    aikido_registry *registry = aikido_registry_new();
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    char *error = NULL;
    check("register_shell_tool", aikido_registry_register_shell_tool(registry, storage, NULL, &error), error);
    aikido_storage_free(storage);
    struct call_fixture fixture = call_fixture(registry, "bash", "{\"command\":\"echo hi\"}");
    count_dispatches(&fixture, iterations);
    free_fixture(&fixture);
}

/* Registers `tools` tools (timed), lists them once (timed), and counts
 * `iterations` dispatches of the tool in the middle. */
static void measure_scale(long tools, long iterations) {
    aikido_registry *registry = aikido_registry_new();
    char name[32];
    double start = cpu_seconds();
    for (long i = 0; i < tools; i++) {
        snprintf(name, sizeof name, "tool_%07ld", i);
        register_tool(registry, name, SMALL_SCHEMA);
    }
    double registered = cpu_seconds();
    definitions_once(registry);
    double listed = cpu_seconds();
    printf("scale_register_s\t%ld\t%.3f\n", tools, registered - start);
    printf("scale_definitions_s\t%ld\t%.3f\n", tools, listed - registered);
    snprintf(name, sizeof name, "tool_%07ld", tools / 2);
    struct call_fixture fixture = call_fixture(registry, name, SMALL_ARGUMENTS);
    count_dispatches(&fixture, iterations);
    free_fixture(&fixture);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr,
                "usage: %s dispatch_small|definitions_100|full_small|respond_one|shell_echo ITERATIONS\n"
                "       %s scale TOOLS ITERATIONS\n",
                argv[0], argv[0]);
        return 2;
    }
    const char *measure = argv[1];
    long iterations = atol(argv[2]);
    if (strcmp(measure, "dispatch_small") == 0) {
        measure_dispatch(iterations, AIKIDO_VALIDATE_REQUIRED);
    } else if (strcmp(measure, "full_small") == 0) {
        measure_dispatch(iterations, AIKIDO_VALIDATE_FULL);
    } else if (strcmp(measure, "definitions_100") == 0) {
        measure_definitions(iterations);
    } else if (strcmp(measure, "respond_one") == 0) {
        measure_respond(iterations);
    } else if (strcmp(measure, "shell_echo") == 0) {
        measure_shell(iterations);
    } else if (strcmp(measure, "scale") == 0 && argc > 3) {
        measure_scale(iterations, atol(argv[3]));
    } else {
        fprintf(stderr, "instructions: unknown measure %s\n", measure);
        return 2;
    }
    return 0;
}
