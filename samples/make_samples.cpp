// make_samples DIR — writes the sample models, the cloth texture and the README
// (sample_files.hpp) under DIR (the repository's samples/ folder).
#include <cstdio>
#include <filesystem>
#include <springkit/springkit.hpp>

#include "sample_files.hpp"

int main(int argc, char** argv) {
    if (argc != 2 || std::string(argv[1]) == "--help") {
        std::fprintf(argc == 2 ? stdout : stderr, "usage: make_samples DIR   (writes DIR/models/*.json and DIR/README.md)\n");
        return argc == 2 ? 0 : 2;
    }
    try {
        const std::filesystem::path dir = argv[1];
        for (const springkit::samples::SampleFile& f : springkit::samples::sample_files()) {
            const std::filesystem::path path = dir / f.path;
            std::filesystem::create_directories(path.parent_path());
            springkit::write_file_atomically(path, f.bytes);
            std::printf("%s\n", path.string().c_str());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
