// The wrapper's own promises: ownership of handlers, move semantics,
// exceptions, environments, cancellation, threads and the schema helpers.

#include "aikido.hpp"
#include "aikido.hpp"  // the header is self-contained and guarded
#include "check.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

const char *const by_schema = R"({"properties":{"by":{"type":"integer"}},"required":["by"],"type":"object"})";

/// Counts its constructions and destructions, so a test can tell that the
/// registry destroyed its copy exactly once.
struct CountedHandler {
    static inline std::atomic<int> created{0};
    static inline std::atomic<int> destroyed{0};
    static int alive() { return created - destroyed; }

    CountedHandler() { ++created; }
    CountedHandler(const CountedHandler &) { ++created; }
    CountedHandler(CountedHandler &&) noexcept { ++created; }
    CountedHandler &operator=(const CountedHandler &) = default;
    ~CountedHandler() { ++destroyed; }

    aikido::Result operator()(std::string_view) const { return "counted"; }
};

/// Expects the call to throw aikido::Error with this status.
template <class Call>
aikido::Error expect_error(Call call, aikido::Status status) {
    try {
        call();
    } catch (const aikido::Error &error) {
        CHECK_EQ(error.status(), status);
        return error;
    }
    CHECK(!"the call did not throw aikido::Error");
    return aikido::Error(aikido::Status::ok, "");
}

}  // namespace

static_assert(!std::is_copy_constructible_v<aikido::Registry> && !std::is_copy_assignable_v<aikido::Registry>);
static_assert(std::is_nothrow_move_constructible_v<aikido::Registry> &&
              std::is_nothrow_move_assignable_v<aikido::Registry>);
static_assert(!std::is_copy_constructible_v<aikido::CancelToken> &&
              std::is_nothrow_move_constructible_v<aikido::CancelToken>);

TEST(handler_freed_once_at_unregister) {
    {
        aikido::Registry registry;
        registry.register_tool({"counted"}, CountedHandler());
        CHECK_EQ(CountedHandler::alive(), 1);
        CHECK_EQ(registry.dispatch("counted").content(), std::string("counted"));
        registry.unregister_tool("counted");
        CHECK_EQ(CountedHandler::alive(), 0);
        CHECK_EQ(registry.size(), std::size_t{0});
    }
    CHECK_EQ(CountedHandler::alive(), 0);
}

TEST(handler_freed_once_with_the_registry) {
    {
        aikido::Registry registry;
        registry.register_tool({"one"}, CountedHandler());
        registry.register_tool({"two"}, CountedHandler());
        CHECK_EQ(CountedHandler::alive(), 2);
    }
    CHECK_EQ(CountedHandler::alive(), 0);
}

TEST(failed_registration_frees_the_handler_once) {
    aikido::Registry registry;
    registry.register_tool({"taken"}, CountedHandler());
    const int destroyed_before = CountedHandler::destroyed;
    const aikido::Error duplicate =
        expect_error([&] { registry.register_tool({"taken"}, CountedHandler()); }, aikido::Status::duplicate_tool);
    CHECK_CONTAINS(duplicate.what(), "aikido/tools: duplicate tool registration");
    CHECK_CONTAINS(duplicate.what(), "\"taken\"");
    // The temporary and the heap copy the library handed back: two, each once.
    CHECK_EQ(CountedHandler::destroyed - destroyed_before, 2);
    CHECK_EQ(CountedHandler::alive(), 1);

    expect_error([&] { registry.register_tool({""}, CountedHandler()); }, aikido::Status::invalid_input);
    const aikido::Error not_json = expect_error(
        [&] { registry.register_tool({"bad", "", "{not json"}, CountedHandler()); }, aikido::Status::invalid_input);
    CHECK_CONTAINS(not_json.what(), "aikido/tools: invalid input");
    CHECK_EQ(CountedHandler::alive(), 1);
    CHECK_EQ(registry.size(), std::size_t{1});
}

TEST(unregister_frees_the_handler_after_its_running_call) {
    aikido::Registry registry;
    const auto probe = std::make_shared<int>(0);  // its use count tells whether the handler is alive
    std::atomic<bool> entered{false};
    std::atomic<bool> release{false};
    registry.register_tool({"slow"}, [probe, &entered, &release](std::string_view) {
        entered = true;
        while (!release) {
            std::this_thread::yield();
        }
        return "done";
    });
    std::string result;
    std::thread caller([&] { result = registry.dispatch("slow").content(); });
    while (!entered) {
        std::this_thread::yield();
    }
    registry.unregister_tool("slow");
    CHECK_EQ(probe.use_count(), 2L);  // the running call keeps it
    CHECK_EQ(registry.dispatch("slow").status(), aikido::Status::unknown_tool);
    release = true;
    caller.join();
    CHECK_EQ(result, std::string("done"));
    CHECK_EQ(probe.use_count(), 1L);
}

TEST(move_keeps_the_tools) {
    aikido::Registry first;
    first.register_tool({"counted"}, CountedHandler());
    aikido::Registry second(std::move(first));
    CHECK_EQ(second.size(), std::size_t{1});
    CHECK_EQ(second.dispatch("counted").content(), std::string("counted"));
    CHECK(first.native() == nullptr);  // NOLINT(bugprone-use-after-move): the moved-from state is the point
    CHECK_EQ(first.size(), std::size_t{0});
    const aikido::Outcome on_moved_from = first.dispatch("counted");
    CHECK_EQ(on_moved_from.status(), aikido::Status::invalid_input);
    expect_error([&] { first.register_tool({"x"}, CountedHandler()); }, aikido::Status::invalid_input);
    CHECK_EQ(CountedHandler::alive(), 1);

    aikido::Registry third;
    third.register_tool({"other"}, CountedHandler());
    CHECK_EQ(CountedHandler::alive(), 2);
    third = std::move(second);  // frees third's own tool
    CHECK_EQ(CountedHandler::alive(), 1);
    CHECK_EQ(third.dispatch("counted").content(), std::string("counted"));
    CHECK_EQ(third.dispatch("other").status(), aikido::Status::unknown_tool);
}

TEST(std_exception_becomes_tool_panicked) {
    aikido::Registry registry;
    registry.register_tool({"boom"},
                           [](std::string_view) -> aikido::Result { throw std::out_of_range("index 7 of 3"); });
    const aikido::Outcome outcome = registry.dispatch("boom", "{}");
    CHECK(!outcome);
    CHECK_EQ(outcome.status(), aikido::Status::tool_panicked);
    CHECK_EQ(std::string(outcome.error().what()),
             std::string("aikido/tools: tool panicked: tool \"boom\": index 7 of 3"));
}

TEST(non_standard_exception_becomes_tool_panicked) {
    aikido::Registry registry;
    registry.register_tool({"forty-two"}, [](std::string_view) -> aikido::Result { throw 42; });
    const aikido::Outcome outcome = registry.dispatch("forty-two");
    CHECK_EQ(outcome.status(), aikido::Status::tool_panicked);
    CHECK_CONTAINS(outcome.error().what(), "aikido/tools: tool panicked: tool \"forty-two\": ");
    CHECK_CONTAINS(outcome.error().what(),
                   "a non-standard exception (one that does not derive from std::exception) was thrown");
}

TEST(results_failures_and_return_types) {
    aikido::Registry registry;
    registry.register_tool({"string"}, [](std::string_view arguments) { return std::string(arguments); });
    registry.register_tool({"literal"}, [](std::string_view) { return "literal"; });
    registry.register_tool({"failure"}, [](std::string_view) { return aikido::Failure{"file not found: /etc/nope"}; });
    registry.register_tool({"empty-failure"}, [](std::string_view) { return aikido::Failure{""}; });
    const std::function<aikido::Result(std::string_view, const aikido::Environment &)> function =
        [](std::string_view, const aikido::Environment &) { return aikido::Result("function"); };
    registry.register_tool({"function"}, function);
    registry.register_tool({"nul-content"}, [](std::string_view) { return std::string("a\0b", 3); });

    CHECK_EQ(registry.dispatch("string", R"({"x":1})").content(), std::string(R"({"x":1})"));
    CHECK_EQ(registry.dispatch("string").content(), std::string("{}"));
    CHECK_EQ(registry.dispatch("literal").content(), std::string("literal"));
    CHECK_EQ(registry.dispatch("function").content(), std::string("function"));
    const aikido::Outcome failed = registry.dispatch("failure");
    CHECK_EQ(failed.status(), aikido::Status::tool_failed);
    CHECK_EQ(std::string(failed.error().what()), std::string("file not found: /etc/nope"));
    CHECK_CONTAINS(registry.dispatch("empty-failure").error().what(), "\"empty-failure\"");
    // The library refuses content holding a NUL and says which tool sent it.
    const aikido::Outcome nul = registry.dispatch("nul-content");
    CHECK_EQ(nul.status(), aikido::Status::tool_failed);
    CHECK_CONTAINS(nul.error().what(), "\"nul-content\"");
}

TEST(outcome_content_throws_the_error) {
    aikido::Registry registry;
    const aikido::Error error =
        expect_error([&] { (void)registry.dispatch("missing").content(); }, aikido::Status::unknown_tool);
    CHECK_CONTAINS(error.what(), "aikido/tools: unknown tool \"missing\"");
    const aikido::Outcome ok("fine");
    CHECK_EQ(ok.status(), aikido::Status::ok);
    CHECK_EQ(std::string(ok.error().what()), std::string(""));
}

TEST(environment_reaches_the_handler) {
    aikido::Registry registry;
    registry.register_tool({"whoami"}, [](std::string_view, const aikido::Environment &environment) {
        return std::string(environment.session_id()) + " " + environment.turn_id().to_string() + " " +
               (environment.cancelled() ? "cancelled" : "running");
    });
    const aikido::Uuid turn = aikido::Uuid::v7();
    aikido::CancelToken token;
    CHECK_EQ(registry.dispatch("whoami", "{}", aikido::Environment("conversation-1", turn, token)).content(),
             "conversation-1 " + turn.to_string() + " running");
    CHECK_EQ(registry.dispatch("whoami").content(),
             std::string(" 00000000-0000-0000-0000-000000000000 running"));
    const aikido::Outcome nul = registry.dispatch("whoami", "{}", aikido::Environment(std::string("a\0b", 3)));
    CHECK_EQ(nul.status(), aikido::Status::invalid_input);
    CHECK_EQ(registry.dispatch(std::string_view("whoami\0x", 8)).status(), aikido::Status::invalid_input);
}

TEST(cancellation) {
    aikido::Registry registry;
    std::atomic<int> runs{0};
    registry.register_tool({"slow"}, [&runs](std::string_view, const aikido::Environment &environment) {
        ++runs;
        return environment.cancelled() ? "saw cancel" : "not cancelled";
    });
    aikido::CancelToken token;
    CHECK(!token.is_fired());
    const aikido::Environment environment("s", aikido::Uuid(), token);
    CHECK(!environment.cancelled());
    CHECK_EQ(registry.dispatch("slow", "{}", environment).content(), std::string("not cancelled"));
    token.fire();
    token.fire();
    CHECK(token.is_fired());
    CHECK(environment.cancelled());
    const aikido::Outcome cancelled = registry.dispatch("slow", "{}", environment);
    CHECK_EQ(cancelled.status(), aikido::Status::cancelled);
    CHECK_CONTAINS(cancelled.error().what(), "aikido/tools: call cancelled: tool \"slow\"");
    CHECK_EQ(runs.load(), 1);

    // A handler sees a token fired while it runs.
    aikido::CancelToken during;
    registry.register_tool({"fires"}, [&during](std::string_view, const aikido::Environment &environment) {
        const bool before = environment.cancelled();
        during.fire();
        return std::string(before ? "yes" : "no") + "/" + (environment.cancelled() ? "yes" : "no");
    });
    CHECK_EQ(registry.dispatch("fires", "{}", aikido::Environment("s", {}, during)).content(), std::string("no/yes"));

    aikido::CancelToken moved(std::move(token));
    CHECK(moved.is_fired());
    CHECK(token.native() == nullptr);  // NOLINT(bugprone-use-after-move)
    CHECK(!token.is_fired());
    token.fire();  // a moved-from token does nothing
}

TEST(handlers_run_on_many_threads) {
    aikido::Registry registry;
    std::atomic<int> calls{0};
    registry.register_tool({"echo", "", by_schema}, [&calls](std::string_view arguments) {
        ++calls;
        return std::string(arguments);
    });
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int thread = 0; thread < 4; ++thread) {
        threads.emplace_back([&registry, &wrong, thread] {
            for (int call = 0; call < 200; ++call) {
                const std::string arguments = "{\"by\":" + std::to_string(thread * 1000 + call) + "}";
                if (registry.dispatch("echo", arguments).content() != arguments) {
                    ++wrong;
                }
            }
        });
    }
    for (std::thread &thread : threads) {
        thread.join();
    }
    CHECK_EQ(wrong.load(), 0);
    CHECK_EQ(calls.load(), 800);
}

TEST(handler_may_call_back_into_its_registry) {
    aikido::Registry registry;
    registry.register_tool({"inner"}, [](std::string_view) { return "inner"; });
    registry.register_tool({"outer"}, [&registry](std::string_view, const aikido::Environment &environment) {
        registry.register_tool({"added-by-outer"}, [](std::string_view) { return "added"; });
        return "outer(" + registry.dispatch("inner", "{}", environment).content() + ")";
    });
    CHECK_EQ(registry.dispatch("outer").content(), std::string("outer(inner)"));
    CHECK_EQ(registry.dispatch("added-by-outer").content(), std::string("added"));
}

TEST(definitions_in_registration_order) {
    aikido::Registry registry;
    CHECK_EQ(registry.definitions(), std::string("[]"));
    registry.register_tool({"zeta", "Last letter.", by_schema}, [](std::string_view) { return ""; });
    registry.register_tool({"alpha"}, [](std::string_view) { return ""; });
    CHECK_EQ(registry.definitions(),
             std::string(R"([{"name":"zeta","description":"Last letter.","parameters":)") + by_schema +
                 R"(},{"name":"alpha"}])");
    const aikido::Error unknown =
        expect_error([&] { registry.unregister_tool("beta"); }, aikido::Status::unknown_tool);
    CHECK_CONTAINS(unknown.what(), "\"beta\"");
}

TEST(schema_helpers) {
    namespace schema = aikido::schema;
    CHECK_EQ(schema::string("Who."), std::string(R"({"description":"Who.","type":"string"})"));
    CHECK_EQ(schema::string(), std::string(R"({"type":"string"})"));
    CHECK_EQ(schema::integer("N."), std::string(R"({"description":"N.","type":"integer"})"));
    CHECK_EQ(schema::number(""), std::string(R"({"type":"number"})"));
    CHECK_EQ(schema::boolean("Flag."), std::string(R"({"description":"Flag.","type":"boolean"})"));
    CHECK_EQ(schema::enumeration("Unit.", {"celsius", "fahrenheit"}),
             std::string(R"({"description":"Unit.","enum":["celsius","fahrenheit"],"type":"string"})"));
    CHECK_EQ(schema::array(schema::integer(), "Numbers."),
             std::string(R"({"description":"Numbers.","items":{"type":"integer"},"type":"array"})"));
    CHECK_EQ(schema::object({}), std::string(R"({"type":"object"})"));
    CHECK_EQ(schema::object({{"b", schema::boolean()}, {"a", schema::string()}}, {"b", "a"}),
             std::string(R"({"properties":{"a":{"type":"string"},"b":{"type":"boolean"}},)"
                         R"("required":["b","a"],"type":"object"})"));
    expect_error([] { (void)schema::array("{not json"); }, aikido::Status::invalid_input);
    expect_error([] { (void)schema::string("\xff"); }, aikido::Status::invalid_input);
    expect_error([] { (void)schema::enumeration("", {std::string_view("a\0b", 3)}); }, aikido::Status::invalid_input);
    const aikido::Error bad_property =
        expect_error([] { (void)schema::object({{"a", "{not json"}}); }, aikido::Status::invalid_input);
    CHECK_CONTAINS(bad_property.what(), "aikido/tools: invalid input");
}

TEST(uuids_statuses_and_version) {
    const std::optional<aikido::Uuid> parsed = aikido::Uuid::parse("{67E55044-10B1-426F-9247-BB680E5FE0C8}");
    CHECK(parsed.has_value());
    CHECK_EQ(parsed->to_string(), std::string("67e55044-10b1-426f-9247-bb680e5fe0c8"));
    CHECK_EQ(parsed->bytes()[0], std::uint8_t{0x67});
    CHECK(!aikido::Uuid::parse("not a uuid").has_value());
    CHECK(aikido::Uuid().is_nil());
    CHECK(aikido::Uuid::v4() != aikido::Uuid::v4());
    CHECK_EQ(aikido::Uuid::v4().to_string()[14], '4');
    CHECK_EQ(aikido::Uuid::v7().to_string()[14], '7');
    CHECK_EQ(std::string(aikido::status_name(aikido::Status::unknown_tool)), std::string("AIKIDO_ERR_UNKNOWN_TOOL"));
    CHECK_EQ(std::string(aikido::version()), std::string(AIKIDO_VERSION));
}
