// springkit::import — anchor selectors given on the command line (`--anchor`).
#include <cmath>
#include <limits>

#include "springkit/error.hpp"
#include "springkit/import.hpp"

namespace springkit {

namespace {

[[noreturn]] void bad(const std::string& selector, const std::string& what) {
    throw Error("anchor selector '" + selector + "': " + what +
                " (expected +y:10%, top:10%, nodes:0,5,17 or near:X,Y,Z)");
}

std::vector<double> numbers(const std::string& selector, std::string_view list) {
    std::vector<double> out;
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        const std::string item(list.substr(0, comma));
        std::size_t used = 0;
        double v = 0.0;
        try {
            v = std::stod(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (item.empty() || used != item.size() || !std::isfinite(v)) bad(selector, "'" + item + "' is not a number");
        out.push_back(v);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
        if (list.empty()) bad(selector, "trailing comma");
    }
    return out;
}

/// A selector taken apart: what does not depend on the model is checked here,
/// so that a malformed one is refused before any file is read.
struct Selector {
    std::string kind;             ///< "nodes", "near", or an axis name
    std::vector<double> numbers;  ///< node indices, a point, or the share in %
    int axis = -1;                ///< 0..5 for +x +y +z -x -y -z
};

Selector parse(const std::string& selector) {
    const std::size_t colon = selector.find(':');
    if (colon == std::string::npos) bad(selector, "missing ':'");
    Selector s;
    s.kind = selector.substr(0, colon);
    const std::string_view rest = std::string_view(selector).substr(colon + 1);
    if (s.kind == "nodes") {
        s.numbers = numbers(selector, rest);
        if (s.numbers.empty()) bad(selector, "no node indices");
        for (double v : s.numbers)
            if (v < 0 || v != std::floor(v)) bad(selector, "node indices must be whole numbers >= 0");
    } else if (s.kind == "near") {
        s.numbers = numbers(selector, rest);
        if (s.numbers.size() != 3) bad(selector, "near needs three coordinates");
    } else {
        static const std::pair<const char*, int> axes[] = {{"+x", 0}, {"+y", 1}, {"+z", 2}, {"-x", 3},
                                                           {"-y", 4}, {"-z", 5}, {"top", 1}, {"bottom", 4}};
        for (const auto& [name, a] : axes)
            if (s.kind == name) s.axis = a;
        if (s.axis < 0) bad(selector, "unknown selector '" + s.kind + "'");
        if (rest.empty() || rest.back() != '%') bad(selector, "the share must end in %");
        s.numbers = numbers(selector, rest.substr(0, rest.size() - 1));
        if (s.numbers.size() != 1 || s.numbers[0] <= 0 || s.numbers[0] > 100)
            bad(selector, "the share must be in (0, 100]%");
    }
    return s;
}

}  // namespace

void check_anchor_selector(const std::string& selector) { (void)parse(selector); }

std::size_t apply_anchor_selector(Model& model, const std::string& selector) {
    const Selector s = parse(selector);
    const std::size_t n = model.node_count();

    std::vector<std::uint32_t> chosen;
    if (s.kind == "nodes") {
        for (double v : s.numbers) {
            if (v >= static_cast<double>(n))
                bad(selector, "node " + std::to_string(static_cast<long long>(v)) + " out of range (model has " +
                                  std::to_string(n) + " nodes)");
            chosen.push_back(static_cast<std::uint32_t>(v));
        }
    } else if (s.kind == "near") {
        const std::vector<double>& p = s.numbers;
        const Vec3 target{static_cast<float>(p[0]), static_cast<float>(p[1]), static_cast<float>(p[2])};
        float best = std::numeric_limits<float>::infinity();
        for (std::size_t i = 0; i < n; ++i) {
            const float d = length(model.positions[i] - target);
            if (d < best) {
                best = d;
                chosen.assign(1, static_cast<std::uint32_t>(i));
            }
        }
    } else {
        const Bounds box = bounds(model);
        const int a = s.axis % 3;
        const bool positive = s.axis < 3;
        auto coord = [a](const Vec3& v) { return a == 0 ? v.x : a == 1 ? v.y : v.z; };
        const double lo = coord(box.min), hi = coord(box.max);
        const double band = (hi - lo) * s.numbers[0] / 100.0;
        // A tiny slack keeps nodes exactly on the band's edge (a flat top row) in.
        const double slack = 1e-6 * std::max(1e-12, static_cast<double>(box.diagonal()));
        for (std::size_t i = 0; i < n; ++i) {
            const double c = coord(model.positions[i]);
            if (positive ? c >= hi - band - slack : c <= lo + band + slack) chosen.push_back(static_cast<std::uint32_t>(i));
        }
    }
    if (chosen.empty()) bad(selector, "matches no node");

    std::vector<bool> anchored(n, false);
    for (const Anchor& a : model.anchors)
        if (a.node < n) anchored[a.node] = true;
    std::size_t added = 0;
    for (std::uint32_t node : chosen) {
        if (anchored[node]) continue;
        anchored[node] = true;
        model.anchors.push_back({.node = node});
        ++added;
    }
    return added;
}

}  // namespace springkit
