// springkit-editor — the paint brush: a screen-space brush that paints anchors
// (Blender's pinning), node masses and a stiffness scale onto the springs (weight
// painting) under the cursor. Plain C++ (no ImGui, no OpenGL): the editor feeds
// it the cursor and the nodes' screen positions, and tests drive it directly.
//
// A stroke is the time the button is held: every frame of it is one dab, whose
// values go to the document as one continuing edit (Document::paint), so the
// stroke is one undo entry.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "springkit/model.hpp"
#include "view/camera.hpp"

namespace springkit::editor {

/// What the brush paints.
enum class PaintTarget : std::uint8_t {
    anchors,    ///< pins nodes (fixed anchors), or frees them when erasing
    mass,       ///< per-node mass (Model::masses)
    stiffness,  ///< per-spring k as a scale of the model's k (Spring::k = scale * Parameters::k)
};
const char* paint_target_name(PaintTarget target);

/// How the brush's weight falls from its centre (1) to its rim (0), d = distance / radius.
enum class PaintFalloff : std::uint8_t {
    constant,  ///< 1 inside the radius
    linear,    ///< 1 - d
    smooth,    ///< 1 - 3 d^2 + 2 d^3 (smoothstep; Blender's "smooth" curve)
};
const char* paint_falloff_name(PaintFalloff falloff);

/// How a mass dab changes a node's mass.
enum class MassMode : std::uint8_t {
    toward,    ///< m += (value - m) w s: moves towards `mass_value`
    multiply,  ///< m *= factor^(w s): repeated dabs multiply
};

struct BrushSettings {
    PaintTarget target = PaintTarget::anchors;
    float radius_px = 30.0f;     ///< screen pixels
    float strength = 0.5f;       ///< (0, 1]: share of the way to the value per dab at the centre
    PaintFalloff falloff = PaintFalloff::smooth;
    bool erase = false;          ///< anchors: free instead of pin; mass/stiffness: towards the model's value
    MassMode mass_mode = MassMode::toward;
    float mass_value = 0.1f;     ///< kg, what `toward` paints
    float mass_factor = 2.0f;    ///< what `multiply` multiplies by per full dab
    float stiffness_value = 2.0f;  ///< scale of the model's k that the brush paints
};

/// The brush's weight at `distance_px` from its centre: in [0, 1], 0 outside the radius.
float brush_weight(const BrushSettings& brush, float distance_px);

/// A node under the brush and its weight.
struct BrushHit {
    std::uint32_t node = 0;
    float weight = 0.0f;
};
/// The nodes drawn within the brush at (x, y), window pixels, with their weights.
std::vector<BrushHit> nodes_under_brush(std::span<const Vec3> positions, const Mat4& view_projection,
                                        const Viewport& viewport, float x, float y, const BrushSettings& brush);

/// The values a stroke paints, whole: what Document::paint sets and restores.
struct PaintValues {
    std::vector<float> masses;      ///< Model::masses (empty: every node has Parameters::mass)
    std::vector<Anchor> anchors;    ///< Model::anchors
    std::vector<float> spring_k;    ///< Spring::k of every spring (0 = Parameters::k)
    friend bool operator==(const PaintValues&, const PaintValues&) = default;
};
PaintValues paint_values(const Model& model);

/// One dab onto `values` (taken from `model`, whose other fields it reads).
/// Returns true when it changed anything. Anchors: every hit node is pinned
/// (fixed drive) or, erasing, freed; its other anchors keep their drives. Mass:
/// each hit node by its weight times the strength. Stiffness: a spring whose
/// ends are hit gets the mean of its two ends' weights (0 for an end outside).
/// Masses stay within [1e-6 kg, 1e6 kg] and scales within [1e-3, 1e3].
bool apply_dab(const Model& model, PaintValues& values, std::span<const BrushHit> hits, const BrushSettings& brush);

/// A spring's stiffness scale, Spring::k / Parameters::k (1 for a spring without
/// its own k): what the stiffness brush paints and the overlay colours.
float stiffness_scale_of(const Model& model, const Spring& spring);

}  // namespace springkit::editor
