// springkit CLI — the verbs of the core library: new, info, simulate.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "springkit/springkit.hpp"

namespace springkit::cli {

namespace {

void warn_if_unstable(const Model& model, const std::string& name) {
    const std::string warning = stability_warning(model);
    if (!warning.empty()) print_warning(name + ": " + warning);
}

// One line naming the colliders of `scene_name` that nodes of `model` start
// inside: the contacts push them out through the nearest surface within the
// first steps, which crushes a body inside a box flat without a word otherwise.
void warn_if_inside(const Model& model, const ColliderSet& scene, const std::string& name,
                    const std::string& scene_name) {
    const std::vector<std::size_t> inside = points_inside(scene, model.positions);
    std::string where;
    for (ColliderId id = 0; id < inside.size(); ++id) {
        if (inside[id] == 0) continue;
        const Collider& c = scene[id];
        where += where.empty() ? std::to_string(inside[id]) + " of its " + counted(model.node_count(), "node") +
                                     (inside[id] == 1 ? " starts" : " start") + " inside collider "
                               : ", " + std::to_string(inside[id]) + " inside collider ";
        where += std::to_string(id) + " (" + (c.name.empty() ? "" : "\"" + c.name + "\", ") +
                 collider_shape_name(c.shape) + ")";
    }
    if (where.empty()) return;
    print_warning(name + ": " + where + " of " + scene_name +
                  ": the contacts push them out through the nearest surface, which can crush the model flat; move the "
                  "model or the collider");
}

// The parameters the "parameters" line of `info` leaves out, from the table:
// one line for the main section, one for the ground, one for the gust.
void print_other_parameters(const Parameters& p) {
    static constexpr std::string_view on_first_line[] = {"k", "energy_loss", "mass", "max_substep", "integrator"};
    // The material has a line of its own (print_material).
    static constexpr std::string_view material[] = {"total_mass", "density", "area_density", "stretch_stiffness"};
    std::string line[3];
    for (const ParameterInfo& row : parameter_table()) {
        if (row.section == ParameterSection::main &&
            (std::find(std::begin(on_first_line), std::end(on_first_line), row.key) != std::end(on_first_line) ||
             std::find(std::begin(material), std::end(material), row.key) != std::end(material)))
            continue;
        char value[128] = "";
        if (const float* x = parameter_number(row, p)) std::snprintf(value, sizeof value, "%.4g", *x);
        else if (const Vec3* v = parameter_vector(row, p)) std::snprintf(value, sizeof value, "(%.4g, %.4g, %.4g)", v->x, v->y, v->z);
        else if (const int* n = parameter_count(row, p)) std::snprintf(value, sizeof value, "%d", *n);
        else if (const Integrator* i = parameter_integrator(row, p)) std::snprintf(value, sizeof value, "%s", integrator_name(*i));
        else continue;  // a ground row without a ground
        std::string& text = line[static_cast<int>(row.section)];
        text += text.empty() ? "" : ", ";
        text += std::string(row.label) + " " + value + (row.unit.empty() ? "" : " " + std::string(row.unit));
    }
    if (!p.ground) line[static_cast<int>(ParameterSection::ground)] = "no ground";
    if (p.gust == Gust{}) line[static_cast<int>(ParameterSection::gust)] = "no gusts";
    for (const std::string& text : line) std::printf("              %s\n", text.c_str());
}

// The values of --anchors, in the order the help lists them.
constexpr std::pair<const char*, ClothAnchors> kAnchorNames[] = {{"none", ClothAnchors::none},
                                                                 {"top-corners", ClothAnchors::top_corners},
                                                                 {"top-edge", ClothAnchors::top_edge},
                                                                 {"center-square", ClothAnchors::center_square}};

// "string, cloth, ...": the scenes `new` takes options for.
std::string template_names() {
    std::string names;
    for (const Scene* s : template_scenes()) names += std::string(names.empty() ? "" : ", ") + s->name;
    return names;
}

// "string: nodes, cloth: nodes per side, ...": what an option means for each
// template that reads it, from the registry.
std::string per_template(const char* what, unsigned option,
                         const char* SceneTemplate::*meaning = nullptr) {
    std::string text = what;
    const char* separator = " (";
    for (const Scene* s : template_scenes()) {
        if (!(s->parametric->reads & option)) continue;
        text += separator;
        text += s->name;
        if (meaning) text += std::string(": ") + s->parametric->*meaning;
        separator = ", ";
    }
    return text + ")";
}

// The parameter options of info and simulate: the model as they ask to see it.
void add_model_parameter_options(CLI::App& sub, const std::shared_ptr<ParameterOverrides>& overrides) {
    add_parameter_options(sub, overrides, {{"--ground", "adds a ground (or moves the model's own)"}});
}

// The model file with the parameter options applied and validated again (an
// option may take it out of range together with the model's own values);
// empty after a usage error, which is printed.
std::optional<Model> load_with_parameters(const std::string& path, const ParameterOverrides& overrides) {
    Model model = load_model(path);
    if (!apply_parameter_options(overrides, model.params)) return std::nullopt;
    validate(model, path);
    return model;
}

}  // namespace

VerbRun register_new(CLI::App& app) {
    struct Options {
        std::string scene;
        std::string out;
        TemplateOptions options;
        std::shared_ptr<ParameterOverrides> parameters = std::make_shared<ParameterOverrides>();
        std::string anchors = "top-corners";
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand("new", "Build a scene (a template with options, or a sample) and save it");
    sub->add_option("scene", o->scene,
                    "One of " + scene_names() + ". The options apply to the templates (" + template_names() +
                        "); the other scenes are built as the samples are")
        ->required()
        ->check(CLI::Validator(
            [](const std::string& name) {
                try {
                    find_scene(name);
                    return std::string();
                } catch (const Error& e) {
                    return std::string(e.what());  // names the known scenes
                }
            },
            "SCENE"));
    sub->add_option("-o,--output", o->out, "Model file to write (.json, .skb; - for standard output, as JSON)")
        ->required();
    add_parameter_options(*sub, o->parameters, {{"--ground", "adds a ground (or moves the scene's own)"}});
    namespace opt = template_option;
    const std::vector<CLI::Option*> template_options = {
        sub->add_option("--resolution", o->options.resolution,
                        per_template("Resolution", opt::resolution, &SceneTemplate::resolution))
            ->check(CLI::Range(2, 4096)),
        sub->add_option("--size", o->options.size, per_template("Size in metres", opt::size, &SceneTemplate::size))
            ->check(finite_number_above(0.0, false)),
        sub->add_option("--anchors", o->anchors, per_template("Where the cloth is held", opt::anchors))
            ->check(CLI::IsMember([] {
                std::vector<std::string> names;
                for (const auto& [name, anchors] : kAnchorNames) names.emplace_back(name);
                return names;
            }())),
        sub->add_option("--slack", o->options.slack, per_template("Rope slack, m", opt::slack))
            ->check(finite_number_above(0.0, true))};
    // A scene without a template is built as catalogued: a template option would
    // be silently lost, so it is a usage error (parameter options apply to all).
    sub->parse_complete_callback([o, template_options] {
        const Scene* scene = find_scene_or_null(o->scene);
        if (!scene || scene->parametric) return;
        for (const CLI::Option* option : template_options)
            if (option->count() > 0)
                throw CLI::ValidationError(option->get_name(), std::string(scene->name) +
                                                                   " takes no template options; the templates do (" +
                                                                   template_names() + ")");
    });
    return [o]() {
        if (!model_output_ok("--output", o->out)) return kExitUsage;
        for (const auto& [name, anchors] : kAnchorNames)
            if (o->anchors == name) o->options.anchors = anchors;
        o->options.parameters = *o->parameters;
        Model model;
        try {
            model = build_scene(find_scene(o->scene), o->options);
            // Masses and k follow the material the options give (material.hpp).
            if (has_material(model.params)) derive_material(model, o->out);
        } catch (const Error& e) {
            print_error(e.what());  // a parameter option that cannot apply (a ground constant without a ground)
            return kExitUsage;
        }
        validate(model, o->out);
        if (o->out == "-") {
            set_stdout_holds_data();
            std::cout << model_to_json(model) << std::flush;
        } else {
            save_model(model, o->out);
        }
        warn_if_unstable(model, o->out);
        print_note(o->out + ": " + o->scene + " with " + counted(model.node_count(), "node") + ", " +
                   counted(model.springs.size(), "spring") + ", " + counted(model.anchors.size(), "anchor") + ", " +
                   counted(model.faces.size(), "face"));
        return kExitOk;
    };
}

VerbRun register_info(CLI::App& app) {
    struct Options {
        std::string model;
        bool json = false;
        bool shape = false;
        unsigned seed = 1;
        std::shared_ptr<ParameterOverrides> parameters = std::make_shared<ParameterOverrides>();
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand("info", "Describe a model: counts, parameters, stability");
    sub->add_option("model", o->model, "Model file")->required();
    sub->add_flag("--json", o->json, "Print one JSON object instead of text");
    sub->add_flag("--shape-error", o->shape,
                  "Also measure shape retention (shape_error): perturb every free node by 10% of the "
                  "bounding-box diagonal, simulate 5 s without gravity, RMS distance to the rest shape / diagonal");
    sub->add_option("--seed", o->seed, "Seed of the --shape-error perturbation (default 1)");
    // What the model would be with other parameters (its stability, its cost a frame).
    add_model_parameter_options(*sub, o->parameters);
    return [o]() {
        std::optional<Model> loaded = load_with_parameters(o->model, *o->parameters);
        if (!loaded) return kExitUsage;
        const Model& model = *loaded;
        std::size_t hooke = 0, ropes = 0;
        for (const Spring& s : model.springs) (s.kind == SpringKind::hooke ? hooke : ropes)++;
        double total_mass = 0.0;
        for (std::size_t i = 0; i < model.node_count(); ++i) total_mass += model.node_mass(i);
        const Bounds box = bounds(model);
        const Stability stability = stability_estimate(model);
        const FrequencyStability frequency = frequency_stability(model);
        const Parameters& p = model.params;
        // k dt^2 / m bounds the explicit integrators only.
        const bool explicit_step = p.integrator != Integrator::implicit;
        const FrameCost cost = frame_cost(model);
        std::optional<double> shape;
        double mirrored = 0.0;
        if (o->shape) {
            try {
                const ShapeErrors errors = shape_errors(model, o->seed);
                shape = errors.error;
                mirrored = errors.mirrored;
            } catch (const SimulationError& e) {
                throw Error(o->model + ": shape error test: " + e.what());
            }
        }
        if (o->json) {
            nlohmann::json j;
            j["file"] = o->model;
            j["name"] = model.name;
            j["nodes"] = model.node_count();
            j["springs"] = {{"total", model.springs.size()}, {"hooke", hooke}, {"rope", ropes}};
            j["anchors"] = model.anchors.size();
            if (!model.anchor_tracks.empty()) j["anchor_tracks"] = model.anchor_tracks.size();
            j["attachments"] = {{"constant_forces", model.constant_forces.size()},
                                {"tethers", model.tethers.size()},
                                {"beads", model.beads.size()},
                                {"tubes", model.tubes.size()}};
            j["faces"] = model.faces.size();
            if (!model.volume_elements.empty()) j["volume_elements"] = model.volume_elements.size();
            j["texcoords"] = model.texcoords.size();
            j["texture"] = model.texture;
            j["total_mass"] = total_mass;
            j["bounds"] = {{"min", {box.min.x, box.min.y, box.min.z}},
                           {"max", {box.max.x, box.max.y, box.max.z}},
                           {"diagonal", box.diagonal()}};
            j["stability"] = {{"k_dt2_over_m", stability.worst},
                              {"worst_spring", stability.worst_spring},
                              {"warning", explicit_step && frequency.near_limit()},
                              {"omega_dt", frequency.omega_dt},
                              {"omega_dt_limit", frequency.limit},
                              {"damping_dt", frequency.damping_dt},
                              {"damped", frequency.damped},
                              {"above_limit", frequency.above_limit()}};
            j["parameters"] = {{"k", p.k},
                               {"energy_loss", p.energy_loss},
                               {"mass", p.mass},
                               {"max_substep", p.max_substep},
                               {"integrator", integrator_name(p.integrator)},
                               {"ground", p.ground.has_value()}};
            // The rest of the table: main rows by key, the others as
            // <section>_<key> ("ground" says whether there is one), null
            // without a ground.
            for (const ParameterInfo& row : parameter_table()) {
                std::string key(row.key);
                if (row.section == ParameterSection::ground) key = "ground_" + key;
                if (row.section == ParameterSection::gust) key = "gust_" + key;
                nlohmann::json& value = j["parameters"][key];
                if (!value.is_null()) continue;
                if (const float* x = parameter_number(row, p)) value = *x;
                else if (const Vec3* v = parameter_vector(row, p)) value = {v->x, v->y, v->z};
                else if (const int* n = parameter_count(row, p)) value = *n;
                else if (const Integrator* i = parameter_integrator(row, p)) value = integrator_name(*i);
            }
            j["cost_per_frame"] = {{"substeps", cost.substeps},
                                   {"spring_visits", cost.spring_visits},
                                   {"rope_visits", cost.rope_visits},
                                   {"implicit_node_iterations", cost.implicit_node_iterations},
                                   {"implicit_factor_entries", cost.implicit_factor_entries},
                                   {"implicit_matrix_entries", cost.implicit_matrix_entries},
                                   {"implicit_iterates", cost.implicit_iterates},
                                   {"element_visits", cost.element_visits},
                                   {"strain_limit_visits", cost.strain_limit_visits},
                                   {"self_collision_node_visits", cost.self_collision_node_visits},
                                   {"seconds_one_thread", cost.seconds},
                                   {"real_time", cost.real_time()}};
            if (!model.spring_groups.empty()) {
                nlohmann::json& groups = j["spring_groups"] = nlohmann::json::array();
                for (const SpringGroup& g : model.spring_groups)
                    groups.push_back({{"name", g.name},
                                      {"springs", g.springs.size()},
                                      {"stiffness_scale", g.stiffness_scale},
                                      {"damping", g.damping ? nlohmann::json(*g.damping) : nlohmann::json()}});
            }
            if (shape) j["shape_error"] = *shape;
            if (shape && std::isfinite(mirrored)) j["shape_error_mirrored"] = mirrored;
            // Names that are not UTF-8 are shown with U+FFFD (nlohmann would throw).
            std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
            return kExitOk;
        }
        print_line(o->model + ": " + (model.name.empty() ? std::string("(unnamed)") : model.name));
        std::printf("  nodes       %zu (total mass %.4g kg)\n", model.node_count(), total_mass);
        std::printf("  springs     %zu (%zu Hooke, %s)\n", model.springs.size(), hooke,
                    counted(ropes, "rope constraint").c_str());
        std::printf("  anchors     %zu\n", model.anchors.size());
        if (!model.anchor_tracks.empty()) {
            std::size_t on_tracks = 0;
            for (const Anchor& a : model.anchors) on_tracks += a.drive == AnchorDrive::track;
            float longest = 0.0f;
            for (const AnchorTrack& t : model.anchor_tracks) longest = std::max(longest, t.keys.back().time);
            std::printf("  tracks      %zu, driving %s; the longest %.4g s\n", model.anchor_tracks.size(),
                        counted(on_tracks, "anchor").c_str(), longest);
        }
        if (!model.constant_forces.empty() || !model.tethers.empty() || !model.beads.empty() ||
            !model.tubes.empty())
            std::printf("  attached    %s, %s, %s, %s\n", counted(model.constant_forces.size(), "constant force").c_str(),
                        counted(model.tethers.size(), "tether").c_str(), counted(model.beads.size(), "bead").c_str(),
                        counted(model.tubes.size(), "tube").c_str());
        for (const SpringGroup& g : model.spring_groups) {
            std::printf("  group       \"%s\": %s, stiffness x %.4g, ", printable(g.name).c_str(),
                        counted(g.springs.size(), "spring").c_str(), g.stiffness_scale);
            if (g.damping) std::printf("damping %.4g N s/m\n", *g.damping);
            else std::printf("the model's damping\n");
        }
        std::printf("  faces       %zu, texcoords %zu%s%s\n", model.faces.size(), model.texcoords.size(),
                    model.texture.empty() ? "" : ", texture ", printable(model.texture).c_str());
        if (!model.volume_elements.empty())
            std::printf("  volumes     %s (signed-volume tetrahedra), stiffness %.4g N/m\n",
                        counted(model.volume_elements.size(), "volume element").c_str(),
                        model.params.volume_stiffness);
        std::printf("  bounds      (%.4g, %.4g, %.4g) .. (%.4g, %.4g, %.4g), diagonal %.4g m\n", box.min.x,
                    box.min.y, box.min.z, box.max.x, box.max.y, box.max.z, box.diagonal());
        std::printf("  parameters  k %.4g N/m, energy loss %.4g, mass %.4g kg, substep %.4g s, %s\n", p.k,
                    p.energy_loss, p.mass, p.max_substep, integrator_name(p.integrator));
        print_other_parameters(p);
        if (has_material(p)) {
            std::string line;
            for (const char* key : {"total_mass", "density", "area_density", "stretch_stiffness"}) {
                const ParameterInfo& row = *find_parameter(key);
                const float value = *parameter_number(row, p);
                if (value <= 0.0f) continue;
                char text[96];
                std::snprintf(text, sizeof text, "%s%s %.4g %s", line.empty() ? "" : ", ",
                              std::string(row.label).c_str(), value, std::string(row.unit).c_str());
                line += text;
            }
            // Re-derived, the masses and k are what the file holds unless they were edited since.
            Model derived = model;
            bool same = false;
            try {
                derive_material(derived);
                same = derived == model;
            } catch (const Error&) {
            }
            std::printf("  material    %s (%s)\n", line.c_str(),
                        same ? "node masses and spring k derived from it"
                             : "node masses or spring k differ from what it gives: edited since");
        }
        // Garrido's rule of thumb looks at one spring: what warns is the step's own
        // limit on the next lines (stability_warning()).
        std::printf("  stability   k dt^2/m = %.3g%s\n", stability.worst,
                    !explicit_step ? " (no limit: the implicit integrator is stable for any k)"
                    : stability.worst > kStabilityWarning
                        ? " (above Garrido's 0.3 for one spring; the step's limit, below, is what counts)"
                        : " (ok, below 0.3)");
        std::printf("              dt * omega_max = %.3g%s %.3g, the limit of %s\n", frequency.omega_dt,
                    frequency.omega_dt >= frequency.limit ? " (WARNING: it will explode), at or above"
                    : frequency.springs_near_limit()
                        ? " (WARNING: near it, pulled far from rest it may explode), below"
                        : " (ok), below",
                    frequency.limit, integrator_name(p.integrator));
        // Shown once the spring damping takes a share of the step's budget worth naming.
        if (frequency.damping_dt >= 0.1)
            std::printf("              with spring damping, (dt * omega_max)^2 + 2 dt * damping rate = %.3g%s %.3g\n",
                        frequency.damped,
                        frequency.damping_above_limit()  ? " (WARNING: it will explode), at or above"
                        : frequency.damping_near_limit() ? " (WARNING: near it, it may explode), below"
                                                         : " (ok), below",
                        FrequencyStability::kDampedLimit);
        const char* verdict =
            cost.real_time() ? " (ok, within 1/60 s)" : " (WARNING: cannot run in real time, 1/60 s = 16.7 ms)";
        if (cost.implicit_node_iterations > 0) {
            // An iteration: the local step over the springs, the global step
            // through the factor (or conjugate gradients over the matrix).
            char global[96];
            if (cost.implicit_iterates)
                std::snprintf(global, sizeof global, "conjugate gradients over %llu matrix entries",
                              static_cast<unsigned long long>(cost.implicit_matrix_entries));
            else
                std::snprintf(global, sizeof global, "a factor of %llu entries",
                              static_cast<unsigned long long>(cost.implicit_factor_entries));
            std::printf("  cost/frame  %llu substeps x %d iterations (implicit: %zu springs, %s) + %llu x %d passes "
                        "x %zu rope constraints, about %.3g ms on one thread%s\n",
                        static_cast<unsigned long long>(cost.substeps), std::max(1, p.implicit_iterations), hooke,
                        global, static_cast<unsigned long long>(cost.substeps), p.rope_iterations, ropes,
                        cost.seconds * 1e3, verdict);
        } else {
            std::printf("  cost/frame  %llu substeps x %zu springs + %llu x %d passes x %zu rope constraints = "
                        "%llu + %llu visits, about %.3g ms on one thread%s\n",
                        static_cast<unsigned long long>(cost.substeps), hooke,
                        static_cast<unsigned long long>(cost.substeps), p.rope_iterations, ropes,
                        static_cast<unsigned long long>(cost.spring_visits),
                        static_cast<unsigned long long>(cost.rope_visits), cost.seconds * 1e3, verdict);
        }
        // What else the frame's estimate counts, each with its own cost per visit.
        std::string also;
        const auto add = [&also](std::uint64_t visits, const char* what, const char* plural = "") {
            if (visits > 0) also += (also.empty() ? "" : ", ") + counted(visits, what, plural);
        };
        add(cost.element_visits, "volume element visit");
        add(cost.strain_limit_visits, "strain limit spring visit");
        add(cost.self_collision_node_visits, "self-collision node search", "self-collision node searches");
        if (!also.empty()) std::printf("              counted in it: %s\n", also.c_str());
        if (shape) {
            std::printf("  shape error %.3g%% of the diagonal after a 10%% perturbation and 5 s\n", *shape * 100.0);
            // Settled as its mirror image: every spring length kept, the handedness lost.
            if (mirrored < 0.5 * *shape)
                std::printf("              %.3g%% from its mirror image: it settled mirrored (springs keep every "
                            "length of a mirrored shape)\n", mirrored * 100.0);
        }
        return kExitOk;
    };
}

VerbRun register_simulate(CLI::App& app) {
    struct Options {
        std::string model;
        float seconds = 0.0f;
        float dt = 1.0f / 60.0f;
        std::string out;
        std::string scene;
        std::shared_ptr<ParameterOverrides> parameters = std::make_shared<ParameterOverrides>();
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand("simulate", "Run a model headless and print a summary");
    sub->add_option("model", o->model, "Model file")->required();
    sub->add_option("--seconds", o->seconds, "Simulated time, s")->required()->check(CLI::Range(0.0, 1.0e6));
    sub->add_option("--dt", o->dt, "Frame time, s (substeps follow the model's max_substep)")
        ->check(CLI::Range(1.0e-6, 1.0));
    sub->add_option("-o,--output", o->out,
                    "Write the model with its nodes at their final positions (rest lengths kept)");
    sub->add_option("--scene", o->scene,
                    "Scene file of colliders the model collides with (nodes stay the model's node_radius away)");
    // The model's parameters, overridden for this run (and in the model -o writes).
    add_model_parameter_options(*sub, o->parameters);
    return [o]() {
        if (!o->out.empty() && !model_output_ok("--output", o->out, false)) return kExitUsage;
        std::optional<Model> loaded = load_with_parameters(o->model, *o->parameters);
        if (!loaded) return kExitUsage;
        Model& model = *loaded;
        std::shared_ptr<const ColliderSet> scene;
        if (!o->scene.empty()) scene = std::make_shared<const ColliderSet>(load_scene(o->scene, scene_mesh_files()));
        if (!o->out.empty()) check_writable(o->out);  // before the run, not after it
        warn_if_unstable(model, o->model);
        if (scene) warn_if_inside(model, *scene, o->model, o->scene);
        Simulation sim(model);
        if (scene) sim.set_colliders(scene);
        const auto frames = static_cast<std::uint64_t>(std::ceil(o->seconds / o->dt - 1e-6));
        const bool progress = stderr_is_terminal() && frames > 600;
        const auto start = std::chrono::steady_clock::now();
        double peak_kinetic = 0.0;
        try {
            for (std::uint64_t f = 0; f < frames; ++f) {
                sim.step(o->dt);
                peak_kinetic = std::max(peak_kinetic, sim.kinetic_energy());
                if (progress && f % 60 == 0)
                    std::fprintf(stderr, "\rsimulating %s: %.1f / %.1f s", printable(o->model, 200).c_str(), sim.time(),
                                 o->seconds);
            }
        } catch (const SimulationError& e) {
            if (progress) std::fprintf(stderr, "\n");
            throw Error(o->model + ": " + e.what());
        }
        if (progress) std::fprintf(stderr, "\n");
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        double max_displacement = 0.0;
        const auto pos = sim.positions();
        for (std::size_t i = 0; i < pos.size(); ++i)
            max_displacement = std::max<double>(max_displacement, length(pos[i] - model.positions[i]));
        std::printf("%s: simulated %.4g s in %s, %s, %.3f s wall (%.1fx real time)\n", printable(o->model).c_str(),
                    sim.time(), counted(frames, "frame").c_str(), counted(sim.substeps_taken(), "substep").c_str(),
                    wall, wall > 0 ? sim.time() / wall : 0.0);
        std::printf("  kinetic energy %.6g J (peak %.6g J), potential %.6g J, max displacement %.4g m\n",
                    sim.kinetic_energy(), peak_kinetic, sim.potential_energy(), max_displacement);
        if (scene)
            std::printf("  %s from %s, %s in the last frame\n", counted(scene->size(), "collider").c_str(),
                        printable(o->scene).c_str(), counted(sim.contacts().size(), "contact").c_str());
        if (!o->out.empty()) {
            Model settled = model;
            settled.positions.assign(pos.begin(), pos.end());
            save_model(settled, o->out);
            print_line("  wrote " + o->out);
        }
        return kExitOk;
    };
}

}  // namespace springkit::cli
