// Runs every registered test; one that throws counts as failed. The last
// line is the summary test.sh reads.

#include <exception>
#include <iostream>

#include "check.hpp"

int main() {
    int passed = 0;
    int failed = 0;
    for (const check::Test &test : check::tests()) {
        check::failures() = 0;
        try {
            test.body();
        } catch (const std::exception &exception) {
            check::fail(__FILE__, __LINE__, std::string(test.name) + " threw: " + exception.what());
        } catch (...) {
            check::fail(__FILE__, __LINE__, std::string(test.name) + " threw a non-standard exception");
        }
        if (check::failures() == 0) {
            ++passed;
        } else {
            ++failed;
            std::cerr << "FAILED: " << test.name << "\n";
        }
    }
    std::cout << "tests: " << passed << " passed, " << failed << " failed\n";
    return failed == 0 && passed > 0 ? 0 : 1;
}
