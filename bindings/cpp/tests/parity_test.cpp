// The shared dispatch cases (tests/cases/dispatch.tsv; its header comment
// defines the columns) through the C++ binding. test.sh passes the table's
// path as AIKIDO_DISPATCH_CASES.

#include "aikido.hpp"
#include "check.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Case {
    std::string name;
    std::string schema;  // empty: none
    std::string handler;
    std::string call;
    std::string arguments;
    std::string status;
    std::string fragment;
    bool cancelled = false;
    bool full = false;   // the registry validates in AIKIDO_VALIDATE_FULL mode
    bool repair = false; // the registry validates in AIKIDO_VALIDATE_REPAIR mode
};

/// Decodes the table's escapes: \t \n \r \\ and \xHH (one raw byte).
std::string unescape(const std::string &text) {
    std::string out;
    for (std::size_t index = 0; index < text.size(); ++index) {
        if (text[index] != '\\' || index + 1 == text.size()) {
            out += text[index];
            continue;
        }
        const char escape = text[++index];
        switch (escape) {
        case 't': out += '\t'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case '\\': out += '\\'; break;
        case 'x':
            out += static_cast<char>(std::stoi(text.substr(index + 1, 2), nullptr, 16));
            index += 2;
            break;
        default: throw std::runtime_error("unknown escape \\" + std::string(1, escape) + " in " + text);
        }
    }
    return out;
}

std::string arguments(const std::string &column) {
    const std::string deep = "@deep:";
    if (column.compare(0, deep.size(), deep) != 0) {
        return unescape(column);
    }
    const std::size_t depth = std::stoul(column.substr(deep.size()));
    return "{\"a\":" + std::string(depth, '[') + std::string(depth, ']') + "}";
}

std::vector<std::string> split(const std::string &line, char separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t end; (end = line.find(separator, start)) != std::string::npos; start = end + 1) {
        parts.push_back(line.substr(start, end - start));
    }
    parts.push_back(line.substr(start));
    return parts;
}

std::vector<Case> load_cases() {
    const char *path = std::getenv("AIKIDO_DISPATCH_CASES");
    if (path == nullptr) {
        throw std::runtime_error("AIKIDO_DISPATCH_CASES is not set: the path of tests/cases/dispatch.tsv");
    }
    std::ifstream table(path);
    if (!table) {
        throw std::runtime_error(std::string("cannot read ") + path);
    }
    std::vector<Case> cases;
    for (std::string line; std::getline(table, line);) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        const std::vector<std::string> columns = split(line, '\t');
        if (columns.size() != 8) {
            throw std::runtime_error("a case line has eight columns: " + line);
        }
        Case entry;
        entry.name = columns[0];
        entry.schema = columns[1] == "-" ? "" : columns[1];
        entry.handler = columns[2];
        entry.call = columns[3];
        entry.arguments = arguments(columns[4]);
        entry.status = columns[5];
        entry.fragment = unescape(columns[6]);
        for (const std::string &flag : split(columns[7], ',')) {
            entry.cancelled = entry.cancelled || flag == "cancelled";
            entry.full = entry.full || flag == "full";
            entry.repair = entry.repair || flag == "repair";
        }
        cases.push_back(std::move(entry));
    }
    return cases;
}

bool starts_with(const std::string &text, const std::string &prefix, std::string &rest) {
    if (text.compare(0, prefix.size(), prefix) != 0) {
        return false;
    }
    rest = text.substr(prefix.size());
    return true;
}

/// The handler the case's handler column describes.
aikido::Result run_case_handler(const std::string &handler, std::string_view arguments) {
    std::string text;
    if (handler == "echo") {
        return std::string(arguments);
    }
    if (starts_with(handler, "content:", text)) {
        return text;
    }
    if (starts_with(handler, "fail:", text)) {
        return aikido::Failure{text};
    }
    if (starts_with(handler, "panic:", text)) {
        throw std::runtime_error(text);
    }
    throw std::logic_error("unknown handler column: " + handler);
}

}  // namespace

TEST(every_case_of_the_shared_table_holds) {
    const std::vector<Case> cases = load_cases();
    CHECK(cases.size() >= 40);
    for (const Case &entry : cases) {
        aikido::Registry registry;
        if (entry.full || entry.repair) {
            registry.set_validation(entry.repair ? aikido::Validation::repair : aikido::Validation::full);
        }
        registry.register_tool({"probe", "", entry.schema}, [handler = entry.handler](std::string_view arguments) {
            return run_case_handler(handler, arguments);
        });
        aikido::CancelToken token;
        if (entry.cancelled) {
            token.fire();
        }
        const aikido::Outcome outcome =
            registry.dispatch(entry.call, entry.arguments, aikido::Environment("", aikido::Uuid(), token));
        const std::string status = aikido::status_name(outcome.status());
        const std::string text = outcome ? outcome.content() : outcome.error().what();
        if (status != entry.status || !check::contains(text, entry.fragment)) {
            check::fail(__FILE__, __LINE__,
                        entry.name + ": got " + status + " \"" + text + "\"; want " + entry.status +
                            " containing \"" + entry.fragment + "\"");
        }
    }
    std::cout << "parity: " << cases.size() << " cases of the shared table\n";
}
