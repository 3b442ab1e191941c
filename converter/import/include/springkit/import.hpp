// springkit::import — mesh files (any format Assimp reads) to spring models.
//
// Oliveira's "Data Driven Spring Models" (Exploring Spring Models): each
// vertex of the geometry becomes a node and each edge a spring, and the texture
// coordinates come along for free. Beyond his converter this one
//   - takes every mesh of the scene with its node transform baked in,
//   - welds vertices that share a position (within a tolerance relative to the
//     bounding-box diagonal), so UV seams and hard-normal splits do not cut the
//     spring network apart; texcoords stay per face corner,
//   - converts the file's unit (FBX says centimetres in UnitScaleFactor) to metres,
//   - can add bend, shear and volume springs so that a converted jelly keeps its
//     shape without the hand editing his Figure 12 -> Figure 8 needed,
//   - turns faceless meshes into nodes (point clouds) and strings (line sets).
//
// Errors are springkit::Error with a one-line message naming the file and the
// problem. Assimp is not safe on untrusted input (it can hang or overflow on
// corrupt files), so tools and the editor call import_mesh_isolated().
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "springkit/model.hpp"
#include "springkit/parameters.hpp"
#include "springkit/scene_file.hpp"

namespace springkit {

struct ImportOptions {
    /// Vertices closer than weld * (bounding-box diagonal) become one node.
    /// 0 welds exact duplicates only; negative disables welding.
    double weld = 1e-5;
    /// Extra factor applied after the file's unit conversion (metres).
    double scale = 1.0;
    /// Convert the file's declared unit to metres (FBX UnitScaleFactor: 1 = cm).
    bool unit_to_metres = true;
    /// Metres per coordinate unit of the file, when the user knows it (CLI
    /// --units cm = 0.01): wins over the file's declared unit. 0 = the file's
    /// own unit, or metres when it declares none.
    double units = 0.0;
    /// Rescales the model (after the unit and `scale`) so that the longest side
    /// of its bounding box is this many metres. 0 = keep its size.
    double size = 0.0;
    /// Springs across each pair of triangles sharing an edge (joining the two
    /// opposite corners): resist folding along the edge, as cloth bend springs do.
    bool bend = false;
    /// Both diagonals of every quad of the source mesh (Oliveira's cloth arrangement).
    bool shear = false;
    /// Internal springs from every node to `volume_springs` nodes across the volume
    /// (far from it), so a closed surface cannot dent or fold (Oliveira Figure 12).
    bool volume = false;
    int volume_springs = 4;
    /// With the volume springs the converter chooses (not those of `volume`), also
    /// signed-volume tetrahedra (Model::volume_elements) across the body, each
    /// node a corner of at least one (about 0.4 a node), as stiff as its volume
    /// springs: springs alone cannot tell the shape from its mirror image, and a
    /// shake of a tenth of its size turned 23 of Assimp's test models inside
    /// out. None with the implicit integrator (their force is explicit).
    /// `--no-volume-elements` leaves them out (a cheaper step: docs/PERFORMANCE.md).
    bool volume_elements = true;
    /// Which structural springs to add when none of bend, shear and volume is
    /// asked for: `automatic` decides from the mesh (choose_structure), `edges`
    /// adds none (Oliveira's bare mesh), `sheet` adds bend and shear springs,
    /// `solid` volume springs. When bend, shear or volume is set those are
    /// exactly what is added, whatever this says.
    enum class Structure { automatic, edges, sheet, solid };
    Structure structure = Structure::automatic;
    /// Stiffness of bend, shear and volume springs relative to the model's k.
    float extra_spring_k_factor = 1.0f;
    /// N s/m, inner spring friction (Tunca). Converted models get a little by
    /// default: it damps wobbling (relative motion) but not falling or swinging
    /// as a whole, so a perturbed jelly settles in about a second.
    float spring_damping = 0.02f;
    /// Physics parameters: any row of the parameter table, as `convert`'s
    /// options and the editor's dialog set them; unset rows keep the Parameters
    /// defaults (and spring_damping above). Applied after spring_damping, so a set
    /// row wins.
    ParameterOverrides parameters;
    /// Adds a ground plane (or moves the one `parameters` adds) to the lowest
    /// node of the converted model, so it stands on the ground instead of falling
    /// to it: the height is only known after scaling and welding. Wins over a
    /// ground height in `parameters`; the other ground rows still apply.
    bool ground_at_bottom = false;
    /// With ground_at_bottom and no ground repulsion in `parameters`: the
    /// repulsion is raised so that the resting model, its weight on its lowest
    /// nodes, sinks at most this deep (ground_sink_depth); never below Ground's
    /// default, and at most what keeps one node stable (repulsion x
    /// max_substep^2 / node mass <= kStabilityWarning): the report then says how
    /// deep it sinks. 0 = 1% of the longest side of the model.
    double ground_depth = 0.0;
    /// What to do with islands, the parts no chain of springs joins (separate
    /// meshes, a point cloud's nodes): keep them as they are (each falls on its
    /// own), keep only the largest (the others' nodes, springs and faces are
    /// dropped), or connect each to the rest with springs from its nodes nearest
    /// to it (three per island, to distinct nodes).
    enum class Islands { keep, largest, connect };
    Islands islands = Islands::keep;
    /// Bones drive anchors (skinned meshes): every node weighted to one bone by
    /// at least this much, in (0, 1], becomes an anchor that follows the bone
    /// through the animation clip (AnchorDrive::track); the other nodes stay
    /// soft (secondary motion: a belly, a tail, a cape). A node weighted to two
    /// bones by as much follows the one with the larger weight (the first of
    /// the file's bones on a tie). 0 = off: bones and animations are dropped.
    double bone_anchors = 0.0;
    /// The clip the bone anchors follow: its name, or its index in the file
    /// ("0"); empty = the file's first. The anchors hold the rest pose when the
    /// file has no clip.
    std::string animation;
    /// Keys per second at which a clip is sampled into anchor tracks (the
    /// clip's own keys are interpolated as Assimp stores them: positions and
    /// scales linearly, rotations by slerp).
    double bone_key_rate = 30.0;
    /// Anchor selectors, applied in order to the converted model (see
    /// apply_anchor_selector for the syntax).
    std::vector<std::string> anchors;
    /// Keep the nodes in the order the weld numbers them, even when they lie
    /// scattered (by default reorder_for_locality() renumbers such meshes: they
    /// step several times faster).
    bool keep_order = false;
    /// Read OBJ files that keep to the common subset (what nearly every exporter
    /// writes) with springkit's own reader, several times faster than Assimp's
    /// and giving the identical model; other files, and every file when false,
    /// go through Assimp.
    bool fast_obj = true;
    /// The folder the model file will be in: the texture path is written
    /// relative to it. Empty: relative to the current folder (or absolute), as
    /// the mesh names it from its own folder.
    std::filesystem::path texture_folder;

    /// import_mesh_isolated only: wall-clock limit of the importer, s.
    double timeout_seconds = 60.0;
    /// import_mesh_isolated only: address-space limit of the importer, MiB (0 = none).
    std::size_t memory_limit_mib = 4096;
};

/// What an import did, for summaries (`springkit convert` prints one line of it).
struct ImportReport {
    std::size_t meshes = 0;           ///< meshes instanced into the model
    std::size_t input_vertices = 0;   ///< vertices of all meshes before welding
    std::size_t welded_vertices = 0;  ///< vertices merged into another one
    std::size_t faces = 0;            ///< triangles after triangulation
    std::size_t edge_springs = 0;     ///< one per unique mesh edge
    std::size_t line_springs = 0;     ///< from line primitives (strings)
    std::size_t bend_springs = 0;
    std::size_t shear_springs = 0;
    std::size_t volume_springs = 0;
    std::size_t volume_elements = 0;  ///< signed-volume tetrahedra (Model::volume_elements)
    /// Where the converter chose volume springs: why it added volume elements,
    /// or why none ("left out: --no-volume-elements"); empty elsewhere.
    std::string volume_elements_why;
    std::size_t anchors = 0;
    std::size_t bones = 0;            ///< bones of the file's meshes (counted per mesh)
    std::size_t animations = 0;       ///< animation clips in the file
    /// With bone_anchors: the anchors the bones drive, the bones that drive
    /// them (one anchor track each), and the clip they follow: its name in
    /// quotes, or #index for a clip without one, and its length (empty and 0 s
    /// without a clip).
    std::size_t bone_anchors = 0;
    std::size_t bone_tracks = 0;
    std::string animation;
    double animation_seconds = 0.0;
    /// The structural springs chosen and why: "volume (a closed surface: every
    /// edge joins two faces)"; "bend + shear (...)"; empty when they were given.
    std::string structure;
    /// When the converter shortened the substep so that the explicit step stays
    /// stable (choose_substep): why, "0.0016 s (dt omega_max would be 1.47 at
    /// 0.002 s, ...)"; empty when the default or the given one was kept.
    std::string substep;
    /// The model's total mass, kg (a warning says when it is implausible for its size).
    double total_mass = 0.0;
    double unit_scale = 1.0;          ///< file unit -> metres factor that was applied
    /// How the unit was decided: "metres (the file declares none)", "the file's
    /// unit, 0.01 m (FBX UnitScaleFactor)", "given: 0.0254 m per unit".
    std::string unit = "metres (the file declares none)";
    /// With ground_at_bottom: how deep the resting model sinks into the ground,
    /// m (ground_sink_depth: its weight on its lowest nodes), the repulsion
    /// chosen, N/m, and how many nodes carry the weight then. When the depth
    /// asked for needs a repulsion beyond what one node keeps stable,
    /// ground_substep is the max_substep that would allow it (else 0).
    double ground_sink = 0.0;
    double ground_repulsion = 0.0;
    std::size_t ground_nodes = 0;
    double ground_substep = 0.0;
    /// Nodes per island (parts no chain of springs joins) before --islands acted,
    /// largest first; one entry for a model in one piece.
    std::vector<std::size_t> islands;
    std::size_t island_springs = 0;   ///< springs added to connect them
    std::size_t dropped_nodes = 0;    ///< nodes of the islands dropped (keep the largest)
    /// How the texture file was found: "where the mesh names it", "found next
    /// to the mesh by name", ...; empty when the model has none or it was not found.
    std::string texture_source;
    /// A texture the file embeds (FBX, GLB): the image file's bytes and its
    /// extension ("png"); the model names no texture until write_embedded_texture
    /// writes it next to the model file.
    std::string embedded_texture, embedded_texture_format;
    std::string reader = "assimp";    ///< what read the file: "assimp", or "obj" (springkit's OBJ reader)
    std::vector<std::string> warnings;  ///< one line each, without file name
};

/// Imports in this process. Throws springkit::Error naming the file and problem.
/// The model's texture is the material's diffuse texture resolved against the
/// mesh's folder (callers that save elsewhere make it relative to the output).
Model import_mesh(const std::filesystem::path& path, const ImportOptions& options = {});
Model import_mesh(const std::filesystem::path& path, const ImportOptions& options, ImportReport& report);

/// Imports in a child process limited to options.timeout_seconds of wall-clock
/// time and options.memory_limit_mib of address space. A timeout, crash or
/// memory exhaustion of the importer is thrown as springkit::Error ("file: the
/// importer crashed (signal 11) ..."), never taken down with the caller.
Model import_mesh_isolated(const std::filesystem::path& path, const ImportOptions& options = {});
Model import_mesh_isolated(const std::filesystem::path& path, const ImportOptions& options,
                           ImportReport& report);

/// Reads a mesh file as the geometry of a static triangle mesh collider (a
/// scene file's `"file"`, springkit/scene_file.hpp): its faces in the file's
/// coordinates, in metres after the file's unit, exact duplicate vertices
/// welded; no springs. In a child process (import_mesh_isolated) when
/// `isolated`. Throws springkit::Error naming the file; a mesh without faces
/// (a point cloud, an empty file) is refused the same way.
std::shared_ptr<const TriangleMesh> import_collision_mesh(const std::filesystem::path& path, bool isolated = false);
/// The SceneMeshLoader (load_scene's) that reads with import_collision_mesh.
SceneMeshLoader scene_mesh_loader(bool isolated = false);

/// Writes report.embedded_texture next to the model file `model_path` as
/// <model stem>.<format>, atomically, and returns that file's name (what the
/// model's texture field holds, relative to the model file). A file of that name
/// holding the same bytes is kept; one holding other bytes is never overwritten:
/// throws springkit::Error naming it.
std::string write_embedded_texture(const ImportReport& report, const std::filesystem::path& model_path);

/// The outcome of one file of a batch.
struct ImportResult {
    std::filesystem::path path;
    std::optional<Model> model;  ///< set on success
    ImportReport report;
    std::string error;           ///< one line, set on failure
    double seconds = 0.0;        ///< wall-clock time of the import
};

/// Imports several files, each isolated as in import_mesh_isolated, running up to
/// `jobs` importers at once (0 = one per core). Results are in input order.
/// `on_done(finished, total)` is called after each file and about once a second
/// while importers run (for progress display).
/// `on_answer(index, binary)`, if given, is called with the model of each
/// successful importer in the binary form (.skb bytes) on a second thread while
/// the parent validates those bytes, so a caller can write them meanwhile (see
/// PendingFile); it must neither throw nor keep the view. The bytes are good only if the
/// result then has a model.
std::vector<ImportResult> import_meshes_isolated(
    const std::vector<std::filesystem::path>& paths, const ImportOptions& options, unsigned jobs = 0,
    const std::function<void(std::size_t finished, std::size_t total)>& on_done = {},
    const std::function<void(std::size_t index, std::string_view binary)>& on_answer = {});

/// The version of the Assimp library the importer uses: "5.2.5".
std::string assimp_version();

/// Adds a spring between the far corners of every pair of faces sharing an edge
/// (skipping pairs that already have one); k = 0 uses the model's k. Returns
/// how many it added. This is what ImportOptions::bend does.
std::size_t add_bend_springs(Model& model, float k = 0.0f);

/// What the mesh of a model is, for choosing its structural springs.
struct SurfaceShape {
    std::size_t edges = 0;           ///< unique face edges
    std::size_t boundary_edges = 0;  ///< edges of one face only (the rim of an opening)
    std::size_t nonmanifold_edges = 0;  ///< edges of three or more faces
    /// Largest distance of a node from the best-fit plane of all nodes (the
    /// plane through their centroid normal to the direction of least spread),
    /// divided by the bounding-box diagonal.
    double flatness = 0.0;
    /// Largest distance of a node from the best-fit line of all nodes (through
    /// their centroid along the direction of most spread), divided by the
    /// bounding-box diagonal.
    double straightness = 0.0;
    bool closed() const { return edges > 0 && boundary_edges == 0; }
    /// Nodes within 0.1% of the diagonal of one plane.
    bool flat() const { return flatness <= 1e-3; }
    /// Nodes within 0.1% of the diagonal of one line: every face has (nearly)
    /// no area.
    bool straight() const { return straightness <= 1e-3; }
};
SurfaceShape surface_shape(const Model& model);

/// The structural springs ImportOptions::Structure::automatic adds to a model
/// of this shape, and why, in words for the summary. A closed surface, or an
/// open one that is not flat (a shell with openings, the parts of a scene),
/// gets volume springs: they span it like the body diagonals of Oliveira's
/// Figure 8. A flat sheet gets bend, shear and volume springs: no spring in
/// its plane resists bending out of it to first order, but a bend shortens
/// the chord between far nodes by about s^3 / (24 R^2) for nodes s apart on
/// an arc of radius R, so the long springs across the sheet hold its outline,
/// and bend and shear springs its local folds (as cloth's). A mesh without
/// faces (lines, points) gets none: a string is meant to bend; so does one
/// whose nodes all lie on one line (faces of no area): a spring between nodes
/// on a line resists a node moved across it only at third order (its length
/// changes by d^2 / 2L, its pull across by that times d / L), no spring or
/// tetrahedron among them can do better, and such a mesh bends as a string.
struct StructureChoice {
    bool bend = false, shear = false, volume = false;
    bool flat_sheet = false;  ///< chosen for a flat sheet (its volume elements keep it flat)
    std::string why;
};
StructureChoice choose_structure(const Model& model, const SurfaceShape& shape);

/// The explicit integrators are stable while dt omega_max < 2 (frequency_stability),
/// but a converted mesh is rarely near rest: a node with many springs (the centre
/// of a fan of triangles, a node of an edge mesh and a part's volume springs)
/// blows up under a large perturbation well before. When dt omega_max of `model`
/// is above kSubstepOmegaTarget, returns the max_substep (two significant digits,
/// rounded down) that brings it to that; else 0 (keep it). Implicit Euler: 0.
/// The spring damping, explicit as well, is linear in the velocity: it needs no
/// margin for a mesh far from rest, only (dt omega_max)^2 + 2 dt damping rate
/// (FrequencyStability::damped, stable below 4) at most kSubstepDampedTarget;
/// the substep is the shorter of the two (never below kMinSubstep).
/// `omega_dt` (when not null) receives dt omega_max at the model's max_substep,
/// `damped` FrequencyStability::damped there.
inline constexpr double kSubstepOmegaTarget = 1.2;
inline constexpr double kSubstepDampedTarget = 3.24;  // (0.9 x 2)^2
double choose_substep(const Model& model, double* omega_dt = nullptr, double* damped = nullptr);

/// How deep a model standing on a ground at the height of its lowest node sinks
/// at rest when the ground pushes each node below it up by `repulsion` x its
/// depth. Standing level, as a rigid body, it sinks the depth d at which
/// repulsion x sum over nodes of max(0, d - h) equals the weight (h a node's
/// height above the lowest); a soft body loads some of those nodes more than
/// others (the rim of a hollow box's floor carries its walls), so the bound
/// returned is kGroundUnevenLoad x d (docs/CONVERTER.md compares it with models
/// simulated to rest). `nodes` (when not null) receives how many nodes are below d.
inline constexpr double kGroundUnevenLoad = 1.5;
double ground_sink_depth(const Model& model, double repulsion, std::size_t* nodes = nullptr);

/// Adds up to `per_node` springs from each node to nodes across the volume (at
/// least 40% of the distance to the farthest bounding-box corner away), chosen
/// by a fixed hash so the result is the same everywhere; no node gets more
/// than 3 x per_node of them, which bounds the stiffness any node sees. Returns how many it
/// added. This is what ImportOptions::volume does.
std::size_t add_volume_springs(Model& model, int per_node, float k = 0.0f);

/// Anchors the nodes a selector names (existing anchors are kept; a node is
/// never anchored twice). Returns how many nodes it anchored. Selectors:
///   +y:10%  top:10%   nodes within the top 10% of the bounding box along +y
///                     (axes +x -x +y -y +z -z; top = +y, bottom = -y)
///   nodes:0,5,17      these node indices
///   near:X,Y,Z        the node nearest the point (X, Y, Z), metres
/// Throws springkit::Error for a malformed selector, an index out of range or a
/// selector that matches no node.
std::size_t apply_anchor_selector(Model& model, const std::string& selector);

/// Throws springkit::Error, with the message apply_anchor_selector would give,
/// when a selector is malformed whatever the model (the CLI refuses it as a
/// usage error before reading any file).
void check_anchor_selector(const std::string& selector);

}  // namespace springkit
