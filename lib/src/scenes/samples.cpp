// springkit — the sample catalogue (samples.hpp).
#include "springkit/samples.hpp"

#include <string>

#include "springkit/builders.hpp"
#include "springkit/error.hpp"

namespace springkit {

namespace {

constexpr const char* kOliveira = "Exploring Spring Models (Oliveira)";
constexpr const char* kTunca = "Rope physics tutorial (Tunca)";
constexpr const char* kSource = "How the Source engine simulates rope";
constexpr const char* kGarrido = "Real-time rope thesis (Garrido)";
constexpr const char* kBuilderboy = "Single segmented rope physics (Builderboy)";

constexpr SampleInfo kSamples[] = {
    {"string", kOliveira,
     "a string of 20 nodes over 2 m (listing 4), first node anchored, swinging down; builder defaults "
     "k 1000 N/m, 0.05 kg, energy loss 0.99"},
    {"cloth", kOliveira,
     "the textured cloth of Figures 14-17: 20 x 20 nodes over 2 m with shear and bend springs, four "
     "anchors in a square around its centre, lit and textured (cloth.png, a generated checkerboard)"},
    {"jelly", kOliveira,
     "a 4 x 4 x 4 jelly in the stable arrangement of Figure 8, plus springs skipping one node along "
     "each axis (his stacked-planes variant) so a hard shake cannot leave a cell inside out, dropped "
     "0.5 m onto a ground; ground "
     "constants ours (repulsion 1000 N/m so it does not sink, friction 0.5, absorption 5)"},
    {"balloon", kOliveira,
     "a string tied to a spherical jelly, held at the string's end; the gas lifts it with 1.25 times "
     "its weight (our choice) so the body floats and the string hangs below it, string k 3000 N/m"},
    {"flag", kOliveira,
     "a flag on a flexible pole: a 13 x 9 cloth tied to a jelly-column pole anchored at its foot, "
     "wind 5 m/s across it with gusts of 3 m/s every 3 s; pole k 25000 N/m, 0.1 kg nodes, flag "
     "0.01 kg nodes, air friction 0.02, 1 ms substeps (all ours)"},
    {"finish-line", kOliveira,
     "the F1 finish-line cloth: a 4 x 0.6 m banner held by four strings to two poles, pushed by a gust "
     "of 8 m/s every 4 s as a car passes; constants ours (banner 0.02 kg nodes, strings k 3000 N/m)"},
    {"tunca-rope", kTunca,
     "the 80-mass rope with his constants (0.05 kg, k 10000, inner friction 0.2, air friction 0.02, "
     "ground at -1.5 m with repulsion 100, friction 0.2, absorption 2, 2 ms steps); the first mass "
     "is the connection point, moved by a velocity (the editor's keys)"},
    {"source-rope", kSource,
     "a rope of 10 nodes (9 segments) between two points with 0.5 m slack, Verlet with damping 0.98, "
     "three shortening relaxation passes, presimulated 3 s; drawn with 2 Catmull-Rom subdivisions"},
    {"garrido-rope", kGarrido,
     "the improved rope: Tunca's rope with k 20000, 1 ms steps and no inner friction; first mass "
     "driven by the editor's keys"},
    {"bead-rope", kGarrido,
     "a heavy bead (1 kg, our choice; friction 0.5 N s/m, ours) sliding down an improved rope hung "
     "between a high and a low end, which sags under it"},
    {"jump-rope", kGarrido,
     "a jump rope whose ends turn on circles of 0.25 m (his value) at 12 rad/s (ours; at 8 the middle can fall through the axis) around the axis "
     "through them; radius and speed are the anchors' settings"},
    {"single-segment-rope", kBuilderboy,
     "two bodies on inextensible 1 m ropes: one dropped from inside its circle that turns into a "
     "pendulum when the rope pulls tight, one dropped below its point that bounces back with his 3/2 "
     "pull (bounce 0.5)"},
};

Model build(std::string_view name) {
    if (name == "string") return make_string();
    if (name == "cloth") {
        Model m = make_cloth({.columns = 20, .rows = 20, .anchors = ClothAnchors::center_square});
        m.texture = kClothTexture;
        return m;
    }
    if (name == "jelly") {
        Parameters p;
        p.ground = Ground{.height = 0.0f, .repulsion = 1000.0f, .friction = 0.5f, .absorption = 5.0f};
        return make_jelly({.origin = {-0.5f, 0.5f, -0.5f}, .bend = true}, p);
    }
    if (name == "balloon") return make_balloon();
    if (name == "flag") return make_flag();
    if (name == "finish-line") return make_finish_line();
    if (name == "tunca-rope") return make_tunca_rope();
    if (name == "source-rope") {
        // Valve: 10 nodes and 9 springs, settled for 3 s before it is shown.
        Model m = make_source_rope({.segments = 9});
        presimulate(m, 3.0f);
        return m;
    }
    if (name == "garrido-rope") return make_garrido_rope();
    if (name == "bead-rope") return make_bead_rope();
    if (name == "jump-rope") return make_jump_rope();
    if (name == "single-segment-rope") return make_tethered_bodies();
    std::string known;
    for (const SampleInfo& s : kSamples) known += std::string(known.empty() ? "" : ", ") + s.name;
    throw Error("unknown sample \"" + std::string(name) + "\" (known: " + known + ")");
}

}  // namespace

std::span<const SampleInfo> sample_catalogue() { return kSamples; }

Model make_sample(std::string_view name) {
    Model m = build(name);
    m.name = std::string(name);
    return m;
}

}  // namespace springkit
