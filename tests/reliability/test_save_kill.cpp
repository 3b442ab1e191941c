// No data loss: a process killed (SIGKILL) at a random moment while saving a large
// model leaves the old file or the new one, complete and loadable, never a mix.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <string>
#include <thread>

#include "springkit/springkit.hpp"

using namespace springkit;
namespace fs = std::filesystem;

namespace {

fs::path work_dir() {
    const fs::path dir = fs::temp_directory_path() / ("springkit-save-kill-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

int temp_files_in(const fs::path& dir) {
    int count = 0;
    for (const auto& entry : fs::directory_iterator(dir))
        count += entry.path().filename().string().rfind(".springkit-tmp-", 0) == 0;
    return count;
}

// A cloth of 120 x 120 nodes: about 4 MB of JSON, tens of milliseconds to save.
Model large_model(float k) {
    Parameters params;
    params.k = k;
    return make_cloth({.columns = 120, .rows = 120}, params);
}

}  // namespace

TEST(SaveKill, KilledSaveAlwaysLeavesACompleteFile) {
    const fs::path dir = work_dir();
    const fs::path file = dir / "cloth.json";
    const Model original = large_model(1000.0f);
    const Model edits[2] = {large_model(2000.0f), large_model(3000.0f)};
    save_model(original, file);
    const std::string texts[3] = {model_to_json(original), model_to_json(edits[0]), model_to_json(edits[1])};
    for (const std::string& text : texts) ASSERT_NO_THROW(model_from_json(text));

    const auto start = std::chrono::steady_clock::now();
    write_file_atomically(dir / "timing.json", texts[1]);
    const auto save_time = std::chrono::steady_clock::now() - start;
    fs::remove(dir / "timing.json");

    // Kill moments spread over about three saves (after the fork), so some land mid-write, some
    // between saves and some in the rename. The seed is fixed: failures repeat.
    std::mt19937 random(20261122);
    std::uniform_int_distribution<long long> delay_us(
        0, 3 * std::chrono::duration_cast<std::chrono::microseconds>(save_time).count() + 1000);
    constexpr int kKills = 40;
    int interrupted_writes = 0;
    for (int kill = 0; kill < kKills; ++kill) {
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            // The child saves the two edits in turn until it is killed. It writes
            // the text save_model() would write, serialised beforehand, so that most
            // of its time is spent in the file operations the kill should interrupt.
            try {
                for (int i = 1;; i = 3 - i) write_file_atomically(file, texts[i]);
            } catch (...) {
                ::_exit(3);
            }
        }
        const long long wait = delay_us(random);
        std::this_thread::sleep_for(std::chrono::microseconds(wait));
        ASSERT_EQ(::kill(child, SIGKILL), 0);
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the saver died by itself: " << status;

        interrupted_writes += temp_files_in(dir) > 0;
        const std::string text = read_file(file);
        const bool complete = text == texts[0] || text == texts[1] || text == texts[2];
        ASSERT_TRUE(complete) << "kill " << kill << " after " << wait << " us left a file of " << text.size()
                              << " bytes that is none of the saved versions";
    }
    // The test is only worth something if kills really landed in the middle of writes.
    EXPECT_GE(interrupted_writes, kKills / 4) << "only " << interrupted_writes << " kills interrupted a write";
    std::cout << "[ info     ] " << kKills << " kills, " << interrupted_writes
              << " in the middle of a write; write takes "
              << std::chrono::duration_cast<std::chrono::milliseconds>(save_time).count() << " ms\n";

    // The next save clears the temp files that the killed processes left behind.
    save_model(original, file);
    EXPECT_EQ(temp_files_in(dir), 0);
    EXPECT_EQ(read_file(file), texts[0]);
    fs::remove_all(dir);
}

TEST(SaveKill, TempFilesOfLiveProcessesAreLeftAlone) {
    const fs::path dir = work_dir();
    const fs::path file = dir / "model.json";
    // A save in progress in this (live) process, and one of a process that is gone.
    const fs::path mine = dir / (".springkit-tmp-" + std::to_string(::getpid()) + "-1-0-model.json");
    const pid_t gone = ::fork();
    if (gone == 0) ::_exit(0);
    ::waitpid(gone, nullptr, 0);
    const fs::path stale = dir / (".springkit-tmp-" + std::to_string(gone) + "-1-0-model.json");
    const fs::path other = dir / (".springkit-tmp-" + std::to_string(gone) + "-1-0-other.json");
    for (const fs::path& p : {mine, stale, other}) write_file_atomically(p, "partial");
    save_model(make_string({.nodes = 3}), file);
    EXPECT_TRUE(fs::exists(mine));
    EXPECT_FALSE(fs::exists(stale));
    EXPECT_TRUE(fs::exists(other));  // belongs to another file's save
    fs::remove_all(dir);
}

TEST(SaveKill, SavingKeepsPermissionsAndSymbolicLinks) {
    const fs::path dir = work_dir();
    const fs::path file = dir / "private.json", link = dir / "link.json";
    save_model(make_string({.nodes = 3}), file);
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
    fs::create_symlink(file.filename(), link);
    save_model(make_string({.nodes = 4}), link);
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(load_model(file).node_count(), 4u);
    EXPECT_EQ(fs::status(file).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
    fs::remove_all(dir);
}
