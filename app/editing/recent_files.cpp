// springkit-editor — recent files.
#include "editing/recent_files.hpp"

#include <algorithm>
#include <sstream>
#include <system_error>

#include "springkit/io.hpp"

namespace springkit::editor {

namespace fs = std::filesystem;

namespace {

fs::path absolute_path(const fs::path& path) {
    std::error_code ec;
    fs::path out = fs::absolute(path, ec);
    return ec ? path : out.lexically_normal();
}

}  // namespace

RecentFiles RecentFiles::load(const fs::path& file) {
    RecentFiles recent;
    std::string text;
    try {
        text = read_file(file);
    } catch (const std::exception&) {
        return recent;
    }
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line) && recent.paths_.size() < kMax)
        if (!line.empty()) recent.paths_.emplace_back(line);
    return recent;
}

bool RecentFiles::save(const fs::path& file) const {
    std::string text;
    for (const fs::path& p : paths_) text += p.string() + "\n";
    try {
        std::error_code ec;
        fs::create_directories(file.parent_path(), ec);
        write_file_atomically(file, text);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

void RecentFiles::add(const fs::path& path) {
    const fs::path p = absolute_path(path);
    remove(p);
    paths_.insert(paths_.begin(), p);
    if (paths_.size() > kMax) paths_.resize(kMax);
}

void RecentFiles::remove(const fs::path& path) {
    const fs::path p = absolute_path(path);
    std::erase(paths_, p);
}

}  // namespace springkit::editor
