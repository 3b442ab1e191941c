// springkit — the scene registry (scenes.hpp) and the sample wrappers over it
// (samples.hpp).
#include "springkit/scenes.hpp"

#include <string>
#include <vector>

#include "springkit/error.hpp"
#include "springkit/samples.hpp"

namespace springkit {

namespace {

constexpr const char* kOliveira = "Exploring Spring Models (Oliveira)";
constexpr const char* kTunca = "Rope physics tutorial (Tunca)";
constexpr const char* kSource = "How the Source engine simulates rope";
constexpr const char* kGarrido = "Real-time rope thesis (Garrido)";
constexpr const char* kBuilderboy = "Single segmented rope physics (Builderboy)";
constexpr const char* kTeschner =
    "Optimized Spatial Hashing for Collision Detection of Deformable Objects (Teschner et al.)";
constexpr const char* kLiu = "Fast Simulation of Mass-Spring Systems (Liu, Bargteil, O'Brien, Kavan)";

// ---------------------------------------------------------------------------
// The scenes as catalogued

Model cloth_sample() {
    Model m = make_cloth({.columns = 20, .rows = 20, .anchors = ClothAnchors::center_square});
    m.texture = kClothTexture;
    return m;
}

Model jelly_sample() {
    Parameters p;
    p.ground = Ground{.height = 0.0f, .repulsion = 1000.0f, .friction = 0.5f, .absorption = 5.0f};
    return make_jelly({.origin = {-0.5f, 0.5f, -0.5f}, .bend = true}, p);
}

// Valve's rope of 10 nodes and 9 springs; it is settled by the registry entry.
Model source_rope_sample() { return make_source_rope({.segments = 9}); }

// The implicit integrator at one step per 1/60 s frame, stiff enough that the
// explicit ones would need hundreds of substeps (k dt^2 / m in the thousands).
void one_step_per_frame(Parameters& p, int iterations, float chebyshev_rho, float strain_limit) {
    p.integrator = Integrator::implicit;
    p.max_substep = 1.0f / 60.0f;
    p.implicit_iterations = iterations;
    p.chebyshev_rho = chebyshev_rho;
    p.strain_limit = strain_limit;
}

// The benchmark cloth of docs/PERFORMANCE.md: 64 x 64 nodes, 2 m, 1 kg, held
// at two corners, its edges within 1% of their rest length.
Model stiff_cloth_sample() {
    Parameters p;
    p.k = 3e4f;
    one_step_per_frame(p, 20, 0.95f, 0.01f);
    p.mass = 1.0f / (64.0f * 64.0f);
    Model m = make_cloth({.columns = 64, .rows = 64, .anchors = ClothAnchors::top_corners}, p);
    m.texture = kClothTexture;
    return m;
}

// A 2 m rope of 40 nodes, 0.5 kg, held at one end and released horizontally.
Model stiff_rope_sample() {
    Parameters p;
    p.k = 2e5f;
    one_step_per_frame(p, 20, 0.9f, 0.01f);
    p.mass = 0.5f / 40.0f;
    Model m = make_string({.nodes = 40, .length = 2.0f, .start = {-1.0f, 1.0f, 0.0f}}, p);
    return m;
}

// Oliveira's flag on its pole at one step per frame: the same springs, wind
// and gusts. Eight strain-limit passes: with four the flag's springs end up
// stretched a quarter more in the wind.
Model stiff_flag_sample() {
    Model m = make_flag();
    one_step_per_frame(m.params, 10, 0.9f, 0.01f);
    m.params.strain_limit_passes = 8;
    return m;
}

// A towel over a rail whose halves meet below it: self-collision keeps them apart.
Model towel_sample() {
    Parameters p;
    p.mass = 0.02f;
    p.energy_loss = 0.98f;
    p.self_collision_distance = 0.1f;  // the spacing of its nodes
    Model m = make_towel({}, p);
    m.texture = kClothTexture;
    return m;
}

// ---------------------------------------------------------------------------
// The templates of `springkit new`

// The parameters of builders that take them: the defaults with the options set
// on top (a balloon's lift follows the gravity it is built with).
Parameters template_parameters(const TemplateOptions& o) {
    Parameters p;
    o.parameters.apply(p);
    return p;
}

Model string_template(const TemplateOptions& o) {
    StringSpec spec;
    if (o.resolution) spec.nodes = o.resolution;
    if (o.size > 0) spec.length = o.size;
    return make_string(spec, template_parameters(o));
}

Model cloth_template(const TemplateOptions& o) {
    ClothSpec spec;
    if (o.resolution) spec.columns = spec.rows = o.resolution;
    if (o.size > 0) spec.width = spec.height = o.size;
    spec.origin = {-spec.width / 2, 1.0f, -spec.height / 2};  // centred over the origin, 1 m up
    spec.anchors = o.anchors;
    return make_cloth(spec, template_parameters(o));
}

Model jelly_template(const TemplateOptions& o) {
    JellySpec spec;
    if (o.resolution) spec.nx = spec.ny = spec.nz = o.resolution;
    if (o.size > 0) spec.size = o.size;
    return make_jelly(spec, template_parameters(o));
}

Model balloon_template(const TemplateOptions& o) {
    BalloonSpec spec;
    if (o.resolution) spec.segments = o.resolution;
    if (o.size > 0) spec.radius = o.size / 2;
    return make_balloon(spec, template_parameters(o));
}

// Tunca's constants come from tunca_rope_parameters(); the options override them.
Model tunca_rope_template(const TemplateOptions& o) {
    TuncaRopeSpec spec;
    if (o.resolution) spec.masses = o.resolution;
    if (o.size > 0) spec.segment = o.size / static_cast<float>(spec.masses - 1);
    Model m = make_tunca_rope(spec);
    o.parameters.apply(m.params);
    return m;
}

// The Source engine's constants come from the builder; the options override them
// (its segments are max-length sticks, SpringKind::rope, which k does not touch).
Model source_rope_template(const TemplateOptions& o) {
    SourceRopeSpec spec;
    if (o.resolution) spec.segments = o.resolution;
    if (o.size > 0) {
        spec.start = {-o.size / 2, 1, 0};
        spec.end = {o.size / 2, 1, 0};
    }
    spec.slack = o.slack;
    Model m = make_source_rope(spec);
    o.parameters.apply(m.params);
    return m;
}

namespace opt = template_option;

constexpr SceneTemplate kStringTemplate{string_template, opt::resolution | opt::size, "nodes",
                                        "length"};
constexpr SceneTemplate kClothTemplate{cloth_template, opt::resolution | opt::size | opt::anchors,
                                       "nodes per side", "width and depth"};
constexpr SceneTemplate kJellyTemplate{jelly_template, opt::resolution | opt::size,
                                       "nodes per axis", "edge"};
constexpr SceneTemplate kBalloonTemplate{balloon_template, opt::resolution | opt::size,
                                         "segments around the body", "diameter of the body"};
constexpr SceneTemplate kTuncaRopeTemplate{tunca_rope_template, opt::resolution | opt::size,
                                           "masses", "length"};
constexpr SceneTemplate kSourceRopeTemplate{
    source_rope_template, opt::resolution | opt::size | opt::slack, "segments",
    "distance between the ends"};

// ---------------------------------------------------------------------------
// The registry

// The Source engine settles a rope for 3 s before it is first shown, so it hangs
// at rest instead of falling from its straight starting line.
constexpr float kSourceRopeSettle = 3.0f;

constexpr Scene kScenes[] = {
    {"string", kOliveira,
     "a string of 20 nodes over 2 m (listing 4), first node anchored, swinging down; builder defaults "
     "k 1000 N/m, 0.05 kg, energy loss 0.99",
     [] { return make_string(); }, 0.0f, &kStringTemplate},
    {"cloth", kOliveira,
     "the textured cloth of Figures 14-17: 20 x 20 nodes over 2 m with shear and bend springs, four "
     "anchors in a square around its centre, lit and textured (cloth.png, a generated checkerboard)",
     cloth_sample, 0.0f, &kClothTemplate},
    {"jelly", kOliveira,
     "a 4 x 4 x 4 jelly in the stable arrangement of Figure 8, plus springs skipping one node along "
     "each axis (his stacked-planes variant) so a hard shake cannot leave a cell inside out, dropped "
     "0.5 m onto a ground; ground "
     "constants ours (repulsion 1000 N/m so it does not sink, friction 0.5, absorption 5)",
     jelly_sample, 0.0f, &kJellyTemplate},
    {"balloon", kOliveira,
     "a string tied to a spherical jelly, held at the string's end; the gas lifts it with 1.25 times "
     "its weight (our choice) so the body floats and the string hangs below it, string k 3000 N/m",
     [] { return make_balloon(); }, 0.0f, &kBalloonTemplate},
    {"flag", kOliveira,
     "a flag on a flexible pole: a 13 x 9 cloth tied to a jelly-column pole anchored at its foot, "
     "wind 5 m/s across it with gusts of 3 m/s every 3 s; pole k 25000 N/m, 0.1 kg nodes, flag "
     "0.01 kg nodes, air friction 0.02, 1 ms substeps (all ours)",
     [] { return make_flag(); }},
    {"finish-line", kOliveira,
     "the F1 finish-line cloth: a 4 x 0.6 m banner held by four strings to two poles, pushed by a gust "
     "of 8 m/s every 4 s as a car passes; constants ours (banner 0.02 kg nodes, strings k 3000 N/m)",
     [] { return make_finish_line(); }},
    {"tunca-rope", kTunca,
     "the 80-mass rope with his constants (0.05 kg, k 10000, inner friction 0.2, air friction 0.02, "
     "ground at -1.5 m with repulsion 100, friction 0.2, absorption 2, 2 ms steps); the first mass "
     "is the connection point, moved by a velocity (the editor's keys)",
     [] { return make_tunca_rope(); }, 0.0f, &kTuncaRopeTemplate, "rope"},
    {"source-rope", kSource,
     "a rope of 10 nodes (9 segments) between two points with 0.5 m slack, Verlet with damping 0.98, "
     "three shortening relaxation passes, presimulated 3 s; drawn with 2 Catmull-Rom subdivisions",
     source_rope_sample, kSourceRopeSettle, &kSourceRopeTemplate},
    {"garrido-rope", kGarrido,
     "the improved rope: Tunca's rope with k 20000, 1 ms steps and no inner friction; first mass "
     "driven by the editor's keys",
     [] { return make_garrido_rope(); }},
    {"bead-rope", kGarrido,
     "a heavy bead (1 kg, our choice; friction 0.5 N s/m, ours) sliding down an improved rope hung "
     "between a high and a low end, which sags under it",
     [] { return make_bead_rope(); }},
    {"jump-rope", kGarrido,
     "a jump rope whose ends turn on circles of 0.25 m (his value) at 12 rad/s (ours; at 8 the middle can fall through the axis) around the axis "
     "through them; radius and speed are the anchors' settings",
     [] { return make_jump_rope(); }},
    {"single-segment-rope", kBuilderboy,
     "two bodies on inextensible 1 m ropes: one dropped from inside its circle that turns into a "
     "pendulum when the rope pulls tight, one dropped below its point that bounces back with his 3/2 "
     "pull (bounce 0.5)",
     [] { return make_tethered_bodies(); }},
    {"towel", kTeschner,
     "a towel over a thin rail: a 9 x 33 cloth (0.8 x 3.2 m, nodes 0.1 m apart, shear and bend springs, "
     "0.02 kg nodes, energy loss 0.98) held along its middle row; its halves swing down and meet below "
     "the rail, and self-collision (the nodes' spatial hash) keeps them 0.1 m apart (constants ours)",
     towel_sample},
    {"stiff-cloth", kLiu,
     "a near-inextensible cloth at one step per 1/60 s frame: 64 x 64 nodes over 2 m, 1 kg, held at two "
     "corners, k 3e4 N/m (k dt^2 / m = 34000), the implicit integrator with 20 iterations, Chebyshev "
     "rho 0.95 and a 1% strain limit",
     stiff_cloth_sample},
    {"stiff-rope", kLiu,
     "a stiff rope at one step per frame: 40 nodes over 2 m, 0.5 kg, k 2e5 N/m, held at one end and "
     "falling from horizontal; the implicit integrator with 20 iterations, Chebyshev rho 0.9 and a 1% "
     "strain limit",
     stiff_rope_sample},
    {"stiff-flag", kLiu,
     "Oliveira's flag on its pole (the flag sample's springs, wind and gusts) at one step per 1/60 s "
     "frame instead of 1 ms substeps: the implicit integrator with 10 iterations, Chebyshev rho 0.9 "
     "and a 1% strain limit in 8 passes; it flies as far downwind as the flag, its cloth stretched a "
     "quarter as much (1.5%: the limit's passes do not reach 1% under the wind's load)",
     stiff_flag_sample},
};

}  // namespace

std::span<const Scene> scenes() { return kScenes; }

std::span<const Scene* const> template_scenes() {
    static const std::vector<const Scene*> list = [] {
        std::vector<const Scene*> l;
        for (const Scene& s : kScenes)
            if (s.parametric) l.push_back(&s);
        return l;
    }();
    return list;
}

const Scene* find_scene_or_null(std::string_view name) {
    for (const Scene& s : kScenes)
        if (name == s.name || (s.alias && name == s.alias)) return &s;
    return nullptr;
}

const Scene& find_scene(std::string_view name) {
    if (const Scene* s = find_scene_or_null(name)) return *s;
    throw Error("unknown scene \"" + std::string(name) + "\" (known: " + scene_names() + ")");
}

std::string scene_names() {
    std::string names;
    for (const Scene& s : kScenes) {
        if (!names.empty()) names += ", ";
        names += s.name;
        if (s.alias) names += std::string(" (alias ") + s.alias + ")";
    }
    return names;
}

namespace {

Model settled(Model m, const Scene& scene) {
    if (scene.settle_seconds > 0) presimulate(m, scene.settle_seconds);
    m.name = scene.name;
    return m;
}

}  // namespace

Model build_scene(const Scene& scene) { return settled(scene.build(), scene); }

Model build_scene(const Scene& scene, const TemplateOptions& options) {
    if (scene.parametric) return settled(scene.parametric->build(options), scene);
    Model m = scene.build();
    options.parameters.apply(m.params);  // the parameters apply to every scene
    return settled(std::move(m), scene);
}

// ---------------------------------------------------------------------------
// samples.hpp: the catalogue is the registry

std::span<const SampleInfo> sample_catalogue() { return scenes(); }

Model make_sample(std::string_view name) { return build_scene(find_scene(name)); }

}  // namespace springkit
