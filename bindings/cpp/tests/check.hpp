// A minimal test harness: TEST registers a function, CHECK records a failed
// condition without stopping the test, and main() (in main.cpp) runs every
// test and prints the counts. Nothing here depends on NDEBUG.

#ifndef AIKIDO_TESTS_CHECK_HPP
#define AIKIDO_TESTS_CHECK_HPP

#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace check {

struct Test {
    const char *name;
    std::function<void()> body;
};

/// Every registered test, in the order of registration.
inline std::vector<Test> &tests() {
    static std::vector<Test> all;
    return all;
}

/// The failed checks of the test that is running.
inline int &failures() {
    static int count = 0;
    return count;
}

struct Registration {
    Registration(const char *name, std::function<void()> body) { tests().push_back({name, std::move(body)}); }
};

inline void fail(const char *file, int line, const std::string &what) {
    ++failures();
    std::cerr << file << ":" << line << ": check failed: " << what << "\n";
}

template <class Value>
std::string show(const Value &value) {
    std::ostringstream out;
    if constexpr (std::is_enum_v<Value>) {
        out << static_cast<long long>(value);
    } else {
        out << value;
    }
    return out.str();
}

/// A list of strings, each quoted with its escapes visible, so that a
/// failed comparison of write sets shows which path differs and how.
inline std::string show(const std::vector<std::string> &values) {
    std::ostringstream out;
    out << "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
        out << (i ? ", " : "") << '"';
        for (const char byte : values[i]) {
            if (byte == '"' || byte == '\\') {
                out << '\\' << byte;
            } else if (static_cast<unsigned char>(byte) < 0x20) {
                out << "\\x" << "0123456789abcdef"[(byte >> 4) & 0xf] << "0123456789abcdef"[byte & 0xf];
            } else {
                out << byte;
            }
        }
        out << '"';
    }
    out << "]";
    return out.str();
}

inline bool contains(std::string_view text, std::string_view fragment) {
    return text.find(fragment) != std::string_view::npos;
}

}  // namespace check

#define CHECK_CONCAT_(a, b) a##b
#define CHECK_CONCAT(a, b) CHECK_CONCAT_(a, b)

#define TEST(name)                                                                  \
    static void name();                                                             \
    static const check::Registration CHECK_CONCAT(registration_, name)(#name, name); \
    static void name()

#define CHECK(condition)                                        \
    do {                                                        \
        if (!(condition)) check::fail(__FILE__, __LINE__, #condition); \
    } while (0)

#define CHECK_EQ(actual, expected)                                                                          \
    do {                                                                                                    \
        const auto check_actual = (actual);                                                                 \
        const auto check_expected = (expected);                                                             \
        if (!(check_actual == check_expected))                                                              \
            check::fail(__FILE__, __LINE__,                                                                 \
                        std::string(#actual " == " #expected "; got ") + check::show(check_actual) + " vs " + \
                            check::show(check_expected));                                                   \
    } while (0)

#define CHECK_CONTAINS(text, fragment)                                                                     \
    do {                                                                                                   \
        const std::string check_text(text);                                                                \
        if (!check::contains(check_text, fragment))                                                        \
            check::fail(__FILE__, __LINE__, std::string(#text " contains \"") + (fragment) + "\"; got \"" + \
                                                check_text + "\"");                                        \
    } while (0)

#endif  // AIKIDO_TESTS_CHECK_HPP
