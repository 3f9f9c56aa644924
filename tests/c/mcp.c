/* The MCP server from C: one message at a time (handshake, listing, calls,
 * tool errors, protocol errors, notifications, bad input), and the stdio
 * transport over two pipes, with a call cancelled from another thread. */

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

/* Waits until its call is cancelled (at most about 20 s). */
static aikido_status waiting(void *userdata, const char *arguments, size_t arguments_len,
                             const aikido_environment *environment, aikido_reply *reply) {
    int rounds;
    struct timespec pause = {0, 1000000};
    (void)userdata;
    (void)arguments;
    (void)arguments_len;
    for (rounds = 0; rounds < 20000 && !aikido_cancel_is_fired(environment->cancel); rounds++) {
        nanosleep(&pause, NULL);
    }
    return aikido_reply_set_content(reply, "stopped", 7);
}

/* Handles one message; returns the response (or NULL) for the caller to free. */
static char *handle(aikido_mcp_server *server, const char *message) {
    char *response = NULL, *error = NULL;
    CHECK_STATUS(aikido_mcp_server_handle(server, message, strlen(message), &response, &error), AIKIDO_OK);
    CHECK(error == NULL);
    return response;
}

static void check_reply(aikido_mcp_server *server, const char *message, const char *fragment) {
    char *response = handle(server, message);
    CHECK_CONTAINS(response, fragment);
    aikido_string_free(response);
}

#define INIT                                                                                                 \
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\"," \
    "\"capabilities\":{},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}"

static void one_message_at_a_time(aikido_registry *registry) {
    aikido_mcp_server *server = aikido_mcp_server_new(registry, "c-test", "1.2.3");
    char *response = NULL, *error = NULL;
    CHECK(server != NULL);

    check_reply(server, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"tools/list\"}", "\"code\":-32600");
    check_reply(server, INIT, "\"protocolVersion\":\"2025-06-18\"");
    check_reply(server, INIT, "\"serverInfo\":{\"name\":\"c-test\",\"version\":\"1.2.3\"}");
    CHECK(handle(server, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}") == NULL);
    check_reply(server, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
    check_reply(server, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}",
                "{\"name\":\"echo\",\"description\":\"Echo the arguments.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{}}}");
    check_reply(server,
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                "\"arguments\":{\"a\":1}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"a\\\":1}\"}],"
                "\"isError\":false}}");
    check_reply(server, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"fail\"}}",
                "\"content\":[{\"type\":\"text\",\"text\":\"disk full\"}],\"isError\":true");
    check_reply(server, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\"}}",
                "\"code\":-32602");
    check_reply(server, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/list\"}", "\"code\":-32601");
    /* MCP 2026-07-28: server/discover, and a stateless call naming its version in _meta. */
    check_reply(server, "{\"jsonrpc\":\"2.0\",\"id\":70,\"method\":\"server/discover\"}",
                "\"supportedVersions\":[\"2026-07-28\"");
    check_reply(server,
                "{\"jsonrpc\":\"2.0\",\"id\":71,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                "\"io.modelcontextprotocol/protocolVersion\":\"1999-01-01\"}}}",
                "\"code\":-32022");
    check_reply(server, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":[]}", "\"code\":-32602");
    check_reply(server, "{not json", "\"code\":-32700");

    /* A message with a length: no NUL needed; (NULL, 0) is an empty message. */
    CHECK_STATUS(aikido_mcp_server_handle(server, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}garbage", 40,
                                          &response, NULL),
                 AIKIDO_OK);
    CHECK_CONTAINS(response, "\"id\":9");
    aikido_string_free(response);
    CHECK_STATUS(aikido_mcp_server_handle(server, NULL, 0, &response, NULL), AIKIDO_OK);
    CHECK_CONTAINS(response, "-32700");
    aikido_string_free(response);

    /* Misuse. */
    CHECK_STATUS(aikido_mcp_server_handle(NULL, "{}", 2, &response, &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK(response == NULL);
    CHECK_CONTAINS(error, "server is NULL");
    aikido_string_free(error);
    CHECK_STATUS(aikido_mcp_server_handle(server, NULL, 5, &response, &error), AIKIDO_ERR_INVALID_INPUT);
    aikido_string_free(error);
    CHECK_STATUS(aikido_mcp_server_serve_stdio(server, -1, 1, NULL, &error), AIKIDO_ERR_INVALID_INPUT);
    aikido_string_free(error);
    CHECK(aikido_mcp_server_new(NULL, "x", "1") == NULL);
    CHECK(aikido_mcp_server_new(registry, "\xff", "1") == NULL);
    aikido_mcp_server_free(NULL);
    aikido_mcp_server_free(server);

    /* NULL name and version take defaults. */
    server = aikido_mcp_server_new(registry, NULL, NULL);
    check_reply(server, INIT, "\"serverInfo\":{\"name\":\"aikido\",\"version\":\"");
    aikido_mcp_server_free(server);
}

struct serving {
    aikido_mcp_server *server;
    int in_fd, out_fd;
    aikido_status status;
};

static void *serve(void *argument) {
    struct serving *serving = argument;
    serving->status = aikido_mcp_server_serve_stdio(serving->server, serving->in_fd, serving->out_fd, NULL, NULL);
    return NULL;
}

static void write_line(int fd, const char *line) {
    size_t length = strlen(line);
    CHECK(write(fd, line, length) == (ssize_t)length);
    CHECK(write(fd, "\n", 1) == 1);
}

/* Reads one line (at most size - 1 bytes) from fd. */
static void read_line(int fd, char *line, size_t size) {
    size_t used = 0;
    char byte;
    while (used + 1 < size && read(fd, &byte, 1) == 1 && byte != '\n') line[used++] = byte;
    line[used] = '\0';
}

static void over_pipes(aikido_registry *registry) {
    int to_server[2], from_server[2];
    pthread_t thread;
    char line[4096];
    struct serving serving;
    CHECK(pipe(to_server) == 0);
    CHECK(pipe(from_server) == 0);
    serving.server = aikido_mcp_server_new(registry, "c-test", "1");
    serving.in_fd = to_server[0];
    serving.out_fd = from_server[1];
    serving.status = -1;
    CHECK(pthread_create(&thread, NULL, serve, &serving) == 0);

    write_line(to_server[1], INIT);
    read_line(from_server[0], line, sizeof line);
    CHECK_CONTAINS(line, "\"protocolVersion\":\"2025-06-18\"");
    write_line(to_server[1], "{\"jsonrpc\":\"2.0\",\"id\":\"w\",\"method\":\"tools/call\",\"params\":{\"name\":\"wait\"}}");
    /* Served while the call waits. */
    write_line(to_server[1], "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
    read_line(from_server[0], line, sizeof line);
    CHECK_STR(line, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
    write_line(to_server[1], "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"w\"}}");
    /* The registry changes: the client hears of it. */
    CHECK_STATUS(aikido_registry_unregister(registry, "fail", NULL), AIKIDO_OK);
    read_line(from_server[0], line, sizeof line);
    CHECK_STR(line, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
    write_line(to_server[1], "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}");
    read_line(from_server[0], line, sizeof line);
    CHECK_CONTAINS(line, "\"id\":3,\"result\"");
    close(to_server[1]); /* EOF: the server returns */
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_STATUS(serving.status, AIKIDO_OK);
    /* The cancelled call wrote nothing. */
    close(from_server[1]);
    read_line(from_server[0], line, sizeof line);
    CHECK_STR(line, "");
    close(to_server[0]);
    close(from_server[0]);
    aikido_mcp_server_free(serving.server);
}

int main(void) {
    aikido_registry *registry = aikido_registry_new();
    CHECK_STATUS(aikido_registry_register(registry, "echo", "Echo the arguments.", NULL, check_echo_handler, NULL, NULL, NULL),
                 AIKIDO_OK);
    CHECK_STATUS(aikido_registry_register(registry, "fail", NULL, NULL, check_failing_handler, NULL, NULL, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_registry_register(registry, "wait", NULL, NULL, waiting, NULL, NULL, NULL), AIKIDO_OK);
    one_message_at_a_time(registry);
    over_pipes(registry);
    aikido_registry_free(registry);
    return check_summary("mcp");
}
