// springkit CLI — `convert`: mesh files to spring models (springkit::import).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "cli.hpp"
#include "springkit/import.hpp"
#include "springkit/springkit.hpp"

namespace springkit::cli {

namespace fs = std::filesystem;

namespace {

std::string summary(const ImportResult& r, const fs::path& out) {
    const Model& m = *r.model;
    const ImportReport& p = r.report;
    char buf[512];
    std::snprintf(buf, sizeof buf, " (%zu edge, %zu line, %zu bend, %zu shear, %zu volume), ", p.edge_springs,
                  p.line_springs, p.bend_springs, p.shear_springs, p.volume_springs);
    std::string text = ": " + counted(m.node_count(), "node") + ", " + counted(m.springs.size(), "spring") + buf +
                       counted(m.faces.size(), "face") + ", " +
                       counted(p.welded_vertices, "welded vertex", "welded vertices") + ", " +
                       counted(m.anchors.size(), "anchor");
    std::snprintf(buf, sizeof buf, ", %.2f s", r.seconds);
    text += buf;
    const Bounds box = bounds(m);
    const Vec3 size = box.max - box.min;
    char sized[256];
    std::snprintf(sized, sizeof sized, "; %.3g x %.3g x %.3g m (unit: ", size.x, size.y, size.z);
    if (p.volume_elements > 0)
        text += "; " + counted(p.volume_elements, "volume element") + " (" + p.volume_elements_why + ")";
    else if (!p.volume_elements_why.empty())
        text += "; no volume elements (" + p.volume_elements_why + ")";
    text += sized + p.unit + ")";
    if (p.islands.size() > 1) {
        text += "; " + counted(p.islands.size(), "island");
        if (p.island_springs > 0) text += ", joined by " + counted(p.island_springs, "spring");
        if (p.dropped_nodes > 0) text += ", the largest kept (" + counted(p.dropped_nodes, "node") + " dropped)";
    }
    if (!p.structure.empty()) text += "; structural springs: " + p.structure;
    if (p.bone_tracks > 0) {
        text += "; " + counted(p.bone_anchors, "anchor") + (p.bone_anchors == 1 ? " follows " : " follow ") +
                counted(p.bone_tracks, "bone");
        if (p.animations > 0) {
            std::snprintf(sized, sizeof sized, " through animation %s (%.3g s, looped)",
                          printable(p.animation, 80).c_str(), p.animation_seconds);
            text += sized;
        }
    }
    std::snprintf(sized, sizeof sized, "; weighs %.4g kg", p.total_mass);
    text += sized;
    if (!p.substep.empty()) text += "; substep " + p.substep;
    if (m.params.ground && m.params.integrator == Integrator::implicit) {
        std::snprintf(sized, sizeof sized, "; ground at y = %.4g (a constraint of the implicit integrator: nothing sinks)",
                      m.params.ground->height);
        text += sized;
    } else if (m.params.ground && p.ground_repulsion > 0.0) {
        std::snprintf(sized, sizeof sized,
                      "; ground at y = %.4g, repulsion %.4g N/m: sinks %.3g m at rest (its weight on its %zu lowest "
                      "nodes)",
                      m.params.ground->height, p.ground_repulsion, p.ground_sink, p.ground_nodes);
        text += sized;
        if (p.ground_substep > 0.0) {
            std::snprintf(sized, sizeof sized, ", more than asked: a stiffer ground needs --max-substep %.2g",
                          p.ground_substep);
            text += sized;
        }
    }
    // The paths are cut on their own so that the counts always show.
    return printable(r.path.string(), 300) + " -> " + printable(out.string(), 300) + text;
}

/// The verbose lines of one import: how it was read and what was applied.
void print_import_details(const ImportResult& r) {
    const ImportReport& p = r.report;
    char buf[64];
    std::snprintf(buf, sizeof buf, "; unit scale %g to metres", p.unit_scale);
    print_detail("  read by " + p.reader + ": " + counted(p.meshes, "mesh", "meshes") + ", " +
                 counted(p.input_vertices, "vertex", "vertices") + ", " + counted(p.faces, "triangle") + buf);
    if (r.model && !r.model->texture.empty() && p.texture_source == "where the mesh names it")
        print_detail("  texture " + r.model->texture + ": " + p.texture_source);
}

}  // namespace

std::string importer_version() { return "Assimp " + assimp_version(); }

SceneMeshLoader scene_mesh_files() { return scene_mesh_loader(true); }

double units_in_metres(const std::string& text) {
    static const std::pair<const char*, double> kUnits[] = {{"mm", 0.001}, {"cm", 0.01},  {"m", 1.0},
                                                           {"km", 1000.0}, {"in", 0.0254}, {"ft", 0.3048}};
    for (const auto& [name, metres] : kUnits)
        if (text == name) return metres;
    try {
        std::size_t used = 0;
        const double metres = std::stod(text, &used);
        return used == text.size() && std::isfinite(metres) && metres > 0.0 ? metres : 0.0;
    } catch (const std::exception&) {
        return 0.0;
    }
}

VerbRun register_convert(CLI::App& app) {
    struct Options {
        std::vector<std::string> inputs;
        std::string out;
        ImportOptions import;
        std::shared_ptr<ParameterOverrides> parameters = std::make_shared<ParameterOverrides>();
        unsigned jobs = 0;
        std::string extension = ".json";
        std::string units;
        std::string islands = "keep";
        std::string springs = "auto";
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand(
        "convert", "Convert meshes (any format Assimp reads: OBJ, FBX, glTF, ...) into spring models");
    sub->add_option("inputs", o->inputs, "Mesh files")->required();
    sub->add_option("-o,--output", o->out,
                    "Model file (one input; - for standard output, as JSON) or folder (an existing folder or a path "
                    "ending in /; several inputs need one)")
        ->required();
    sub->add_option("--weld", o->import.weld,
                    "Weld vertices closer than EPS x bounding-box diagonal (default 1e-5; 0 = exact duplicates, "
                    "negative = no welding)")
        ->check(CLI::Validator(
            [](std::string& text) {
                const std::optional<double> v = finite_number(text);
                return v && *v < 1.0 ? std::string()
                           : "the weld tolerance must be a finite number below 1 (a share of the bounding-box "
                             "diagonal; negative: no welding), not '" + text + "'";
            },
            "EPS"));
    sub->add_option("--springs", o->springs,
                    "Structural springs beside the edges when no --bend, --shear or --volume is given: auto (default; "
                    "volume for a closed or curved mesh, bend + shear for a flat sheet, none without faces), edges "
                    "(none: the bare mesh), sheet (bend + shear), solid (volume)")
        ->check(CLI::IsMember({"auto", "edges", "sheet", "solid"}));
    CLI::Option* structure = sub->get_option("--springs");
    structure->excludes(sub->add_flag("--bend", o->import.bend, "Add springs across each pair of adjacent triangles"));
    structure->excludes(sub->add_flag("--shear", o->import.shear, "Add both diagonals of every quad"));
    structure->excludes(sub->add_flag("--volume", o->import.volume,
                                    "Add internal springs across the volume (keeps closed meshes in shape)"));
    sub->add_flag("--keep-order", o->import.keep_order,
                  "Keep the welded node order even when scattered (by default such meshes are renumbered to step faster)");
    sub->add_flag("!--assimp-obj", o->import.fast_obj,
                  "Read OBJ files with Assimp too (by default springkit reads plain OBJ files itself, several "
                  "times faster, into the same model)");
    sub->add_option("--volume-springs", o->import.volume_springs, "Volume springs started per node (default 4)")
        ->check(CLI::Range(1, 64));
    sub->add_flag("--volume-elements,!--no-volume-elements", o->import.volume_elements,
                  "With the volume springs the converter chooses, also add volume elements (signed-volume tetrahedra "
                  "that keep a violently shaken shape from settling as its mirror image; default on, "
                  "--no-volume-elements leaves them out for a cheaper step)");
    sub->add_option("--extra-k", o->import.extra_spring_k_factor,
                    "Stiffness of bend, shear and volume springs relative to --k (default 1)")
        ->check(finite_number_above(0.0, false));
    sub->add_option("--scale", o->import.scale, "Scale after the unit conversion to metres")->check(finite_number_above(0.0, false));
    sub->add_flag("!--no-unit-scale", o->import.unit_to_metres,
                  "Ignore the file's declared unit (FBX UnitScaleFactor) and take coordinates as metres");
    sub->add_option("--units", o->units,
                    "The unit of the file's coordinates, when it is not what the file says: mm, cm, m, km, in, ft, "
                    "or metres per unit")
        ->check(CLI::Validator(
            [](std::string& text) { return units_in_metres(text) > 0.0 ? std::string() : "unknown unit '" + text + "' (mm, cm, m, km, in, ft, or metres per unit)"; },
            "UNIT"));
    sub->add_option("--islands", o->islands,
                    "Parts no spring joins: keep (default; each moves on its own), largest (keep only the largest), "
                    "connect (join each to the rest by springs from its nearest nodes)")
        ->check(CLI::IsMember({"keep", "largest", "connect"}));
    sub->add_option("--size", o->import.size, "Rescale so the longest side of the bounding box is this many metres")
        ->check(finite_number_above(0.0, false));
    CLI::Option* ground_depth = sub->add_option("--ground-depth", o->import.ground_depth,
                    "With --ground bottom: how deep the resting model may sink, m (default 1% of its longest side); "
                    "the ground's repulsion is set from the weight")
        ->check(finite_number_above(0.0, false));
    add_parameter_options(*sub, o->parameters,
                          {{"--damping", "default 0.02: wobbling settles in about a second"},
                           {"--ground", "adds a ground plane at this height, or with 'bottom' just under the model "
                                        "(its repulsion scaled to the weight, see --ground-depth); the other ground "
                                        "options need it"}},
                          {{"--ground", "bottom", [o] { o->import.ground_at_bottom = true; }}});
    sub->add_option("--anchor", o->import.anchors,
                    "Anchor nodes: +y:10% (top 10% along an axis; +x -x +y -y +z -z top bottom), "
                    "nodes:0,5,17, near:X,Y,Z (repeatable)")
        ->check(CLI::Validator(
            [](std::string& text) {
                try {
                    check_anchor_selector(text);
                    return std::string();
                } catch (const Error& e) {
                    return std::string(e.what());
                }
            },
            "SEL"));
    CLI::Option* bone_anchors = sub->add_option("--bone-anchors", o->import.bone_anchors,
                    "Skinned meshes: nodes weighted to one bone by at least this (0 < W <= 1, e.g. 0.5) become "
                    "anchors that follow the bone through the animation; the rest stays soft")
        ->check(CLI::Validator(
            [](std::string& text) {
                char* end = nullptr;
                const double w = std::strtod(text.c_str(), &end);
                return end != text.c_str() && *end == '\0' && w > 0.0 && w <= 1.0
                           ? std::string()
                           : "a bone weight threshold must be a number in (0, 1], not '" + text + "'";
            },
            "W"));
    sub->add_option("--animation", o->import.animation,
                    "With --bone-anchors: the clip the anchors follow, by name or index (default: the first)")
        ->needs(bone_anchors);
    sub->add_option("-j,--jobs", o->jobs, "Files converted at once (default: one per core)");
    sub->add_option("--timeout", o->import.timeout_seconds, "Seconds one file may take before it is refused (default 60)")
        ->check(finite_number_above(0.0, false));
    sub->add_option("--memory-limit", o->import.memory_limit_mib, "MiB of memory the importer may use (default 4096)")
        ->check(finite_number_above(0.0, false));
    sub->add_option("--extension", o->extension, "Extension of models written into a folder: .json (default) or .skb (the binary form)");
    return [o, ground_depth]() {
        if (!model_extension_ok("--extension", o->extension)) return kExitUsage;
        if (!o->units.empty()) o->import.units = units_in_metres(o->units);
        o->import.islands = o->islands == "largest"   ? ImportOptions::Islands::largest
                            : o->islands == "connect" ? ImportOptions::Islands::connect
                                                      : ImportOptions::Islands::keep;
        o->import.structure = o->springs == "edges"   ? ImportOptions::Structure::edges
                              : o->springs == "sheet" ? ImportOptions::Structure::sheet
                              : o->springs == "solid" ? ImportOptions::Structure::solid
                                                      : ImportOptions::Structure::automatic;
        // The depth sets the repulsion of the ground --ground bottom puts under the
        // model; with no ground, or one at a given height, it would do nothing.
        if (ground_depth->count() > 0 && !o->import.ground_at_bottom) {
            print_error("--ground-depth needs --ground bottom (a ground at a given height takes --ground-repulsion)");
            return kExitUsage;
        }
        // A mesh has no ground: the ground's constants need --ground.
        Parameters with_options;
        if (o->import.ground_at_bottom) with_options.ground = Ground{};
        if (!apply_parameter_options(*o->parameters, with_options)) return kExitUsage;
        if ((with_options.total_mass > 0) + (with_options.density > 0) + (with_options.area_density > 0) > 1) {
            print_error("--total-mass, --density and --area-density each give the mass: give one of them");
            return kExitUsage;
        }
        const fs::path out(o->out);
        std::error_code ec;
        const bool to_stdout = o->out == "-";
        const bool into_folder = !to_stdout && (o->inputs.size() > 1 || fs::is_directory(out, ec) ||
                                                (!o->out.empty() && (o->out.back() == '/')));
        if (!into_folder && !model_output_ok("--output", o->out)) return kExitUsage;
        // Several models cannot go to one file: a path that names a file (an
        // existing one, or a model file's extension) is refused rather than made
        // a folder.
        if (o->inputs.size() > 1 && !fs::is_directory(out, ec) && o->out.back() != '/' &&
            (to_stdout || fs::exists(out, ec) || out.extension() == ".json" || is_binary_model_path(out))) {
            print_error(std::to_string(o->inputs.size()) + " inputs cannot all be written to " +
                        (to_stdout ? std::string("standard output") : "one file, " + o->out) +
                        ": give a folder (an existing one, or a path ending in /), or convert them one at a time");
            return kExitUsage;
        }
        if (to_stdout) set_stdout_holds_data();
        std::string extension = o->extension;
        if (!extension.empty() && extension.front() != '.') extension.insert(extension.begin(), '.');
        std::vector<fs::path> inputs, outputs;
        std::map<fs::path, std::string> taken;
        for (const std::string& in : o->inputs) {
            const fs::path target = into_folder ? out / (fs::path(in).stem().string() + extension) : out;
            auto [it, fresh] = taken.emplace(target.lexically_normal(), in);
            if (!fresh) {
                print_error(in + " and " + it->second + " would both be written to " + target.string() +
                            "; convert them separately");
                return kExitUsage;
            }
            inputs.emplace_back(in);
            outputs.push_back(target);
        }
        if (into_folder) {
            fs::create_directories(out, ec);
            if (ec) throw Error(out.string() + ": cannot create the output folder: " + ec.message());
        }
        // Refused before any import, so a long batch does not fail at its end: an
        // output that is its own input mesh, or one that cannot be written.
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            if (to_stdout) break;
            if (fs::equivalent(inputs[i], outputs[i], ec))
                throw Error(outputs[i].string() + ": is the input mesh itself; write the model to another file");
            check_writable(outputs[i]);
        }

        // Progress on a terminal once the work takes more than a second (the
        // importer reports about once a second): files done of a batch, the time
        // spent on a single file.
        const bool terminal = stderr_is_terminal() && verbosity() != Verbosity::quiet;
        bool shown = false;
        const auto start = std::chrono::steady_clock::now();
        const std::string single_name = printable(inputs.front().filename().string(), 200);
        auto on_done = [&](std::size_t finished, std::size_t total) {
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (!terminal || seconds < 1.0) return;
            if (total == 1)
                std::fprintf(stderr, "\rconverting %s: %.0f s", single_name.c_str(), seconds);
            else
                std::fprintf(stderr, "\rconverting: %zu / %zu files, %.0f s", finished, total, seconds);
            shown = true;
        };
        // The importer writes texture paths relative to the folder of the model files.
        ImportOptions import = o->import;
        import.parameters = *o->parameters;
        if (to_stdout) import.texture_folder = fs::current_path();
        else if (!outputs.empty()) import.texture_folder = fs::absolute(outputs.front()).lexically_normal().parent_path();
        // A binary model file is the importer's answer as it is: it is written
        // while the answer is validated, and put in place if that passes.
        std::vector<std::optional<PendingFile>> pending(inputs.size());
        std::vector<std::string> write_errors(inputs.size());
        auto on_answer = [&](std::size_t i, std::string_view binary) {
            if (!is_binary_model_path(outputs[i])) return;
            try {
                pending[i].emplace(outputs[i], binary);
            } catch (const std::exception& e) {
                write_errors[i] = e.what();
            }
        };
        std::vector<ImportResult> results = import_meshes_isolated(inputs, import, o->jobs, on_done, on_answer);
        if (shown) std::fprintf(stderr, "\r\033[K");

        int failures = 0;
        std::size_t nodes = 0, springs = 0, faces = 0;
        for (std::size_t i = 0; i < results.size(); ++i) {
            ImportResult& r = results[i];
            try {
                if (!r.model) {
                    pending[i].reset();  // the answer was not valid: its file is not kept
                    throw Error(r.error);
                }
                // An embedded texture goes next to the model file, which then names it:
                // the model is saved anew rather than from the importer's bytes.
                if (!r.report.embedded_texture.empty() && to_stdout) {
                    r.report.warnings.push_back("the texture embedded in the file is not extracted when the model "
                                                "goes to standard output; the model has none");
                } else if (!r.report.embedded_texture.empty()) {
                    pending[i].reset();
                    write_errors[i].clear();
                    r.model->texture = write_embedded_texture(r.report, outputs[i]);
                    r.report.texture_source = "extracted from the file";
                }
                if (to_stdout)
                    std::cout << model_to_json(*r.model) << std::flush;
                else if (pending[i])
                    pending[i]->commit();
                else if (!write_errors[i].empty())
                    throw Error(write_errors[i]);
                else
                    save_model(*r.model, outputs[i], Check::already_validated);  // validated as it was read
                for (const std::string& w : r.report.warnings) print_warning(r.path.string() + ": " + w);
                print_note(summary(r, to_stdout ? fs::path("(standard output)") : outputs[i]));
                // A texture found elsewhere than the mesh names it is a guess the user should see.
                if (!r.model->texture.empty() && !r.report.texture_source.empty() &&
                    r.report.texture_source != "where the mesh names it")
                    print_note("  texture " + r.model->texture + ": " + r.report.texture_source);
                print_import_details(r);
                nodes += r.model->node_count();
                springs += r.model->springs.size();
                faces += r.model->faces.size();
            } catch (const Error& e) {
                print_error(e.what());
                ++failures;
            }
        }
        if (results.size() > 1) {
            char seconds[64];
            std::snprintf(seconds, sizeof seconds, " in %.2f s",
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
            print_note("converted " + std::to_string(results.size() - static_cast<std::size_t>(failures)) + " of " +
                       std::to_string(results.size()) + " files (" + std::to_string(failures) + " failed): " +
                       counted(nodes, "node") + ", " + counted(springs, "spring") + ", " + counted(faces, "face") +
                       seconds);
        }
        return failures == 0 ? kExitOk : kExitFailure;
    };
}

}  // namespace springkit::cli
