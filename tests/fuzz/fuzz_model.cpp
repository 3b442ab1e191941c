// Fuzz target: model files, JSON and binary form (see fuzz_targets.hpp).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_checks.hpp"
#include "fuzz_targets.hpp"
#include "springkit/springkit.hpp"

namespace springkit::fuzz {

namespace {

// Steps a loaded model for a few frames when that is cheap enough for a fuzzer
// (a file may ask for 16667 substeps per frame): the result must be finite or a
// SimulationError, never a crash.
void step_a_little(const Model& model) {
    const double substeps = std::ceil((1.0 / 60.0) / model.params.max_substep);
    if (substeps * static_cast<double>(model.node_count() + model.springs.size() + model.faces.size()) > 2.0e5)
        return;
    Simulation sim(model);
    if (!three_frames_stay_finite(sim)) return;
    for (const Vec3& n : sim.normals())
        if (!is_finite(n)) broken("finite normals");
}

}  // namespace

void model_file(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    // Inputs that start with the binary form's magic go to the binary reader.
    const bool binary = bytes.rfind("SPRINGKB", 0) == 0;
    const std::string name = binary ? "fuzz.skb" : "fuzz.json";
    Model model;
    try {
        model = binary ? model_from_binary(bytes, name) : model_from_json(bytes, name);
    } catch (const Error& e) {
        if (std::string_view(e.what()).rfind(name, 0) != 0) broken("error names the file", e.what());
        if (std::string_view(e.what()).find('\n') != std::string_view::npos) broken("one-line error", e.what());
        return;
    }
    // Whatever loads is valid, saves, and loads back identical.
    try {
        validate(model);
    } catch (const Error& e) {
        broken("a loaded model validates", e.what());
    }
    const std::string text = model_to_json(model);
    const Model back = model_from_json(text, "round-trip.json");
    if (!(back == model)) broken("save then load gives the same model");
    if (model_to_json(back) != text) broken("saving is deterministic");
    if (!(model_from_binary(model_to_binary(model), "round-trip.skb") == model))
        broken("save then load in the binary form gives the same model");
    // tests/fuzz/run seeds the binary corpus by running the samples through here.
    if (const char* out = std::getenv("SPRINGKIT_FUZZ_WRITE_BINARY")) write_file_atomically(out, model_to_binary(model));
    (void)stability_warning(model);
    step_a_little(model);
    // Renumbering for speed keeps a valid model valid (and the same size).
    Model renumbered = model;
    if (!reorder_for_locality(renumbered).empty()) {
        try {
            validate(renumbered);
        } catch (const Error& e) {
            broken("a renumbered model validates", e.what());
        }
        if (renumbered.node_count() != model.node_count() || renumbered.springs.size() != model.springs.size())
            broken("renumbering keeps the nodes and springs");
        step_a_little(renumbered);
    }
}

}  // namespace springkit::fuzz
