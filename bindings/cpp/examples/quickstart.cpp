#include <aikido.hpp>

#include <iostream>
#include <string>
#include <string_view>

int main() {
    aikido::Registry registry;
    registry.register_tool(
        {"greet", "Greet a person by name.",
         aikido::schema::object({{"name", aikido::schema::string("Who to greet.")}}, {"name"})},
        [](std::string_view arguments, const aikido::Environment &environment) -> aikido::Result {
            // Parse `arguments` with your JSON library: the registry has
            // checked that they are one JSON object holding "name".
            if (arguments.find(R"("Ada")") == std::string_view::npos) {
                return aikido::Failure{"greet: I only know Ada"};
            }
            return "Hello, Ada! (session " + std::string(environment.session_id()) + ")";
        });

    // What the model is told it may call.
    std::cout << registry.definitions() << "\n";

    // The calls of one model reply share its turn id.
    const aikido::Environment environment("conversation-1", aikido::Uuid::v7());
    for (const char *arguments : {R"({"name":"Ada"})", R"({"name":"Bob"})", "{}"}) {
        const aikido::Outcome outcome = registry.dispatch("greet", arguments, environment);
        if (outcome) {
            std::cout << outcome.content() << "\n";
        } else {  // a message for the model, so it can correct the call
            std::cout << aikido::status_name(outcome.status()) << ": " << outcome.error().what() << "\n";
        }
    }
}
