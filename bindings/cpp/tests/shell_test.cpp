// The virtual bash from C++: the bash tool through a registry (result text,
// sessions, restart, limits) and direct runs with aikido::Shell (results,
// exit codes, limits, cancellation, reset, bad input).

#include "aikido.hpp"
#include "check.hpp"

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

std::string bash(const aikido::Registry &registry, std::string_view session, std::string_view arguments) {
    return registry.dispatch("bash", arguments, aikido::Environment(std::string(session))).content();
}

bool ends_with(std::string_view text, std::string_view tail) {
    return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

}  // namespace

static_assert(!std::is_copy_constructible_v<aikido::Shell> && std::is_nothrow_move_constructible_v<aikido::Shell>);

TEST(bash_tool_through_a_registry) {
    aikido::Registry registry;
    const aikido::Storage storage = aikido::Storage::memory();
    registry.register_shell_tool(storage);
    CHECK_CONTAINS(registry.definitions(), "\"name\":\"bash\"");
    CHECK_EQ(bash(registry, "s1", R"({"command":"echo hi > f; cat f"})"), std::string("hi\n[exit code: 0]"));
    CHECK_EQ(storage.read("/f"), std::string("hi\n"));  // the shell's files are the storage's

    // State persists per session; another session has its own shell.
    CHECK_EQ(bash(registry, "s1", R"({"command":"X=42; mkdir /d; cd /d"})"), std::string("[exit code: 0]"));
    CHECK_EQ(bash(registry, "s1", R"({"command":"echo $X; pwd"})"), std::string("42\n/d\n[exit code: 0]"));
    CHECK_EQ(bash(registry, "s2", R"({"command":"echo ${X:-unset}"})"), std::string("unset\n[exit code: 0]"));
    CHECK_EQ(bash(registry, "s1", R"({"command":"cat /nope; exit 3"})"),
             std::string("[stderr]\ncat: /nope: No such file or directory\n[exit code: 3]"));
    CHECK_EQ(bash(registry, "s1", R"({"command":"","restart":true})"),
             std::string("[shell restarted]\n[exit code: 0]"));
    CHECK_EQ(bash(registry, "s1", R"({"command":"echo ${X:-unset}; pwd"})"), std::string("unset\n/\n[exit code: 0]"));

    CHECK_EQ(registry.dispatch("bash", "{}").status(), aikido::Status::invalid_arguments);
    try {
        registry.register_shell_tool(storage);
        CHECK(!"a second bash tool was registered");
    } catch (const aikido::Error &error) {
        CHECK_EQ(error.status(), aikido::Status::duplicate_tool);
    }
}

TEST(bash_tool_limits) {
    aikido::Registry registry;
    aikido::ShellLimits limits;
    limits.max_loop_iterations = 100;
    registry.register_shell_tool(aikido::Storage::memory(), limits);
    const std::string text = bash(registry, "s", R"({"command":"while true; do :; done"})");
    CHECK(ends_with(text, "[stopped: loop iteration limit reached]\n[exit code: 125]"));
}

TEST(bash_tool_cuts_a_long_result_and_saves_it_whole) {
    aikido::Registry registry;
    aikido::ShellLimits limits;
    limits.max_result_bytes = 1000;
    registry.register_shell_tool(aikido::Storage::memory(), limits);
    const std::string text = bash(registry, "s", R"({"command":"seq 1 10000"})");
    CHECK(text.size() < 1300);
    CHECK_EQ(text.substr(0, 6), std::string("1\n2\n3\n"));
    CHECK(ends_with(text, "9999\n10000\n[exit code: 0]"));
    CHECK(text.find("/tmp/aikido-bash/output-") != std::string::npos);
}

TEST(shell_pipelines_stream_and_their_stages_are_bounded) {
    aikido::Shell shell(aikido::Storage::memory());
    aikido::ShellResult result = shell.run("yes | head -n 2; echo ${PIPESTATUS[@]}");
    CHECK_EQ(result.out, std::string("y\ny\n141 0\n"));
    std::string stages = "true";
    for (int i = 0; i < 300; ++i) stages += " | true";
    result = shell.run(stages);
    CHECK_EQ(result.limit, aikido::ShellLimit::threads);
    CHECK_EQ(result.exit_code, 125);
}

TEST(shell_direct_runs) {
    const aikido::Storage storage = aikido::Storage::memory();
    aikido::Shell shell(storage);
    aikido::ShellResult result = shell.run("echo hi > /f; cat /f; echo err >&2; X=5; exit 3");
    CHECK_EQ(result.out, std::string("hi\n"));
    CHECK_EQ(result.err, std::string("err\n"));
    CHECK_EQ(result.exit_code, 3);
    CHECK(!result.truncated);
    CHECK_EQ(result.limit, aikido::ShellLimit::none);
    CHECK_EQ(storage.read("/f"), std::string("hi\n"));

    result = shell.run("printf 'a\\0b'");  // output is bytes
    CHECK_EQ(result.out, std::string("a\0b", 3));

    result = shell.run("no_such_command");
    CHECK_EQ(result.exit_code, 127);
    CHECK_CONTAINS(result.err, "command not found");

    CHECK_EQ(shell.run("echo ${X:-none}").out, std::string("5\n"));  // state persists
    shell.reset();
    result = shell.run("echo ${X:-none}; cat /f");
    CHECK_EQ(result.out, std::string("none\nhi\n"));

    try {
        shell.run(std::string_view("echo a\0b", 8));
        CHECK(!"a script holding NUL ran");
    } catch (const aikido::Error &error) {
        CHECK_EQ(error.status(), aikido::Status::invalid_input);
    }

    aikido::Shell moved(std::move(shell));
    CHECK(shell.native() == nullptr);  // NOLINT(bugprone-use-after-move)
    CHECK_EQ(moved.run("echo ok").out, std::string("ok\n"));
}

TEST(shell_write_set) {
    using Paths = std::vector<std::string>;
    const aikido::Storage storage = aikido::Storage::memory();
    const aikido::Storage dry_run = aikido::Storage::dry_run(storage);
    aikido::Shell shell(dry_run);

    // Created, changed or removed, sorted, once each: /x was written, then removed.
    aikido::ShellResult result = shell.run("echo a > /x; mkdir -p /d; echo b > /d/y; rm /x");
    CHECK_EQ(result.exit_code, 0);
    CHECK_EQ(result.write_set, (Paths{"/d", "/d/y", "/x"}));
    CHECK(storage.list("/").empty());  // a dry run: the storage below is unchanged

    result = shell.run("echo hi; cat /d/y; ls /");
    CHECK_EQ(result.out, std::string("hi\nb\nd\n"));
    CHECK_EQ(result.write_set, Paths{});

    // Names the library's JSON escapes: \\, \n, \" and \u0001.
    result = shell.run(R"(echo > '/b\s'; echo > $'/n\nl'; echo > '/q"b'; echo > $'/u\x01')");
    CHECK_EQ(result.exit_code, 0);
    CHECK_EQ(result.write_set, (Paths{"/b\\s", "/n\nl", "/q\"b", "/u\x01"}));
}

TEST(shell_limits_and_cancellation) {
    const aikido::Storage storage = aikido::Storage::memory();
    aikido::ShellLimits limits;
    limits.max_loop_iterations = 100;
    aikido::Shell shell(storage, limits);
    aikido::ShellResult result = shell.run("while true; do :; done");
    CHECK_EQ(result.limit, aikido::ShellLimit::loop_iterations);
    CHECK_EQ(result.exit_code, 125);

    limits = {};
    limits.max_output_bytes = 16;
    aikido::Shell small(storage, limits);
    result = small.run("for i in 1 2 3; do echo 0123456789; done");
    CHECK_EQ(result.out.size(), std::size_t{16});
    CHECK(result.truncated);
    CHECK_EQ(result.limit, aikido::ShellLimit::output);

    limits = {};
    limits.max_memory_bytes = 1 << 20;
    aikido::Shell frugal(storage, limits);
    result = frugal.run("x=$(printf '%*s' 100000 ''); y=${x// /$x}");
    CHECK_EQ(result.limit, aikido::ShellLimit::memory);
    CHECK_EQ(result.exit_code, 125);

    const aikido::CancelToken fired;
    fired.fire();
    result = shell.run("while true; do :; done", fired);
    CHECK_EQ(result.exit_code, 130);
    CHECK_EQ(result.limit, aikido::ShellLimit::cancelled);

    // A token fired from another thread stops a running script.
    limits = {};
    limits.max_commands = std::numeric_limits<std::uint64_t>::max();
    limits.max_loop_iterations = std::numeric_limits<std::uint64_t>::max();
    limits.max_milliseconds = 60000;
    aikido::Shell endless(storage, limits);
    const aikido::CancelToken token;
    std::thread canceller([&token] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        token.fire();
    });
    result = endless.run("while true; do :; done", token);
    canceller.join();
    CHECK_EQ(result.exit_code, 130);
    CHECK_EQ(result.limit, aikido::ShellLimit::cancelled);
}
