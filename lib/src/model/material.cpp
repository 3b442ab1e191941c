// springkit — node masses and spring stiffness from a material (material.hpp).
#include "springkit/material.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "springkit/error.hpp"
#include "collision/pressure.hpp"

namespace springkit {

namespace {

double triangle_area(const Model& model, const Face& f) {
    const Vec3 a = model.positions[f.node[0]], b = model.positions[f.node[1]], c = model.positions[f.node[2]];
    return 0.5 * double(length(cross(b - a, c - a)));
}

std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) {
    return (std::uint64_t{std::min(a, b)} << 32) | std::max(a, b);
}

[[noreturn]] void fail(const std::string& context, const char* row, const std::string& what) {
    throw Error((context.empty() ? std::string() : context + ": ") + "/parameters/" + row + ": " + what);
}

}  // namespace

bool has_material(const Parameters& p) {
    return p.total_mass > 0.0f || p.density > 0.0f || p.area_density > 0.0f || p.stretch_stiffness > 0.0f;
}

double enclosed_volume(const Model& model) {
    double six_v = 0.0;
    for (const Face& f : model.faces) {
        const Vec3 a = model.positions[f.node[0]], b = model.positions[f.node[1]], c = model.positions[f.node[2]];
        six_v += double(a.x) * (double(b.y) * c.z - double(b.z) * c.y) +
                 double(a.y) * (double(b.z) * c.x - double(b.x) * c.z) +
                 double(a.z) * (double(b.x) * c.y - double(b.y) * c.x);
    }
    return std::abs(six_v) / 6.0;
}

double surface_area(const Model& model) {
    double area = 0.0;
    for (const Face& f : model.faces) area += triangle_area(model, f);
    return area;
}

void derive_material(Model& model, const std::string& context) {
    const Parameters& p = model.params;
    const std::size_t n = model.node_count();
    if (n == 0) return;
    if (p.total_mass > 0.0f || p.density > 0.0f || p.area_density > 0.0f) {
        double total = p.total_mass;
        if (p.area_density > 0.0f) {
            const double area = surface_area(model);
            if (!(area > 0.0)) fail(context, "area_density", "area density needs faces with an area (the mesh has none)");
            total = double(p.area_density) * area;
        } else if (p.density > 0.0f) {
            const std::string open = detail::open_mesh_problem(model);
            if (!open.empty())
                fail(context, "density",
                     "density needs a closed face mesh (a volume): " + open + "; give total_mass or area_density");
            total = double(p.density) * enclosed_volume(model);
        }
        // Each node's share: the area around it (a third of each face it is a
        // corner of), or without faces half of each spring it ends.
        std::vector<double> share(n, 0.0);
        for (const Face& f : model.faces) {
            const double third = triangle_area(model, f) / 3.0;
            for (std::uint32_t v : f.node) share[v] += third;
        }
        if (model.faces.empty())
            for (const Spring& s : model.springs) {
                share[s.a] += 0.5 * s.rest;
                share[s.b] += 0.5 * s.rest;
            }
        // Nodes without a share of their own (a pole beside a flag, a loose
        // point) weigh as an average node.
        double sum = 0.0;
        std::size_t with_share = 0;
        for (double s : share)
            if (s > 0.0) sum += s, ++with_share;
        const double average = with_share > 0 ? sum / double(with_share) : 1.0;
        for (double& s : share)
            if (!(s > 0.0)) s = average;
        sum = 0.0;
        for (double s : share) sum += s;
        model.masses.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const auto m = static_cast<float>(total * share[i] / sum);
            if (!(m > 0.0f) || !std::isfinite(m))
                fail(context, p.total_mass > 0.0f ? "total_mass" : p.density > 0.0f ? "density" : "area_density",
                     "gives node " + std::to_string(i) + " a mass of " + std::to_string(m) +
                         " kg, not a positive number");
            model.masses[i] = m;
        }
    }
    if (p.stretch_stiffness > 0.0f) {
        // Van Gelder: k_e = S sum over the faces sharing e of |T| / |e|^2. A
        // spring that is no face edge (bend, shear, volume) spans the area of
        // its ends, a third of each face around them: k = S a / rest^2 with a
        // their mean, so that however many there are (volume springs grow with
        // the nodes) they add the same stiffness at any resolution.
        std::unordered_map<std::uint64_t, double> area_of_edge;
        area_of_edge.reserve(3 * model.faces.size());
        std::vector<double> node_area(n, 0.0);
        for (const Face& f : model.faces) {
            const double area = triangle_area(model, f);
            for (int e = 0; e < 3; ++e) {
                area_of_edge[pair_key(f.node[e], f.node[(e + 1) % 3])] += area;
                node_area[f.node[e]] += area / 3.0;
            }
        }
        for (Spring& s : model.springs) {
            const auto it = area_of_edge.find(pair_key(s.a, s.b));
            const double rest = s.rest;
            const double around = it != area_of_edge.end() ? it->second : 0.5 * (node_area[s.a] + node_area[s.b]);
            const double k = around > 0.0 && rest > 0.0 ? double(p.stretch_stiffness) * around / (rest * rest)
                                                        : double(p.stretch_stiffness);
            s.k = static_cast<float>(k);
            if (!(s.k > 0.0f) || !std::isfinite(s.k))
                fail(context, "stretch_stiffness", "gives spring " + std::to_string(&s - model.springs.data()) +
                                                       " a stiffness of " + std::to_string(k) + " N/m");
        }
    }
}

}  // namespace springkit
