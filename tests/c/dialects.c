/* Provider dialects (SPEC section 4): definitions in every provider's
 * format, with and without strict mode; tool calls read from replies; and
 * respond, whose output is exactly what the program appends. */

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

/* Whether calls overlap, measured without timing them (timings fail on a
 * loaded machine or under Valgrind): each nap waits, up to `patience_ms`,
 * for all four calls of the round to have started, and the most naps
 * running at once is kept. */
static pthread_mutex_t round_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t round_changed = PTHREAD_COND_INITIALIZER;
static int round_arrived, round_inside, round_most;
static long patience_ms = 20000;

static aikido_status nap(void *userdata, const char *arguments, size_t arguments_len,
                         const aikido_environment *environment, aikido_reply *reply) {
    struct timespec deadline;
    (void)userdata;
    (void)environment;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += patience_ms / 1000;
    deadline.tv_nsec += (patience_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&round_lock);
    round_arrived += 1;
    round_inside += 1;
    if (round_inside > round_most) round_most = round_inside;
    pthread_cond_broadcast(&round_changed);
    while (round_arrived < 4) {
        if (pthread_cond_timedwait(&round_changed, &round_lock, &deadline) != 0) break;
    }
    round_inside -= 1;
    pthread_mutex_unlock(&round_lock);
    return aikido_reply_set_content(reply, arguments, arguments_len);
}

/* Starts a round; returns the most naps that ran at once in the last. */
static int next_round(long patience) {
    int most;
    pthread_mutex_lock(&round_lock);
    most = round_most;
    round_most = 0;
    round_arrived = 0;
    patience_ms = patience;
    pthread_mutex_unlock(&round_lock);
    return most;
}

static const char *READ_SCHEMA =
    "{\"properties\":{\"limit\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"}},"
    "\"required\":[\"path\"],\"type\":\"object\"}";

static aikido_registry *registry;

static void definitions_ok(uint32_t dialect, uint32_t flags, const char *want) {
    char *json = NULL, *error = NULL;
    CHECK_STATUS(aikido_registry_definitions_for(registry, dialect, flags, &json, &error), AIKIDO_OK);
    CHECK_STR(json, want);
    CHECK(error == NULL);
    aikido_string_free(json);
}

static void respond_ok(uint32_t dialect, const char *reply, uint32_t flags, const char *want) {
    char *messages = NULL, *error = NULL;
    CHECK_STATUS(aikido_registry_respond(registry, dialect, reply, strlen(reply), NULL, flags, &messages, &error),
                 AIKIDO_OK);
    CHECK_STR(messages, want);
    if (error != NULL) fprintf(stderr, "unexpected error: %s\n", error);
    aikido_string_free(messages);
    aikido_string_free(error);
}

static void respond_refused(uint32_t dialect, const char *reply, const char *fragment) {
    char *messages = (char *)"x", *error = NULL;
    CHECK_STATUS(aikido_registry_respond(registry, dialect, reply, strlen(reply), NULL, 0, &messages, &error),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK(messages == NULL);
    CHECK_CONTAINS(error, fragment);
    aikido_string_free(error);
}

int main(void) {
    char *json = NULL, *error = NULL;
    registry = aikido_registry_new();
    CHECK_STATUS(aikido_registry_register(registry, "read", "Read a file.", READ_SCHEMA, check_echo_handler, NULL, NULL, NULL),
                 AIKIDO_OK);
    CHECK_STATUS(aikido_registry_register(registry, "fail", NULL, NULL, check_failing_handler, NULL, NULL, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_register(registry, "nap", NULL, NULL, nap, NULL, NULL, NULL), AIKIDO_OK);

    /* Definitions. */
    definitions_ok(AIKIDO_DIALECT_ANTHROPIC, 0,
                   "[{\"name\":\"read\",\"description\":\"Read a file.\",\"input_schema\":"
                   "{\"properties\":{\"limit\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"}},"
                   "\"required\":[\"path\"],\"type\":\"object\"}},"
                   "{\"name\":\"fail\",\"input_schema\":{\"type\":\"object\",\"properties\":{}}},"
                   "{\"name\":\"nap\",\"input_schema\":{\"type\":\"object\",\"properties\":{}}}]");
    definitions_ok(AIKIDO_DIALECT_OPENAI_RESPONSES, AIKIDO_STRICT,
                   "[{\"type\":\"function\",\"name\":\"read\",\"description\":\"Read a file.\",\"parameters\":"
                   "{\"additionalProperties\":false,\"properties\":{\"limit\":{\"type\":[\"integer\",\"null\"]},"
                   "\"path\":{\"type\":\"string\"}},\"required\":[\"path\",\"limit\"],\"type\":\"object\"},"
                   "\"strict\":true},"
                   "{\"type\":\"function\",\"name\":\"fail\",\"parameters\":{\"additionalProperties\":false,"
                   "\"properties\":{},\"required\":[],\"type\":\"object\"},\"strict\":true},"
                   "{\"type\":\"function\",\"name\":\"nap\",\"parameters\":{\"additionalProperties\":false,"
                   "\"properties\":{},\"required\":[],\"type\":\"object\"},\"strict\":true}]");
    definitions_ok(AIKIDO_DIALECT_GEMINI, 0,
                   "[{\"functionDeclarations\":[{\"name\":\"read\",\"description\":\"Read a file.\",\"parameters\":"
                   "{\"properties\":{\"limit\":{\"type\":\"INTEGER\"},\"path\":{\"type\":\"STRING\"}},"
                   "\"required\":[\"path\"],\"type\":\"OBJECT\"}},{\"name\":\"fail\"},{\"name\":\"nap\"}]}]");
    CHECK_STATUS(aikido_registry_definitions(registry, &json, NULL), AIKIDO_OK);
    definitions_ok(AIKIDO_DIALECT_NEUTRAL, 0, json);
    aikido_string_free(json);
    json = NULL;
    CHECK_STATUS(aikido_registry_definitions_for(registry, 6, 0, &json, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK(json == NULL);
    CHECK_CONTAINS(error, "unknown dialect 6");
    aikido_string_free(error);
    CHECK_STATUS(aikido_registry_definitions_for(registry, AIKIDO_DIALECT_MCP, 0, NULL, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_definitions_for(NULL, AIKIDO_DIALECT_MCP, 0, &json, NULL), AIKIDO_ERR_INVALID_INPUT);

    /* A name the dialect cannot carry: nothing is written. */
    {
        aikido_registry *dotted = aikido_registry_new();
        CHECK_STATUS(aikido_registry_register(dotted, "files.read", NULL, NULL, check_echo_handler, NULL, NULL, NULL), AIKIDO_OK);
        CHECK_STATUS(aikido_registry_definitions_for(dotted, AIKIDO_DIALECT_OPENAI_CHAT, 0, &json, &error),
                     AIKIDO_ERR_INVALID_INPUT);
        CHECK(json == NULL);
        CHECK_CONTAINS(error, "tool \"files.read\" cannot be written for OpenAI Chat Completions");
        aikido_string_free(error);
        CHECK_STATUS(aikido_registry_definitions_for(dotted, AIKIDO_DIALECT_MCP, 0, &json, NULL), AIKIDO_OK);
        aikido_string_free(json);
        aikido_registry_free(dotted);
    }

    /* Parsing. */
    {
        const char *reply = "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":["
                            "{\"functionCall\":{\"name\":\"read\",\"args\":{\"path\": \"/a\", \"n\": 1.50}},"
                            "\"thoughtSignature\":\"c2ln\"},{\"text\":\"done\"}]}}]}";
        CHECK_STATUS(aikido_tool_calls_parse(AIKIDO_DIALECT_GEMINI, reply, strlen(reply), &json, &error), AIKIDO_OK);
        CHECK_STR(json, "[{\"id\":\"\",\"name\":\"read\",\"arguments\":\"{\\\"path\\\":\\\"/a\\\",\\\"n\\\":1.50}\"}]");
        aikido_string_free(json);
        CHECK_STATUS(aikido_tool_calls_parse(AIKIDO_DIALECT_ANTHROPIC, reply, strlen(reply), &json, &error),
                     AIKIDO_ERR_INVALID_INPUT);
        CHECK_CONTAINS(error, "looks like a Gemini reply");
        aikido_string_free(error);
        CHECK_STATUS(aikido_tool_calls_parse(AIKIDO_DIALECT_ANTHROPIC, NULL, 3, &json, &error),
                     AIKIDO_ERR_INVALID_INPUT);
        aikido_string_free(error);
        CHECK_STATUS(aikido_tool_calls_parse(AIKIDO_DIALECT_ANTHROPIC, "[\xff]", 3, &json, &error),
                     AIKIDO_ERR_INVALID_INPUT);
        CHECK_CONTAINS(error, "not valid UTF-8");
        aikido_string_free(error);
    }

    /* Respond, in every dialect that has replies. */
    respond_ok(AIKIDO_DIALECT_ANTHROPIC,
               "{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"},"
               "{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"read\",\"input\":{\"path\":\"/a\"}},"
               "{\"type\":\"tool_use\",\"id\":\"t2\",\"name\":\"fail\",\"input\":{}}]}",
               0,
               "[{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":"
               "\"{\\\"path\\\":\\\"/a\\\"}\"},{\"type\":\"tool_result\",\"tool_use_id\":\"t2\",\"content\":"
               "\"disk full\",\"is_error\":true}]}]");
    respond_ok(AIKIDO_DIALECT_OPENAI_CHAT,
               "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
               "\"function\":{\"name\":\"read\",\"arguments\":\"{\\\"path\\\":\"}}]}",
               0,
               "[{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"aikido/tools: invalid tool arguments "
               "for tool \\\"read\\\": the arguments are not valid JSON: the text ends at byte 8 where a JSON value should "
               "follow\"}]");
    respond_ok(AIKIDO_DIALECT_OPENAI_RESPONSES,
               "[{\"type\":\"reasoning\",\"id\":\"r\",\"summary\":[]},{\"type\":\"function_call\",\"call_id\":\"k\","
               "\"name\":\"read\",\"arguments\":\"{\\\"path\\\":\\\"/x\\\",\\\"limit\\\":null}\"}]",
               AIKIDO_STRICT,
               "[{\"type\":\"function_call_output\",\"call_id\":\"k\",\"output\":\"{\\\"path\\\":\\\"/x\\\"}\"}]");
    respond_ok(AIKIDO_DIALECT_GEMINI, "{\"role\":\"model\",\"parts\":[{\"text\":\"nothing to do\"}]}", 0, "[]");
    respond_refused(AIKIDO_DIALECT_OPENAI_CHAT, "{\"type\":\"message\",\"content\":[]}", "looks like an Anthropic");
    respond_refused(AIKIDO_DIALECT_GEMINI, "{\"candidates\": [}", "at byte 16 of the reply");
    respond_refused(AIKIDO_DIALECT_MCP, "[]", "MCP");

    /* Four naps run at once; sequential takes them in turn. Both keep the
     * calls' order. */
    {
        const char *reply = "[{\"name\":\"nap\",\"id\":\"1\"},{\"name\":\"nap\",\"id\":\"2\"},"
                            "{\"name\":\"nap\",\"id\":\"3\"},{\"name\":\"nap\",\"id\":\"4\"}]";
        const char *want = "[{\"id\":\"1\",\"name\":\"nap\",\"content\":\"{}\"},{\"id\":\"2\",\"name\":\"nap\","
                           "\"content\":\"{}\"},{\"id\":\"3\",\"name\":\"nap\",\"content\":\"{}\"},{\"id\":\"4\","
                           "\"name\":\"nap\",\"content\":\"{}\"}]";
        next_round(20000);
        respond_ok(AIKIDO_DIALECT_NEUTRAL, reply, 0, want);
        CHECK(next_round(20) == 4); /* all four ran at once */
        respond_ok(AIKIDO_DIALECT_NEUTRAL, reply, AIKIDO_RESPOND_SEQUENTIAL, want);
        CHECK(next_round(20000) == 1); /* one at a time */
    }

    /* Cancelled: no call runs, each reports dispatch's message. */
    {
        aikido_cancel *cancel = aikido_cancel_new();
        aikido_environment environment;
        const char *reply = "[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"read\",\"input\":{\"path\":\"/\"}}]";
        char *messages = NULL;
        memset(&environment, 0, sizeof environment);
        environment.session_id = "s";
        environment.cancel = cancel;
        aikido_cancel_fire(cancel);
        CHECK_STATUS(aikido_registry_respond(registry, AIKIDO_DIALECT_ANTHROPIC, reply, strlen(reply), &environment, 0,
                                             &messages, NULL),
                     AIKIDO_OK);
        CHECK_CONTAINS(messages, "aikido/tools: call cancelled: tool \\\"read\\\" was not run");
        CHECK_CONTAINS(messages, "\"is_error\":true");
        aikido_string_free(messages);
        CHECK_STATUS(aikido_registry_respond(registry, AIKIDO_DIALECT_ANTHROPIC, reply, strlen(reply), &environment, 4,
                                             &messages, &error),
                     AIKIDO_ERR_INVALID_INPUT);
        CHECK_CONTAINS(error, "unknown flags");
        aikido_string_free(error);
        aikido_cancel_free(cancel);
    }

    aikido_registry_free(registry);
    return check_summary("dialects");
}
