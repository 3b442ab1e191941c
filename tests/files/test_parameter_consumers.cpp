// The model file and the JSON Schema against the parameter table: the writer
// writes exactly the table's keys in its order, every row survives a save and
// load in both forms, and the schema has the same keys and bounds as the rows.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "springkit/builders.hpp"
#include "springkit/io.hpp"
#include "springkit/parameters.hpp"
#include "support/parameter_values.hpp"
#include "support/test_files.hpp"

namespace springkit {
namespace {

using ordered_json = nlohmann::ordered_json;

std::vector<std::string> keys(const ordered_json& object) {
    std::vector<std::string> k;
    for (auto it = object.begin(); it != object.end(); ++it) k.push_back(it.key());
    return k;
}

// The keys "parameters" should hold: main rows by key, each section once by name.
std::vector<std::string> table_keys(ParameterSection section) {
    std::vector<std::string> k;
    for (const ParameterInfo& row : parameter_table()) {
        if (section != ParameterSection::main) {
            if (row.section == section) k.emplace_back(row.key);
        } else if (row.section == ParameterSection::main) {
            k.emplace_back(row.key);
        } else {
            const std::string name = row.section == ParameterSection::ground ? "ground" : "gust";
            if (k.empty() || k.back() != name) k.push_back(name);
        }
    }
    return k;
}

Model model_with_every_parameter_set() {
    std::string args;
    // A jelly: its faces close a volume, as a pressure needs.
    Model m = make_jelly({}, test::parameters_from_options(Parameters{}, args));
    return m;
}

TEST(ParameterConsumers, TheWriterWritesExactlyTheTablesKeysInItsOrder) {
    const Model m = model_with_every_parameter_set();
    ASSERT_TRUE(m.params.ground.has_value());
    ASSERT_NE(m.params.gust, Gust{});
    const ordered_json j = ordered_json::parse(model_to_json(m));
    const ordered_json& params = j.at("parameters");
    // density and area_density are left at 0 (total_mass excludes them): not written.
    std::vector<std::string> main_keys = table_keys(ParameterSection::main);
    std::erase(main_keys, "density");
    std::erase(main_keys, "area_density");
    EXPECT_EQ(keys(params), main_keys);
    EXPECT_EQ(keys(params.at("ground")), table_keys(ParameterSection::ground));
    EXPECT_EQ(keys(params.at("gust")), table_keys(ParameterSection::gust));
}

TEST(ParameterConsumers, EveryParameterSurvivesSaveAndLoadInBothForms) {
    const Model m = model_with_every_parameter_set();
    EXPECT_EQ(model_from_json(model_to_json(m)).params, m.params);
    EXPECT_EQ(model_from_binary(model_to_binary(m)).params, m.params);
}

// Bounds of a schema property against a row's: the same numbers, open or closed alike.
void expect_same_bounds(const ordered_json& property, const ParameterInfo& row) {
    SCOPED_TRACE(row.pointer() + ": " + property.dump());
    auto bound = [&](const char* closed, const char* open, const ParameterBound& b) {
        if (!std::isfinite(b.value)) {
            EXPECT_FALSE(property.contains(closed) || property.contains(open));
            return;
        }
        const char* name = b.included ? closed : open;
        ASSERT_TRUE(property.contains(name)) << name;
        EXPECT_FALSE(property.contains(b.included ? open : closed));
        // Bounds held as floats (max_substep) are written as their decimal.
        EXPECT_EQ(static_cast<float>(property.at(name).get<double>()), static_cast<float>(b.value)) << name;
    };
    bound("minimum", "exclusiveMinimum", row.min);
    bound("maximum", "exclusiveMaximum", row.max);
}

TEST(ParameterConsumers, TheSchemaHasTheTablesKeysAndBounds) {
    std::ifstream in(std::string(SPRINGKIT_SOURCE_DIR) + "/schema/springkit-model.schema.json");
    ASSERT_TRUE(in);
    const ordered_json schema = ordered_json::parse(in);
    const ordered_json& params = schema.at("$defs").at("parameters").at("properties");
    const ordered_json& ground = params.at("ground").at("oneOf").at(1).at("properties");
    const ordered_json& gust = params.at("gust").at("properties");
    EXPECT_EQ(keys(params), table_keys(ParameterSection::main));
    EXPECT_EQ(keys(ground), table_keys(ParameterSection::ground));
    EXPECT_EQ(keys(gust), table_keys(ParameterSection::gust));
    for (const ParameterInfo& row : parameter_table()) {
        const ordered_json& section = row.section == ParameterSection::ground ? ground
                                      : row.section == ParameterSection::gust ? gust
                                                                              : params;
        const ordered_json& property = section.at(std::string(row.key));
        switch (row.type) {
            case ParameterType::number:
                EXPECT_EQ(property.at("type"), "number") << row.pointer();
                expect_same_bounds(property, row);
                break;
            case ParameterType::count:
                EXPECT_EQ(property.at("type"), "integer") << row.pointer();
                expect_same_bounds(property, row);
                break;
            case ParameterType::vector:
                EXPECT_EQ(property.at("$ref"), "#/$defs/vec3") << row.pointer();
                EXPECT_FALSE(std::isfinite(row.min.value) || std::isfinite(row.max.value)) << row.pointer();
                break;
            case ParameterType::integrator: {
                std::vector<std::string> names;
                for (Integrator i : {Integrator::explicit_euler, Integrator::symplectic_euler, Integrator::verlet,
                                     Integrator::implicit})
                    names.emplace_back(integrator_name(i));
                EXPECT_EQ(property.at("enum").get<std::vector<std::string>>(), names);
                break;
            }
        }
    }
}

// Pieces joined into one string (GCC 12 sees overlapping copies in "a" + s + "b").
std::string join(std::initializer_list<std::string_view> parts) {
    std::string text;
    for (std::string_view part : parts) text.append(part);
    return text;
}

std::string document(const std::string& name) {
    std::ifstream in(std::string(SPRINGKIT_SOURCE_DIR) + "/docs/" + name);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// FILE_FORMAT.md has a line per row ("| `ground.friction` | ...") with its
// range and option; CONVERTER.md names every option.
TEST(ParameterConsumers, TheDocumentsListEveryRowWithItsRangeAndOption) {
    const std::string format = document("FILE_FORMAT.md"), converter = document("CONVERTER.md");
    ASSERT_FALSE(format.empty());
    for (const ParameterInfo& row : parameter_table()) {
        std::string path(row.key);
        if (row.section == ParameterSection::ground) path = "ground." + path;
        if (row.section == ParameterSection::gust) path = "gust." + path;
        const std::size_t at = format.find(join({"\n| `", path, "` |"}));
        ASSERT_NE(at, std::string::npos) << path;
        const std::string line = format.substr(at + 1, format.find('\n', at + 1) - at - 1);
        const bool bounded = std::isfinite(row.min.value) || std::isfinite(row.max.value);
        if (bounded) {
            EXPECT_NE(line.find(join({"| ", row.range_text(), " |"})), std::string::npos) << line;
        }
        const std::string option = join({"`", row.cli_option});
        EXPECT_NE(line.find(option), std::string::npos) << line;
        EXPECT_NE(converter.find(option), std::string::npos) << option;
    }
}

}  // namespace
}  // namespace springkit
