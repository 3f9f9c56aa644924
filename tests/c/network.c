/* The shell's network from C: a policy built with aikido_network_policy_*,
 * handed (as a copy) to a shell and to the `bash` tool; curl against a
 * server of this program's own on 127.0.0.1; refusals; bad input. */

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"

static int listener = -1;
static int port = 0;

/* Answers every connection with one JSON document, until the listener closes. */
static void *serve(void *unused) {
    (void)unused;
    for (;;) {
        int client = accept(listener, NULL, NULL);
        if (client < 0) return NULL;
        char request[4096];
        ssize_t got = recv(client, request, sizeof request - 1, 0);
        (void)got;
        const char *reply = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\n"
                            "Connection: close\r\n\r\n{\"ok\":true}\n";
        ssize_t sent = send(client, reply, strlen(reply), 0);
        (void)sent;
        close(client);
    }
}

static pthread_t start_server(void) {
    listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    CHECK(bind(listener, (struct sockaddr *)&address, sizeof address) == 0);
    CHECK(listen(listener, 16) == 0);
    socklen_t length = sizeof address;
    getsockname(listener, (struct sockaddr *)&address, &length);
    port = ntohs(address.sin_port);
    pthread_t thread;
    pthread_create(&thread, NULL, serve, NULL);
    return thread;
}

static void stop_server(pthread_t thread) {
    shutdown(listener, SHUT_RDWR);
    close(listener);
    pthread_join(thread, NULL);
}

static aikido_network_policy *loopback_policy(void) {
    char prefix[64];
    snprintf(prefix, sizeof prefix, "http://127.0.0.1:%d/", port);
    aikido_network_policy *policy = aikido_network_policy_new();
    CHECK(policy != NULL);
    CHECK_STATUS(aikido_network_policy_allow_url(policy, prefix, NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_network_policy_allow_address(policy, "127.0.0.1/32", NULL), AIKIDO_OK);
    return policy;
}

static void run(aikido_shell *shell, const char *script, const char *want_stdout, int want_code,
                const char *stderr_fragment) {
    aikido_shell_result result;
    CHECK_STATUS(aikido_shell_run(shell, script, strlen(script), NULL, &result, NULL), AIKIDO_OK);
    CHECK_STR(result.stdout_data ? result.stdout_data : "", want_stdout);
    CHECK(result.exit_code == want_code);
    if (stderr_fragment) CHECK_CONTAINS(result.stderr_data, stderr_fragment);
    aikido_shell_result_free(&result);
}

static void a_shell_with_a_policy(void) {
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    aikido_network_policy *policy = loopback_policy();
    aikido_shell *shell = aikido_shell_new_with_network(storage, NULL, policy);
    /* The shell holds a copy: the policy may go first. */
    aikido_network_policy_free(policy);
    char script[128];
    snprintf(script, sizeof script, "curl -s http://127.0.0.1:%d/json", port);
    run(shell, script, "{\"ok\":true}\n", 0, NULL);
    snprintf(script, sizeof script, "curl -s http://127.0.0.1:%d/json -X POST", port);
    run(shell, script, "", 7, "curl: (7) the network policy refused the method POST");
    run(shell, "curl -s http://169.254.169.254/", "", 7, "the network policy refused");
    aikido_shell_free(shell);

    /* No policy (NULL): no network, as aikido_shell_new. */
    shell = aikido_shell_new_with_network(storage, NULL, NULL);
    run(shell, "curl -s http://127.0.0.1:1/", "", 7, "the network is off");
    aikido_shell_free(shell);
    aikido_storage_free(storage);
}

static void the_tool_with_a_policy(void) {
    aikido_storage *storage = aikido_storage_memory_new(0, 0);
    aikido_network_policy *policy = loopback_policy();
    aikido_network_limits limits = {2000, 1 << 20, 5, 3};
    CHECK_STATUS(aikido_network_policy_set_limits(policy, &limits, NULL), AIKIDO_OK);
    aikido_registry *registry = aikido_registry_new();
    CHECK_STATUS(aikido_registry_register_shell_tool_with_network(registry, storage, NULL, policy, NULL), AIKIDO_OK);
    aikido_network_policy_free(policy);
    char arguments[160];
    snprintf(arguments, sizeof arguments, "{\"command\":\"curl -s http://127.0.0.1:%d/json\"}", port);
    aikido_tool_call call = {"1", "bash", arguments, strlen(arguments)};
    aikido_environment environment = {"s", {0}, NULL};
    char *content = NULL, *error = NULL;
    CHECK_STATUS(aikido_registry_dispatch(registry, &call, &environment, &content, &error), AIKIDO_OK);
    CHECK_STR(content, "{\"ok\":true}\n[exit code: 0]");
    aikido_string_free(content);
    aikido_string_free(error);
    aikido_registry_free(registry);
    aikido_storage_free(storage);
}

static void bad_input(void) {
    aikido_network_policy *policy = aikido_network_policy_new();
    char *error = NULL;
    CHECK_STATUS(aikido_network_policy_allow_url(policy, "ftp://x.example/", &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_CONTAINS(error, "only http and https");
    aikido_string_free(error);
    CHECK_STATUS(aikido_network_policy_allow_address(policy, "10.0.0.0/99", &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_CONTAINS(error, "not an address or CIDR range");
    aikido_string_free(error);
    CHECK_STATUS(aikido_network_policy_allow_method(policy, "GET /", NULL), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(aikido_network_policy_attach_header(policy, "https://a.example/", "X-Token", "a\r\nb", NULL),
                 AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(aikido_network_policy_attach_header(policy, "https://a.example/", "X-Token", "t", NULL), AIKIDO_OK);
    CHECK_STATUS(aikido_network_policy_allow_url(NULL, "http://a.example/", &error), AIKIDO_ERR_INVALID_INPUT);
    CHECK_CONTAINS(error, "policy is NULL");
    aikido_string_free(error);
    CHECK_STATUS(aikido_network_policy_allow_url(policy, NULL, NULL), AIKIDO_ERR_INVALID_INPUT);
    CHECK_STATUS(aikido_network_policy_set_limits(policy, NULL, NULL), AIKIDO_ERR_INVALID_INPUT);
    CHECK(aikido_shell_new_with_network(NULL, NULL, policy) == NULL);
    aikido_network_policy_free(policy);
    aikido_network_policy_free(NULL);
}

int main(void) {
    pthread_t server = start_server();
    a_shell_with_a_policy();
    the_tool_with_a_policy();
    bad_input();
    stop_server(server);
    return check_summary("network");
}
