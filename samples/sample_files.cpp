// springkit — generating samples/ (sample_files.hpp).
#include "sample_files.hpp"

#include <array>
#include <cstdint>
#include <springkit/springkit.hpp>

namespace springkit::samples {

namespace {

// PNG's CRC-32 (ISO 3309) over a byte range.
std::uint32_t crc32(const std::string& bytes, std::size_t from) {
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    std::uint32_t c = 0xFFFFFFFFu;
    for (std::size_t i = from; i < bytes.size(); ++i)
        c = table[(c ^ static_cast<unsigned char>(bytes[i])) & 0xFFu] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

void put32(std::string& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((v >> shift) & 0xFFu);
}

void chunk(std::string& png, const char* type, const std::string& data) {
    put32(png, static_cast<std::uint32_t>(data.size()));
    const std::size_t start = png.size();
    png += type;
    png += data;
    put32(png, crc32(png, start));
}

}  // namespace

std::string checkerboard_png(int size, int squares) {
    // Raw scanlines (filter byte 0, then RGB), cream and brick-red squares.
    std::string raw;
    const int square = size / squares;
    for (int y = 0; y < size; ++y) {
        raw += '\0';
        for (int x = 0; x < size; ++x) {
            const bool dark = ((x / square) + (y / square)) % 2 == 1;
            raw += static_cast<char>(dark ? 170 : 240);
            raw += static_cast<char>(dark ? 50 : 230);
            raw += static_cast<char>(dark ? 40 : 200);
        }
    }
    // zlib stream of stored (uncompressed) deflate blocks of at most 65535 bytes.
    std::string z = "\x78\x01";
    for (std::size_t at = 0; at < raw.size() || at == 0; at += 65535) {
        const std::size_t n = std::min<std::size_t>(65535, raw.size() - at);
        z += static_cast<char>(at + n == raw.size() ? 1 : 0);
        z += static_cast<char>(n & 0xFFu);
        z += static_cast<char>(n >> 8);
        z += static_cast<char>(~n & 0xFFu);
        z += static_cast<char>((~n >> 8) & 0xFFu);
        z.append(raw, at, n);
    }
    std::uint32_t a = 1, b = 0;  // Adler-32
    for (unsigned char c : raw) {
        a = (a + c) % 65521u;
        b = (b + a) % 65521u;
    }
    put32(z, (b << 16) | a);

    std::string png = "\x89PNG\r\n\x1a\n";
    std::string header;
    put32(header, static_cast<std::uint32_t>(size));
    put32(header, static_cast<std::uint32_t>(size));
    header += std::string("\x08\x02\x00\x00\x00", 5);  // 8 bits, RGB, deflate, no filter, no interlace
    chunk(png, "IHDR", header);
    chunk(png, "IDAT", z);
    chunk(png, "IEND", "");
    return png;
}

std::vector<SampleFile> sample_files() {
    std::vector<SampleFile> files;
    std::string readme =
        "# Sample models\n"
        "\n"
        "Every spring and rope system of springkit's source texts, as a model the editor opens\n"
        "(`springkit-editor samples/models/cloth.json`) and a game loads. They are the scenes of\n"
        "springkit's one registry, `springkit::scenes()` (lib/src/scenes/scenes.cpp, with the\n"
        "builders of lib/include/springkit/builders.hpp). The editor's File > Samples builds the\n"
        "same models, `springkit::make_sample(NAME)` builds them in a game, and `make_samples`\n"
        "saves them here; do not edit them by hand. After changing a builder, regenerate and\n"
        "commit:\n"
        "\n"
        "```sh\n"
        "cmake --build build --target make_samples && build/samples/make_samples samples\n"
        "```\n"
        "\n"
        "The test `SampleFiles.CommittedFilesAreWhatTheGeneratorWrites` fails while they differ.\n"
        "Where a text leaves a constant open, the line says which one we picked.\n"
        "\n"
        "| model | source text | what it shows |\n"
        "|---|---|---|\n";
    for (const Scene& scene : scenes()) {
        const std::string path = std::string("models/") + scene.name + ".json";
        files.push_back({path, model_to_json(build_scene(scene))});
        std::string name = "[`" + path + "`](" + path + ")";
        if (scene.alias) name += std::string(" (alias `") + scene.alias + "`)";
        readme += "| " + name + " | " + scene.source + " | " + scene.shows + " |\n";
    }
    files.push_back({std::string("models/") + kClothTexture, checkerboard_png(128, 8)});
    // The templates whose defaults are not the sample's: `new NAME` without options
    // writes another model than the file here.
    std::string templates, own_defaults;
    for (const Scene* scene : template_scenes()) {
        templates += std::string(templates.empty() ? "`" : ", `") + scene->name + "`";
        if (model_to_json(build_scene(*scene, {})) != model_to_json(build_scene(*scene)))
            own_defaults += std::string(own_defaults.empty() ? "`" : ", `") + scene->name + "`";
    }
    readme += "\n"
              "`springkit new NAME -o FILE` writes these models too. " +
              templates +
              " are also templates: `--resolution`, `--size`, `--k`, `--energy-loss`, `--mass`, "
              "`--anchors` and `--slack` change them (`springkit new --help` says which option each "
              "reads). Without options a template gives the file here, except " +
              own_defaults +
              ": their templates start from the defaults of the builders "
              "(lib/include/springkit/builders.hpp).\n";
    readme +=
        "\n"
        "## Playing them\n"
        "\n"
        "- `tunca-rope`, `garrido-rope`: anchor 0 is the rope's connection point, driven by a\n"
        "  velocity; a game or the editor's keys set it with `Simulation::set_anchor_velocity(0, v)`.\n"
        "- `jump-rope`: anchors 0 and 1 turn on circles; `Simulation::set_anchor_circle(a, radius,\n"
        "  speed)` changes their radius and angular speed while it turns (Garrido's keys); the\n"
        "  model's starting values are the node's distance from `Anchor::center` and\n"
        "  `Anchor::angular_speed`.\n"
        "- `bead-rope`: `Simulation::bead_positions()` says where to draw the bead.\n"
        "- `balloon`, `source-rope`, ropes and strings: `Model::tubes` with `make_tube`\n"
        "  (springkit/rope_mesh.hpp) give smooth textured tubes to draw.\n"
        "- `flag`, `finish-line`: `Parameters::wind` and `Parameters::gust` set the air.\n";
    files.push_back({"README.md", readme});
    return files;
}

}  // namespace springkit::samples
