// springkit-editor — what the viewport shows and how it measures strain. Apart
// from the renderer so that the panels (app/ui) need no OpenGL header.
#pragma once

#include <algorithm>
#include <cmath>
#include <span>

#include "springkit/model.hpp"

namespace springkit::editor {

/// What the viewport shows; each has a toggle in the View menu.
struct ViewOptions {
    bool surface = true;    ///< the faces
    bool lighting = true;   ///< directional light on the faces; off: flat colour
    bool texture = true;    ///< the model's texture when it has one
    bool springs = true;    ///< lines coloured by strain
    bool nodes = true;      ///< points
    bool anchors = true;    ///< anchored nodes, larger and orange
    bool ground = true;     ///< the floor grid (drawn at the collision ground's height, or under the model)
    bool shadow = true;     ///< the model's shadow on the ground
    bool ropes = true;      ///< Model::tubes and tethers as lit tubes, beads as balls
    bool colliders = true;  ///< the scene's colliders, shaded; the selected one highlighted
    float light_yaw = 0.5f;    ///< rad around +y of the direction towards the light
    float light_pitch = 0.7f;  ///< rad above the horizon
    float strain_full = 0.05f; ///< |strain| at which a spring is fully red (stretched) or blue (compressed)
    /// Strain view: the surface plain grey, without texture or its warm colour,
    /// so the springs' strain colours read on any texture (a red texture hides red).
    bool strain_view = false;
    /// The camera moves with the body's centre of mass (a falling mesh, a swung rope).
    bool follow = false;
};

struct Rgb {
    float r, g, b;
};

/// A spring's colour: neutral grey-green at rest, towards red when stretched and
/// blue when compressed, fully so at |strain| = full. The renderer and the
/// legend share it.
inline Rgb strain_rgb(float strain, float full) {
    const float t = std::clamp(std::abs(strain) / full, 0.0f, 1.0f);
    const Rgb n{0.62f, 0.72f, 0.62f};
    const Rgb far{strain > 0 ? 1.0f : 0.2f, 0.2f, strain > 0 ? 0.15f : 1.0f};
    return {n.r + (far.r - n.r) * t, n.g + (far.g - n.g) * t, n.b + (far.b - n.b) * t};
}

/// Stretch of a spring relative to its rest length: (length - rest) / rest.
inline float spring_strain(const Spring& s, std::span<const Vec3> positions) {
    return (length(positions[s.b] - positions[s.a]) - s.rest) / s.rest;
}

}  // namespace springkit::editor
