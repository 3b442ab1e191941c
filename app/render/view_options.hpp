// springkit-editor — what the viewport shows and how it measures strain. Apart
// from the renderer so that the panels (app/ui) need no OpenGL header.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <span>

#include "springkit/model.hpp"

namespace springkit::editor {

/// The kinds of spring the viewport tells apart, colours and filters (Houdini
/// Vellum's constraint view): a rope constraint by its SpringKind, the others by
/// the Spring::role the converter or the editor gave them.
enum class SpringClass : std::uint8_t { edge, shear, bend, volume, rope, user, other, count };
inline constexpr std::size_t kSpringClasses = static_cast<std::size_t>(SpringClass::count);

inline SpringClass spring_class(const Spring& s) {
    if (s.kind == SpringKind::rope) return SpringClass::rope;
    switch (s.role) {
        case SpringRole::edge: return SpringClass::edge;
        case SpringRole::shear: return SpringClass::shear;
        case SpringRole::bend: return SpringClass::bend;
        case SpringRole::volume: return SpringClass::volume;
        case SpringRole::user: return SpringClass::user;
        case SpringRole::unspecified: break;
    }
    return SpringClass::other;
}

/// What the legend calls each class.
inline const char* spring_class_name(SpringClass c) {
    constexpr const char* kNames[kSpringClasses] = {"edge", "shear", "bend", "volume", "rope", "added", "other"};
    return kNames[static_cast<std::size_t>(c)];
}

/// How many springs of each class `springs` has.
inline std::array<std::size_t, kSpringClasses> count_spring_classes(std::span<const Spring> springs) {
    std::array<std::size_t, kSpringClasses> counts{};
    for (const Spring& s : springs) ++counts[static_cast<std::size_t>(spring_class(s))];
    return counts;
}

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
    /// The spring legend over the viewport (ui/spring_legend.hpp).
    bool legend = false;
    /// Springs coloured by their class (spring_class_rgb) instead of their strain.
    bool colour_by_class = false;
    /// Which classes of spring are drawn (and can be picked), by SpringClass.
    std::array<bool, kSpringClasses> show_class = {true, true, true, true, true, true, true};
    /// Only the selected nodes and springs are drawn, with the springs and faces
    /// that join selected nodes; the rest of the model is hidden.
    bool isolate_selection = false;
    /// Springs and nodes drawn through the surface (no depth test against it).
    bool xray = false;
    bool shows(const Spring& s) const { return show_class[static_cast<std::size_t>(spring_class(s))]; }
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

/// A class's colour in the legend and, with colour_by_class, on its springs:
/// far apart in hue, none the selection's yellow.
inline Rgb spring_class_rgb(SpringClass c) {
    constexpr Rgb kColours[kSpringClasses] = {
        {0.35f, 0.7f, 1.0f},   // edge: sky blue
        {0.7f, 0.45f, 1.0f},   // shear: violet
        {1.0f, 0.5f, 0.15f},   // bend: orange
        {0.3f, 0.85f, 0.4f},   // volume: green
        {0.9f, 0.25f, 0.25f},  // rope: red
        {1.0f, 0.35f, 0.85f},  // added in the editor: magenta
        {0.75f, 0.75f, 0.75f}, // other: grey
    };
    return kColours[static_cast<std::size_t>(c)];
}

/// Stretch of a spring relative to its rest length: (length - rest) / rest.
inline float spring_strain(const Spring& s, std::span<const Vec3> positions) {
    return (length(positions[s.b] - positions[s.a]) - s.rest) / s.rest;
}

}  // namespace springkit::editor
