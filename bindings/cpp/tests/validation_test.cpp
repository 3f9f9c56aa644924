// Full argument validation through the wrapper: set_validation, the
// messages of Validation::full, the repairs of Validation::repair.

#include "aikido.hpp"
#include "check.hpp"

#include <string>
#include <string_view>

namespace {

const char *const read_schema =
    R"({"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"},"mode":{"enum":["r","w"]}},"required":["path"]})";

aikido::Result echo(std::string_view arguments) { return std::string(arguments); }

}  // namespace

TEST(validation_full_reports_every_violation) {
    aikido::Registry registry;
    registry.register_tool({"read", "", read_schema}, echo);
    registry.set_validation(aikido::Validation::full);
    const aikido::Outcome outcome = registry.dispatch("read", R"({"path":"a","limit":"200","mode":"x"})");
    CHECK_EQ(outcome.status(), aikido::Status::invalid_arguments);
    CHECK_EQ(std::string(outcome.error().what()),
             std::string(R"(aikido/tools: invalid tool arguments for tool "read": /limit: expected integer, got string "200"; /mode: must be one of "r", "w")"));
}

TEST(validation_switch_refused_for_an_invalid_schema) {
    aikido::Registry registry;
    registry.register_tool({"lenient", "", R"({"type":"objekt"})"}, echo);
    try {
        registry.set_validation(aikido::Validation::full);
        CHECK(!"set_validation did not throw");
    } catch (const aikido::Error &error) {
        CHECK_EQ(error.status(), aikido::Status::invalid_input);
        CHECK_CONTAINS(error.what(), "tool \"lenient\"");
    }
    // The mode stayed REQUIRED: a wrong type passes.
    CHECK_EQ(registry.dispatch("lenient", R"({"a":1})").content(), std::string(R"({"a":1})"));
}

TEST(validation_repair_reports_each_repair) {
    aikido::Registry registry;
    registry.set_validation(aikido::Validation::repair);
    registry.register_tool({"read", "", read_schema}, echo);
    std::string repairs;
    const aikido::Outcome outcome = registry.dispatch_with_repairs("read", R"({"path":"a","limit":"200"})", repairs);
    CHECK_EQ(outcome.content(), std::string(R"({"path":"a","limit":200})"));
    CHECK_EQ(repairs, std::string(R"([{"pointer":"/limit","from":"200","to":200}])"));
    const aikido::Outcome refused = registry.dispatch_with_repairs("read", R"({"path":"a","limit":"2.5"})", repairs);
    CHECK_EQ(refused.status(), aikido::Status::invalid_arguments);
    CHECK(repairs.empty());
}
