// springkit — how well a model keeps its shape.
//
// Oliveira (Exploring Spring Models) shows that a jelly converted edge for
// edge "will morph into something unrecognizable" once perturbed (his Figure
// 12), because springs only hold lengths and can turn freely about their ends
// (his Figures 6 and 7). shape_error() measures exactly that, so converters,
// tests and the editor can tell a stable arrangement (his Figure 8) from an
// unstable one without looking.
#pragma once

#include <cstdint>
#include <span>

#include "springkit/model.hpp"

namespace springkit {

/// The shape-retention test. Defaults are the converter's standard measure.
struct ShapeTest {
    double perturbation = 0.1;  ///< each free node moved this share of the bounding-box diagonal
    double seconds = 5.0;       ///< s simulated afterwards (gravity and ground off)
    float frame_dt = 1.0f / 60.0f;  ///< s per frame (substeps follow the model's max_substep)
};

/// Moves every non-anchored node by ShapeTest::perturbation x the bounding-box
/// diagonal in a random direction (fixed by `seed`), simulates with gravity and
/// ground off, and returns the RMS distance of the nodes from their rest
/// positions divided by the diagonal. A model without anchors is first
/// aligned to its rest shape by the best rigid motion (Horn's quaternion
/// method), since drifting or turning as a whole is not a change of shape.
/// 0 = perfectly restored; about ShapeTest::perturbation = not restored at all.
/// Throws springkit::Error for an invalid model and SimulationError when the
/// model blows up. Costs seconds / max_substep substeps over all springs.
double shape_error(const Model& model, unsigned seed = 1, const ShapeTest& test = {});

/// shape_error() and, from the same run, the error against the rest shape's
/// mirror image (x -> -x, then the best rigid motion; anchored models: not
/// measured, NaN). Springs keep every length of a mirrored shape, so a model
/// perturbed by more than its thickness can settle as its own mirror image:
/// `mirrored` far below `error` says that happened.
struct ShapeErrors {
    double error = 0.0;
    double mirrored = 0.0;
};
ShapeErrors shape_errors(const Model& model, unsigned seed = 1, const ShapeTest& test = {});

/// RMS distance of `current` from `reference` (same node count) after the rigid
/// motion that best maps one onto the other (Horn 1987, "Closed-form solution of
/// absolute orientation using unit quaternions"), m: how far two poses differ in
/// shape, whatever their place and turn. Throws springkit::Error when the counts differ.
double aligned_rms_distance(std::span<const Vec3> current, std::span<const Vec3> reference);

}  // namespace springkit
