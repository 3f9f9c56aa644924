// The virtual file storage from C++: round trips, errors, composition, the
// overlay's diff/commit/discard, the dry run, mounts, policy, host folders,
// and the file tools dispatched through a registry.

#include "aikido.hpp"
#include "check.hpp"

#include <cstdlib>
#include <fstream>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <vector>

namespace {

/// Expects the call to throw aikido::Error with this status; returns its message.
template <class Call>
std::string storage_error(Call call, aikido::Status status = aikido::Status::storage) {
    try {
        call();
    } catch (const aikido::Error &error) {
        CHECK_EQ(error.status(), status);
        return error.what();
    }
    CHECK(!"the call did not throw aikido::Error");
    return "";
}

std::string names(const std::vector<aikido::DirEntry> &entries) {
    std::string text;
    for (const aikido::DirEntry &entry : entries) {
        const char *kind = entry.kind == aikido::FileKind::directory ? "/"
                           : entry.kind == aikido::FileKind::symlink ? "@"
                                                                     : "";
        text += (text.empty() ? "" : " ") + entry.name + kind;
    }
    return text;
}

std::string changes(const std::vector<aikido::Change> &diff) {
    std::string text;
    for (const aikido::Change &change : diff) {
        const char *kind = change.change == aikido::ChangeKind::added      ? "added"
                           : change.change == aikido::ChangeKind::modified ? "modified"
                                                                           : "deleted";
        text += (text.empty() ? "" : " ") + std::string(kind) + ":" + change.path;
    }
    return text;
}

}  // namespace

static_assert(!std::is_copy_constructible_v<aikido::Storage> && std::is_nothrow_move_constructible_v<aikido::Storage>);

TEST(storage_round_trips) {
    const aikido::Storage storage = aikido::Storage::memory();
    storage.mkdir("/a/b", true);
    storage.write("/a/b/one.txt", "one");
    storage.append("a/b/one.txt", " two");
    CHECK_EQ(storage.read("/a/./b/../b/one.txt"), std::string("one two"));

    const std::string binary("\0\1\2\0\xff", 5);  // any bytes, NULs included
    storage.write("/bin", binary);
    CHECK_EQ(storage.read("/bin"), binary);
    storage.write("/empty", "");
    CHECK_EQ(storage.read("/empty"), std::string());

    const aikido::FileStat stat = storage.stat("/a/b/one.txt");
    CHECK_EQ(stat.kind, aikido::FileKind::file);
    CHECK_EQ(stat.size, std::uint64_t{7});
    CHECK_EQ(stat.mode, std::uint32_t{0644});
    CHECK(stat.modified_unix_ms > 0);

    storage.symlink("a/b", "/link");
    CHECK_EQ(storage.readlink("/link"), std::string("a/b"));
    CHECK_EQ(storage.stat("/link").kind, aikido::FileKind::directory);
    CHECK_EQ(storage.read("/link/one.txt"), std::string("one two"));
    storage.write("/we \"quote\"\\ \t", "odd");
    CHECK_EQ(names(storage.list("/")), std::string("a/ bin empty link@ we \"quote\"\\ \t"));

    storage.rename("/a", "/z");
    CHECK_EQ(names(storage.list("/z/b")), std::string("one.txt"));
    storage.remove("/z", true);
    storage.remove("/empty");
    CHECK_EQ(names(storage.list("/")), std::string("bin link@ we \"quote\"\\ \t"));
}

TEST(storage_errors_carry_the_status_and_the_message) {
    const aikido::Storage storage = aikido::Storage::memory();
    storage.mkdir("/a");
    storage.write("/a/f", "x");
    CHECK_EQ(storage_error([&] { storage.read("/missing"); }), std::string("/missing: No such file or directory"));
    CHECK_EQ(storage_error([&] { storage.remove("/a"); }), std::string("/a: Directory not empty"));
    CHECK_EQ(storage_error([&] { storage.rename("/a", "/a/inside"); }), std::string("/a/inside: Invalid argument"));
    CHECK_EQ(storage_error([&] { storage.mkdir("/a"); }), std::string("/a: File exists"));
    CHECK_EQ(storage_error([&] { storage.list("/a/f"); }), std::string("/a/f: Not a directory"));
    storage_error([&] { storage.stat("/nope"); });
    CHECK_CONTAINS(storage_error([&] { storage.read(std::string("/a\0b", 4)); }, aikido::Status::invalid_input),
                   "NUL");
    CHECK_CONTAINS(storage_error([&] { storage.mkdir("\xff"); }, aikido::Status::invalid_input), "UTF-8");
    CHECK_EQ(storage_error([&] { storage.diff(); }, aikido::Status::invalid_input),
             std::string("aikido/tools: invalid input: only an overlay or a dry run has a diff"));

    const aikido::Storage limited = aikido::Storage::memory(10, 6);
    limited.write("/a", "123456");
    CHECK_EQ(storage_error([&] { limited.write("/b", "1234567"); }),
             std::string("/b: File too large (the limit is 6 bytes)"));
    limited.write("/b", "1234");
    CHECK_EQ(storage_error([&] { limited.append("/b", "5"); }),
             std::string("/b: File too large (the limit is 10 bytes)"));
    CHECK_EQ(limited.read("/b"), std::string("1234"));

    // A moved-from storage is NULL to the library.
    aikido::Storage moved = aikido::Storage::memory();
    const aikido::Storage taken(std::move(moved));
    CHECK(moved.native() == nullptr);  // NOLINT(bugprone-use-after-move)
    CHECK_EQ(storage_error([&] { moved.read("/x"); }, aikido::Status::invalid_input),
             std::string("aikido/tools: invalid input: storage is NULL"));
    CHECK_EQ(storage_error([&] { aikido::Storage::overlay(moved); }, aikido::Status::invalid_input),
             std::string("aikido/tools: invalid input: storage is NULL (moved from)"));
}

TEST(storage_overlay_dry_run_and_read_only) {
    std::optional<aikido::Storage> lower = aikido::Storage::memory();
    lower->write("/keep.txt", "keep");
    lower->write("/gone.txt", "gone");
    const aikido::Storage overlay = aikido::Storage::overlay(*lower);
    overlay.write("/keep.txt", "changed");
    overlay.write("/new.txt", "new");
    overlay.remove("/gone.txt");
    CHECK_EQ(lower->read("/keep.txt"), std::string("keep"));
    CHECK_EQ(changes(overlay.diff()), std::string("deleted:/gone.txt modified:/keep.txt added:/new.txt"));
    overlay.commit();
    CHECK_EQ(lower->read("/keep.txt"), std::string("changed"));
    CHECK_EQ(lower->read("/new.txt"), std::string("new"));
    CHECK(overlay.diff().empty());
    overlay.write("/keep.txt", "again");
    overlay.discard();
    CHECK_EQ(overlay.read("/keep.txt"), std::string("changed"));

    const aikido::Storage dry_run = aikido::Storage::dry_run(*lower);
    dry_run.write("/planned.txt", "plan");
    CHECK_EQ(changes(dry_run.diff()), std::string("added:/planned.txt"));
    CHECK_EQ(storage_error([&] { dry_run.commit(); }, aikido::Status::invalid_input),
             std::string("aikido/tools: invalid input: only an overlay can commit"));

    const aikido::Storage read_only = aikido::Storage::read_only(*lower);
    CHECK_EQ(storage_error([&] { read_only.write("/keep.txt", "x"); }),
             std::string("/keep.txt: Read-only file system"));
    lower.reset();  // the composed storages keep their share
    CHECK_EQ(read_only.read("/new.txt"), std::string("new"));
    CHECK_EQ(dry_run.read("/planned.txt"), std::string("plan"));
}

TEST(storage_mounts_and_policy) {
    const aikido::Storage root = aikido::Storage::memory();
    const aikido::Storage data = aikido::Storage::memory();
    root.write("/top.txt", "top");
    data.write("/inside.txt", "inside");
    const aikido::Storage mounted = aikido::Storage::mount(root, "/mnt/data", data);
    CHECK_EQ(mounted.read("/mnt/data/inside.txt"), std::string("inside"));
    CHECK_EQ(names(mounted.list("/")), std::string("mnt/ top.txt"));
    CHECK_EQ(storage_error([&] { mounted.rename("/top.txt", "/mnt/data/top.txt"); }),
             std::string("/mnt/data/top.txt: Invalid cross-device link"));
    CHECK_EQ(storage_error([&] { aikido::Storage::mount(root, "\xff", data); }, aikido::Status::invalid_input),
             std::string("aikido/tools: invalid input: a storage is NULL (moved from), or the prefix is not UTF-8"));

    const aikido::Storage guarded = aikido::Storage::policy(
        mounted, {{aikido::Access::read, true, "/mnt/**"}, {aikido::Access::write, false, "/**"}});
    CHECK_EQ(guarded.read("/mnt/data/inside.txt"), std::string("inside"));
    storage_error([&] { guarded.read("/top.txt"); });
    CHECK_EQ(storage_error([&] { guarded.write("/mnt/data/x", "x"); }), std::string("/mnt/data/x: Permission denied"));
    const aikido::PathRule bad{static_cast<aikido::Access>(7), true, "/"};
    CHECK_CONTAINS(storage_error([&] { aikido::Storage::policy(mounted, {bad}); }, aikido::Status::invalid_input),
                   "rules[0].access is 7");
}

TEST(storage_host_folder) {
    char scratch[] = "/tmp/aikido-cpp-storage-XXXXXX";
    CHECK(mkdtemp(scratch) != nullptr);
    const std::string root(scratch);
    {
        const aikido::Storage host = aikido::Storage::host(root);
        host.write("/inside.txt", "fine");
        CHECK_EQ(host.read("/../inside.txt"), std::string("fine"));
        const aikido::Storage read_only = aikido::Storage::host(root, true);
        CHECK_EQ(read_only.read("/inside.txt"), std::string("fine"));
        storage_error([&] { read_only.write("/inside.txt", "x"); });
    }
    std::ifstream file(root + "/inside.txt");
    std::string content;
    std::getline(file, content);
    CHECK_EQ(content, std::string("fine"));
    CHECK_CONTAINS(storage_error([] { aikido::Storage::host("/no/such/folder"); }, aikido::Status::invalid_input),
                   "the folder \"/no/such/folder\" cannot be used");
    std::remove((root + "/inside.txt").c_str());
    rmdir(scratch);
}

TEST(file_tools_through_a_registry) {
    aikido::Registry registry;
    {
        const aikido::Storage storage = aikido::Storage::memory();
        registry.register_file_tools(storage);
        storage.write("/seed.txt", "seeded\n");
    }  // the tools keep their share
    CHECK_EQ(registry.size(), std::size_t{5});
    const std::string definitions = registry.definitions();
    for (const char *name : {"read_file", "write_file", "list_directory", "edit_file", "delete_path"}) {
        CHECK_CONTAINS(definitions, std::string("\"name\":\"") + name + "\"");
    }
    CHECK_EQ(registry.dispatch("write_file", R"({"path":"/notes/todo.md","content":"- ship it\n"})").content(),
             std::string("wrote 10 bytes to /notes/todo.md"));
    CHECK_EQ(registry.dispatch("edit_file", R"({"path":"/notes/todo.md","old_text":"ship","new_text":"test"})")
                 .content(),
             std::string("replaced 1 occurrence in /notes/todo.md"));
    CHECK_EQ(registry.dispatch("read_file", R"({"path":"/notes/todo.md"})").content(), std::string("- test it\n"));
    CHECK_EQ(registry.dispatch("read_file", R"({"path":"/seed.txt"})").content(), std::string("seeded\n"));
    CHECK_CONTAINS(registry.dispatch("list_directory", R"({"path":"/"})").content(), "notes");
    const aikido::Outcome missing = registry.dispatch("read_file", R"({"path":"/nope"})");
    CHECK_EQ(missing.status(), aikido::Status::tool_failed);
    CHECK_EQ(std::string(missing.error().what()),
             std::string("read_file: /nope: No such file or directory; list_directory shows what exists"));
    CHECK_EQ(registry.dispatch("read_file", "{}").status(), aikido::Status::invalid_arguments);

    CHECK_EQ(storage_error([&] { registry.register_file_tools(aikido::Storage::memory()); },
                           aikido::Status::duplicate_tool)
                 .empty(),
             false);
}

TEST(storage_entries_and_changes_are_the_librarys_arrays) {
    const aikido::Storage lower = aikido::Storage::memory();
    lower.write("/gone.txt", "gone");
    const aikido::Storage overlay = aikido::Storage::overlay(lower);
    overlay.mkdir("/src");
    overlay.write("/a.txt", "a");
    overlay.symlink("src", "/link");
    overlay.remove("/gone.txt");

    const aikido::DirEntryArray entries = overlay.entries("/");
    CHECK_EQ(entries.size(), std::size_t{3});
    std::string listed;
    for (const aikido_dir_entry &entry : entries) {
        listed += std::string(listed.empty() ? "" : " ") + entry.name + ":" + std::to_string(entry.kind);
    }
    CHECK_EQ(listed, std::string("a.txt:0 link:2 src:1"));
    CHECK_EQ(std::string(entries[2].name), std::string("src"));
    CHECK_EQ(storage_error([&] { (void)entries[3]; }, aikido::Status::invalid_input),
             std::string("aikido/tools: invalid input: index 3 is out of range: the array holds 3 items"));

    aikido::ChangeArray changes = overlay.changes();
    std::string found;
    for (const aikido_change &change : changes) {
        found += std::string(found.empty() ? "" : " ") + std::to_string(change.change) + ":" + change.path;
    }
    CHECK_EQ(found, std::string("0:/a.txt 2:/gone.txt 0:/link 0:/src"));
    CHECK_EQ(changes[1].change, AIKIDO_CHANGE_DELETED);
    const aikido::ChangeArray moved = std::move(changes);  // move-only; freed once
    CHECK_EQ(moved.size(), std::size_t{4});
    CHECK_EQ(storage_error([&] { lower.changes(); }, aikido::Status::invalid_input),
             std::string("aikido/tools: invalid input: only an overlay or a dry run has a diff"));
    CHECK_EQ(storage_error([&] { lower.entries("/none"); }), std::string("/none: No such file or directory"));
}
