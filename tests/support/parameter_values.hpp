// Test support: values for each row of the parameter table, inside and just
// outside its range, as text the CLI takes and as the floats they stand for.
#pragma once

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "springkit/parameters.hpp"

namespace springkit::test {

/// The shortest text that reads back as exactly `v`.
inline std::string float_text(float v) {
    char buf[32];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

/// A value inside the row's range, distinct for each row index `i` and
/// different from the default; the gust's period (min 0) comes out above its
/// duration (no bounds), as validation wants.
inline std::string inside_text(const ParameterInfo& row, int i) {
    const bool has_min = std::isfinite(row.min.value), has_max = std::isfinite(row.max.value);
    switch (row.type) {
        case ParameterType::number: {
            float v = 0.5f + 0.125f * static_cast<float>(i);
            if (has_min && has_max) v = static_cast<float>(row.min.value + (row.max.value - row.min.value) * 0.375);
            else if (has_min) v = static_cast<float>(row.min.value) + 3.0f + 0.125f * static_cast<float>(i);
            return float_text(v);
        }
        case ParameterType::vector:
            return float_text(0.5f) + "," + float_text(-0.25f) + "," + float_text(1.0f + static_cast<float>(i));
        case ParameterType::count: return std::to_string(static_cast<int>((row.min.value + row.max.value) / 2) + 1);
        case ParameterType::integrator: return "explicit_euler";
    }
    return {};
}

/// Values just outside the row's range (none for an unbounded row).
inline std::vector<std::string> outside_texts(const ParameterInfo& row) {
    std::vector<std::string> texts;
    const float inf = std::numeric_limits<float>::infinity();
    if (std::isfinite(row.min.value)) {
        if (row.type == ParameterType::count) texts.push_back(std::to_string(static_cast<int>(row.min.value) - 1));
        else {
            const auto m = static_cast<float>(row.min.value);
            texts.push_back(float_text(row.min.included ? std::nextafter(m, -inf) : m));
        }
    }
    if (std::isfinite(row.max.value)) {
        if (row.type == ParameterType::count) texts.push_back(std::to_string(static_cast<int>(row.max.value) + 1));
        else {
            const auto m = static_cast<float>(row.max.value);
            texts.push_back(float_text(row.max.included ? std::nextafter(m, inf) : m));
        }
    }
    return texts;
}

/// `base` with every row that has an option set to inside_text() (rows in
/// the ground section add a ground), but density and area_density, which
/// total_mass excludes; `args` gets the options that say so.
inline Parameters parameters_from_options(Parameters base, std::string& args) {
    ParameterOverrides overrides;
    int i = 0;
    for (const ParameterInfo& row : parameter_table()) {
        ++i;
        if (row.cli_option.empty()) continue;
        // The material's ways of giving the mass exclude each other
        // (validate_parameters): total_mass stands for density and area_density.
        if (row.section == ParameterSection::main && (row.key == "density" || row.key == "area_density")) continue;
        const std::string text = inside_text(row, i);
        ParameterValue value;
        if (!parse_parameter(row, text, value).empty()) ADD_FAILURE() << row.pointer() << ": " << text;
        overrides.set(row, value);
        args.append(" ").append(row.cli_option).append("=").append(text);
    }
    overrides.apply(base);
    return base;
}

}  // namespace springkit::test
