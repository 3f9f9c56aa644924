// The seed's three examples (tools-package-doc.txt), in C++.

#include "aikido.hpp"
#include "check.hpp"

#include <stdexcept>
#include <string>

// Registry example: greet answers "Hello, Ada!".
TEST(seed_greet_example) {
    aikido::Registry registry;
    registry.register_tool(
        {"greet", "Greet a person by name.",
         aikido::schema::object({{"name", aikido::schema::string("Who to greet.")}}, {"name"})},
        [](std::string_view arguments, const aikido::Environment &) -> aikido::Result {
            // A real tool parses JSON; the test keeps to one known shape.
            const std::string_view prefix = R"({"name":")";
            if (arguments.substr(0, prefix.size()) != prefix) {
                return aikido::Failure{"greet arguments: expected {\"name\":…}"};
            }
            const std::string_view rest = arguments.substr(prefix.size());
            return "Hello, " + std::string(rest.substr(0, rest.find('"'))) + "!";
        });
    const aikido::Outcome outcome =
        registry.dispatch("greet", R"({"name":"Ada"})", aikido::Environment("conversation-1"));
    CHECK(outcome);
    CHECK_EQ(outcome.content(), std::string("Hello, Ada!"));
}

// Dispatch example: a missing argument, a panic, an unknown tool.
TEST(seed_divide_example) {
    aikido::Registry registry;
    const std::string parameters = aikido::schema::object({{"by", aikido::schema::integer("Divisor.")}}, {"by"});
    registry.register_tool({"divide", "", parameters},
                           [](std::string_view) -> aikido::Result { throw std::runtime_error("division by zero"); });

    const aikido::Outcome missing = registry.dispatch("divide", "{}");
    CHECK_EQ(missing.status(), aikido::Status::invalid_arguments);
    CHECK_CONTAINS(missing.error().what(), "aikido/tools: invalid tool arguments");

    const aikido::Outcome panicked = registry.dispatch("divide", R"({"by":0})");
    CHECK_EQ(panicked.status(), aikido::Status::tool_panicked);
    CHECK_CONTAINS(panicked.error().what(), "aikido/tools: tool panicked");
    CHECK_CONTAINS(panicked.error().what(), "division by zero");

    const aikido::Outcome unknown = registry.dispatch("multiply");
    CHECK_EQ(unknown.status(), aikido::Status::unknown_tool);
    CHECK_CONTAINS(unknown.error().what(), "aikido/tools: unknown tool");
}

// Object example: the exact output.
TEST(seed_object_example) {
    const std::string schema = aikido::schema::object(
        {{"path", aikido::schema::string("File to read.")}, {"limit", aikido::schema::integer("Maximum lines.")}},
        {"path"});
    CHECK_EQ(schema, std::string(R"({"properties":{"limit":{"description":"Maximum lines.","type":"integer"},)"
                                 R"("path":{"description":"File to read.","type":"string"}},)"
                                 R"("required":["path"],"type":"object"})"));
}
