// springkit-editor — the parameter widgets' plan (parameter_widgets.hpp).
#include "ui/parameter_widgets.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string_view>

namespace springkit::editor {

namespace {

// How a row drags, where the type's default does not suit it; keyed by the row's
// path ("k", "ground/repulsion"). The table holds what a value may be; how fast a
// mouse should move it is the editor's business.
struct Drag {
    std::string_view path;
    float speed;
    bool relative = false;
    float relative_floor = 0.0f;
    bool logarithmic = false;
};
constexpr Drag kDrags[] = {
    {"k", 0.01f, true, 1.0f},
    {"mass", 0.01f, true, 1e-4f},
    {"spring_damping", 0.005f},
    {"air_friction", 0.001f},
    // Spans four decades: equal drags should scale it, not shift it.
    {"max_substep", 0.00005f, false, 0.0f, true},
    {"ground/height", 0.01f},
    {"ground/repulsion", 1.0f},
};

// Appends rather than adds strings: GCC 12 warns falsely about operator+ (its bug 105651).
std::string path_of(const ParameterInfo& row) {
    std::string path;
    if (row.section == ParameterSection::ground) path = "ground/";
    if (row.section == ParameterSection::gust) path = "gust/";
    path += row.key;
    return path;
}

// An open bound is refused by validation, so the widget stops just inside it.
float inside(const ParameterBound& bound, float direction) {
    const double v = bound.value;
    if (bound.included) return static_cast<float>(v);
    return static_cast<float>(v + direction * std::max(std::abs(v) * 1e-6, 1e-6));
}

constexpr const char* kIntegratorLabels[] = {"explicit Euler", "symplectic Euler", "Verlet", "implicit"};

}  // namespace

float ParameterWidget::speed_at(float value) const {
    return relative ? std::max(std::abs(value), relative_floor) * speed : speed;
}

ParameterWidget parameter_widget(const ParameterInfo& row) {
    ParameterWidget w;
    w.row = &row;
    switch (row.type) {
        case ParameterType::number: w.control = ParameterControl::drag_float; break;
        case ParameterType::vector: w.control = ParameterControl::drag_float3; break;
        case ParameterType::count: w.control = ParameterControl::drag_int; break;
        case ParameterType::integrator: w.control = ParameterControl::combo; break;
    }
    w.label = row.label;
    if (row.topic == ParameterTopic::ground && w.label.starts_with("ground ")) w.label.erase(0, 7);

    const bool has_min = std::isfinite(row.min.value), has_max = std::isfinite(row.max.value);
    if (has_min || has_max) {
        w.min = has_min ? inside(row.min, 1.0f) : -FLT_MAX;
        w.max = has_max ? inside(row.max, -1.0f) : FLT_MAX;
    }

    // Defaults by type; a bounded number moves through its range in about 1000 px.
    switch (w.control) {
        case ParameterControl::drag_float:
            w.speed = has_min && has_max ? (w.max - w.min) / 1000.0f : 0.01f;
            break;
        case ParameterControl::drag_float3: w.speed = 0.05f; break;
        case ParameterControl::drag_int: w.speed = 0.2f; break;
        case ParameterControl::combo: w.speed = 0.0f; break;
    }
    const std::string path = path_of(row);
    for (const Drag& d : kDrags)
        if (d.path == path) {
            w.speed = d.speed;
            w.relative = d.relative;
            w.relative_floor = d.relative_floor;
            w.logarithmic = d.logarithmic && has_min && has_max;
        }

    // Three fields share one widget's width: the unit goes to the help text.
    const bool unit_in_field = !row.unit.empty() && w.control == ParameterControl::drag_float;
    switch (w.control) {
        case ParameterControl::drag_float: w.format = "%.4g"; break;
        case ParameterControl::drag_float3: w.format = "%.2f"; break;
        case ParameterControl::drag_int: w.format = "%d"; break;
        case ParameterControl::combo: break;
    }
    if (unit_in_field) {
        w.format += ' ';
        w.format += row.unit;
    }

    w.help = row.doc;
    w.help += " (";
    if (!row.unit.empty()) {
        w.help += row.unit;
        w.help += ", ";
    }
    w.help += row.range_text();
    w.help += ')';
    return w;
}

std::vector<ParameterWidget> physics_widgets(ParameterTopic group) {
    std::vector<ParameterWidget> widgets;
    for (const ParameterInfo& row : parameter_table())
        if (row.topic == group) widgets.push_back(parameter_widget(row));
    return widgets;
}

bool read_parameter(const ParameterInfo& row, const Parameters& params, ParameterValue& out) {
    if (const float* x = parameter_number(row, params)) out.number = *x;
    else if (const Vec3* v = parameter_vector(row, params)) out.vector = *v;
    else if (const int* n = parameter_count(row, params)) out.count = *n;
    else if (const Integrator* i = parameter_integrator(row, params)) out.integrator = *i;
    else return false;
    return true;
}

bool write_parameter(const ParameterInfo& row, const ParameterValue& value, Parameters& params) {
    if (float* x = parameter_number(row, params)) *x = value.number;
    else if (Vec3* v = parameter_vector(row, params)) *v = value.vector;
    else if (int* n = parameter_count(row, params)) *n = value.count;
    else if (Integrator* i = parameter_integrator(row, params)) *i = value.integrator;
    else return false;
    return true;
}

std::span<const char* const> integrator_labels() { return kIntegratorLabels; }

void fit_gust(Parameters& params) {
    Gust& g = params.gust;
    if (!(g.period > 0.0f)) return;
    if (!(g.duration > 0.0f)) g.duration = 0.5f * g.period;
    g.duration = std::min(g.duration, g.period);
}

}  // namespace springkit::editor
