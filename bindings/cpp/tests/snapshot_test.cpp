// Session snapshots from C++: Shell::snapshot, Shell::restore (into a new
// memory storage and into a storage given), Shell::fork, and bad bytes.

#include "aikido.hpp"
#include "check.hpp"

#include <string>

TEST(shell_snapshot_restore_and_fork) {
    const aikido::Storage storage = aikido::Storage::memory();
    aikido::Shell shell(storage);
    shell.run("mkdir /w && cd /w && echo data > f; x=1; g() { echo \"g $x\"; }");
    const std::string bytes = shell.snapshot();
    CHECK_EQ(bytes.substr(0, 8), std::string("AIKIDOSS"));

    aikido::Shell restored = aikido::Shell::restore(bytes);
    CHECK_EQ(restored.run("g; pwd; cat f").out, std::string("g 1\n/w\ndata\n"));
    CHECK_EQ(restored.storage().read("/w/f"), std::string("data\n"));

    const aikido::Storage other = aikido::Storage::memory();
    other.write("/stale", "x");
    aikido::Shell into = aikido::Shell::restore(bytes, other);
    CHECK_EQ(into.run("ls /").out, std::string("w\n"));

    aikido::Shell fork = shell.fork();
    fork.run("echo more >> f; x=2");
    CHECK_EQ(shell.run("cat f; echo $x").out, std::string("data\n1\n"));
    CHECK_EQ(fork.run("cat f; echo $x").out, std::string("data\nmore\n2\n"));

    std::string flipped = bytes;
    flipped[flipped.size() / 2] ^= 0x10;
    try {
        aikido::Shell::restore(flipped);
        CHECK(false);
    } catch (const aikido::Error &error) {
        CHECK(error.status() == aikido::Status::invalid_input);
        CHECK_CONTAINS(std::string(error.what()), "checksum does not match");
    }
}
