// Provider dialects through the C++ binding: definitions_for, respond,
// parse_tool_calls, and the shared table tests/cases/dialects.tsv (its
// header comment defines the columns; test.sh passes its path as
// AIKIDO_DIALECT_CASES).

#include "aikido.hpp"
#include "check.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

// Whether calls overlap, measured without timing them (timings fail on a
// loaded machine): each call waits, up to the patience, for all four calls
// of the round to have started; the most calls running at once is kept.
class Rendezvous {
public:
    void call() {
        std::unique_lock<std::mutex> lock(mutex_);
        ++arrived_;
        ++inside_;
        most_ = std::max(most_, inside_);
        changed_.notify_all();
        changed_.wait_for(lock, patience_, [this] { return arrived_ >= 4; });
        --inside_;
    }
    // Starts a round; returns the most calls that ran at once in the last.
    int next_round(std::chrono::milliseconds patience) {
        const std::lock_guard<std::mutex> lock(mutex_);
        const int most = most_;
        most_ = 0;
        arrived_ = 0;
        patience_ = patience;
        return most;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    int arrived_ = 0, inside_ = 0, most_ = 0;
    std::chrono::milliseconds patience_{20000};
};

const char *const read_schema =
    R"({"properties":{"limit":{"type":"integer"},"path":{"type":"string"}},"required":["path"],"type":"object"})";

/// The two tools the shared table assumes: "read" echoes, "fail" fails.
aikido::Registry dialect_registry() {
    aikido::Registry registry;
    registry.register_tool({"read", "Read a file.", read_schema},
                           [](std::string_view arguments) { return std::string(arguments); });
    registry.register_tool({"fail", "", ""}, [](std::string_view) { return aikido::Failure{"disk full"}; });
    return registry;
}

std::vector<std::string> split_tabs(const std::string &line) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t end; (end = line.find('\t', start)) != std::string::npos; start = end + 1) {
        parts.push_back(line.substr(start, end - start));
    }
    parts.push_back(line.substr(start));
    return parts;
}

}  // namespace

TEST(definitions_for_writes_each_dialect_and_refuses_names_it_cannot_carry) {
    const aikido::Registry registry = dialect_registry();
    CHECK_EQ(registry.definitions_for(aikido::Dialect::Anthropic),
             std::string(R"([{"name":"read","description":"Read a file.","input_schema":)") + read_schema +
                 R"(},{"name":"fail","input_schema":{"type":"object","properties":{}}}])");
    CHECK_CONTAINS(registry.definitions_for(aikido::Dialect::Anthropic, aikido::Strict), R"("strict":true)");
    CHECK_EQ(registry.definitions_for(aikido::Dialect::Neutral), registry.definitions());
    aikido::Registry dotted;
    dotted.register_tool({"files.read", "", ""}, [](std::string_view) { return "x"; });
    try {
        dotted.definitions_for(aikido::Dialect::OpenAIChat);
        CHECK(false);
    } catch (const aikido::Error &error) {
        CHECK_EQ(error.status(), aikido::Status::invalid_input);
        CHECK_CONTAINS(error.what(), "\"files.read\"");
    }
    CHECK_CONTAINS(dotted.definitions_for(aikido::Dialect::MCP), "files.read");
}

TEST(respond_runs_calls_at_once_in_order_and_refuses_unreadable_replies) {
    aikido::Registry registry;
    Rendezvous rendezvous;
    registry.register_tool({"nap", "", ""}, [&rendezvous](std::string_view arguments, const aikido::Environment &environment) {
        rendezvous.call();
        return std::string(environment.session_id()) + " " + std::string(arguments);
    });
    const std::string reply =
        R"([{"type":"tool_use","id":"a","name":"nap","input":{"n":1}},{"type":"tool_use","id":"b","name":"nap","input":{"n":2}},)"
        R"({"type":"tool_use","id":"c","name":"nap","input":{"n":3}},{"type":"tool_use","id":"d","name":"nap","input":{"n":4}}])";
    const std::string out = registry.respond(aikido::Dialect::Anthropic, reply, aikido::Environment("s1"));
    CHECK_EQ(rendezvous.next_round(std::chrono::milliseconds(20)), 4);  // all four at once
    CHECK_EQ(out, std::string(R"([{"role":"user","content":[)"
                              R"({"type":"tool_result","tool_use_id":"a","content":"s1 {\"n\":1}"},)"
                              R"({"type":"tool_result","tool_use_id":"b","content":"s1 {\"n\":2}"},)"
                              R"({"type":"tool_result","tool_use_id":"c","content":"s1 {\"n\":3}"},)"
                              R"({"type":"tool_result","tool_use_id":"d","content":"s1 {\"n\":4}"}]}])"));
    CHECK_EQ(registry.respond(aikido::Dialect::Anthropic, reply, aikido::Environment("s1"), aikido::Sequential), out);
    CHECK_EQ(rendezvous.next_round(std::chrono::milliseconds(20000)), 1);  // one at a time

    aikido::CancelToken cancel;
    cancel.fire();
    const aikido::Environment cancelled("s1", aikido::Uuid(), cancel);
    CHECK_CONTAINS(registry.respond(aikido::Dialect::Anthropic, reply, cancelled), "call cancelled");

    try {
        registry.respond(aikido::Dialect::OpenAIChat, reply);
        CHECK(false);
    } catch (const aikido::Error &error) {
        CHECK_EQ(error.status(), aikido::Status::invalid_input);
        CHECK_CONTAINS(error.what(), "OpenAI Chat Completions");
    }
    CHECK_EQ(aikido::parse_tool_calls(aikido::Dialect::Anthropic, reply).substr(0, 44),
             std::string(R"([{"id":"a","name":"nap","arguments":"{\"n\":1}"})").substr(0, 44));
    const aikido::ToolCallArray calls = aikido::read_tool_calls(aikido::Dialect::Anthropic, reply);
    CHECK_EQ(std::string(calls[0].id) + " " + calls[0].name + " " + calls[0].arguments, std::string("a nap {\"n\":1}"));
    try {
        (void)calls[calls.size()];
        CHECK(false);
    } catch (const aikido::Error &error) {
        CHECK_EQ(error.status(), aikido::Status::invalid_input);
        CHECK_CONTAINS(error.what(), "is out of range");
    }
}

TEST(every_case_of_the_shared_dialect_table_holds) {
    const char *path = std::getenv("AIKIDO_DIALECT_CASES");
    if (path == nullptr) {
        throw std::runtime_error("AIKIDO_DIALECT_CASES is not set: the path of tests/cases/dialects.tsv");
    }
    std::ifstream table(path);
    if (!table) {
        throw std::runtime_error(std::string("cannot read ") + path);
    }
    const aikido::Registry registry = dialect_registry();
    int cases = 0;
    for (std::string line; std::getline(table, line);) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        const std::vector<std::string> column = split_tabs(line);
        if (column.size() != 7) {
            throw std::runtime_error("a case line has seven columns: " + line);
        }
        ++cases;
        const auto dialect = static_cast<aikido::Dialect>(std::stoul(column[2]));
        const auto flags = static_cast<std::uint32_t>(std::stoul(column[3]));
        std::string out;
        std::string status = "AIKIDO_OK";
        try {
            if (column[1] == "definitions") {
                out = registry.definitions_for(dialect, flags);
            } else if (column[1] == "parse") {
                out = aikido::parse_tool_calls(dialect, column[4]);
            } else if (column[1] == "calls") {
                for (const aikido_tool_call &call : aikido::read_tool_calls(dialect, column[4])) {
                    out += std::string(out.empty() ? "" : " | ") + "[" + call.id + "] " + call.name + " " +
                           std::string(call.arguments, call.arguments_len);
                }
                if (out.empty()) out = "(none)";
            } else {
                out = registry.respond(dialect, column[4], aikido::Environment(), flags);
            }
        } catch (const aikido::Error &error) {
            status = aikido_status_name(static_cast<aikido_status>(error.status()));
            out = error.what();
        }
        if (status != column[5]) {
            check::fail(__FILE__, __LINE__, column[0] + ": status " + status + ", want " + column[5] + ": " + out);
        } else if (status == "AIKIDO_OK" ? out != column[6] : !check::contains(out, column[6])) {
            check::fail(__FILE__, __LINE__, column[0] + ":\n got " + out + "\nwant " + column[6]);
        }
    }
    CHECK(cases >= 25);
}
