// The shell's network from C++: a NetworkPolicy handed to a Shell and to
// the bash tool; curl against a server of this test's own on 127.0.0.1;
// refusals and bad input.

#include "aikido.hpp"
#include "check.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <thread>

namespace {

/// Answers one JSON document per connection until stopped.
class Server {
public:
    Server() {
        listener_ = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bind(listener_, reinterpret_cast<sockaddr *>(&address), sizeof address);
        listen(listener_, 16);
        socklen_t length = sizeof address;
        getsockname(listener_, reinterpret_cast<sockaddr *>(&address), &length);
        port_ = ntohs(address.sin_port);
        thread_ = std::thread([this] {
            for (;;) {
                const int client = accept(listener_, nullptr, nullptr);
                if (client < 0) return;
                char request[4096];
                (void)recv(client, request, sizeof request, 0);
                const std::string reply =
                    "HTTP/1.1 200 OK\r\nContent-Length: 12\r\nConnection: close\r\n\r\n{\"ok\":true}\n";
                (void)send(client, reply.data(), reply.size(), 0);
                close(client);
            }
        });
    }
    ~Server() {
        shutdown(listener_, SHUT_RDWR);
        close(listener_);
        thread_.join();
    }
    std::string url(const std::string &path) const { return "http://127.0.0.1:" + std::to_string(port_) + path; }

private:
    int listener_ = -1;
    int port_ = 0;
    std::thread thread_;
};

aikido::NetworkPolicy policy_for(const Server &server) {
    aikido::NetworkPolicy policy;
    policy.allow_url(server.url("/")).allow_address("127.0.0.1/32");
    return policy;
}

}  // namespace

TEST(network_shell_fetches_what_the_policy_allows) {
    const Server server;
    aikido::Shell shell(aikido::Storage::memory(), policy_for(server));
    aikido::ShellResult result = shell.run("curl -s " + server.url("/json"));
    CHECK_EQ(result.out, std::string("{\"ok\":true}\n"));
    CHECK_EQ(result.exit_code, 0);
    result = shell.run("curl -s -X DELETE " + server.url("/json"));
    CHECK_EQ(result.exit_code, 7);
    CHECK_CONTAINS(result.err, "the network policy refused the method DELETE");
    result = shell.run("curl -s http://10.0.0.1/");
    CHECK_EQ(result.exit_code, 7);

    aikido::Shell offline(aikido::Storage::memory());
    result = offline.run("curl -s " + server.url("/json"));
    CHECK_EQ(result.exit_code, 7);
    CHECK_CONTAINS(result.err, "the network is off");
}

TEST(network_bash_tool_with_a_policy) {
    const Server server;
    aikido::Registry registry;
    aikido::NetworkPolicy policy = policy_for(server);
    aikido::NetworkLimits limits;
    limits.max_requests = 1;
    policy.set_limits(limits);
    registry.register_shell_tool(aikido::Storage::memory(), policy);
    const std::string arguments =
        "{\"command\":\"curl -s " + server.url("/json") + "; curl -s " + server.url("/json") + "\"}";
    const std::string text = registry.dispatch("bash", arguments, aikido::Environment("s")).content();
    CHECK_CONTAINS(text, "{\"ok\":true}\n[stderr]\ncurl: (7) the network policy's request limit (1 per run)");
}

TEST(network_policy_refuses_bad_rules) {
    aikido::NetworkPolicy policy;
    try {
        policy.allow_url("ftp://x.example/");
        CHECK(!"an ftp prefix was taken");
    } catch (const aikido::Error &error) {
        CHECK_EQ(error.status(), aikido::Status::invalid_input);
        CHECK_CONTAINS(std::string(error.what()), "only http and https");
    }
    try {
        policy.allow_address("not-an-address");
        CHECK(!"a bad range was taken");
    } catch (const aikido::Error &error) {
        CHECK_EQ(error.status(), aikido::Status::invalid_input);
    }
    policy.attach_header("https://a.example/", "Authorization", "Bearer t").allow_method("POST");
}
