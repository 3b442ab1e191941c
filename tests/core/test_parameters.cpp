// The parameter table: one row per field of Parameters, each with a field, a
// pointer, a range its default lies in.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <string>

#include "springkit/error.hpp"
#include "springkit/parameters.hpp"
#include "support/parameter_values.hpp"

namespace springkit {
namespace {

int fields_of(const ParameterInfo& row, Parameters& p) {
    return (parameter_number(row, p) != nullptr) + (parameter_vector(row, p) != nullptr) +
           (parameter_count(row, p) != nullptr) + (parameter_integrator(row, p) != nullptr);
}

TEST(ParameterTable, EveryRowHasExactlyOneFieldOfItsType) {
    Parameters p = parameter_defaults();
    for (const ParameterInfo& row : parameter_table()) {
        SCOPED_TRACE(row.pointer());
        EXPECT_EQ(fields_of(row, p), 1);
        switch (row.type) {
            case ParameterType::number: EXPECT_NE(parameter_number(row, p), nullptr); break;
            case ParameterType::vector: EXPECT_NE(parameter_vector(row, p), nullptr); break;
            case ParameterType::count: EXPECT_NE(parameter_count(row, p), nullptr); break;
            case ParameterType::integrator: EXPECT_NE(parameter_integrator(row, p), nullptr); break;
        }
    }
}

TEST(ParameterTable, RowsNameDistinctFieldsKeysAndOptions) {
    Parameters p = parameter_defaults();
    std::set<const void*> fields;
    std::set<std::string> pointers, options;
    for (const ParameterInfo& row : parameter_table()) {
        const void* f = parameter_number(row, p);
        if (!f) f = parameter_vector(row, p);
        if (!f) f = parameter_count(row, p);
        if (!f) f = parameter_integrator(row, p);
        EXPECT_TRUE(fields.insert(f).second) << row.pointer();
        EXPECT_TRUE(pointers.insert(row.pointer()).second) << row.pointer();
        if (!row.cli_option.empty()) {
            EXPECT_TRUE(options.insert(std::string(row.cli_option)).second) << row.cli_option;
        }
        EXPECT_FALSE(row.doc.empty()) << row.pointer();
        EXPECT_FALSE(row.label.empty()) << row.pointer();
    }
    // Parameters holds 29 fields (4 of them the material), a Ground 4 and a Gust 4.
    EXPECT_EQ(fields.size(), 37u);
}

TEST(ParameterTable, GroundRowsHaveNoFieldWithoutAGround) {
    Parameters p;  // no ground by default
    for (const ParameterInfo& row : parameter_table())
        if (row.section == ParameterSection::ground) {
            EXPECT_EQ(fields_of(row, p), 0) << row.pointer();
        }
}

TEST(ParameterTable, DefaultsLieInTheirRanges) {
    Parameters p = parameter_defaults();
    for (const ParameterInfo& row : parameter_table()) {
        if (const float* v = parameter_number(row, p)) {
            EXPECT_TRUE(row.in_range(*v)) << row.pointer();
        }
        if (const int* v = parameter_count(row, p)) {
            EXPECT_TRUE(row.in_range(*v)) << row.pointer();
        }
    }
}

TEST(ParameterTable, FindsRowsByTheirPathInsideParameters) {
    const ParameterInfo* row = find_parameter("ground/repulsion");
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->pointer(), "/parameters/ground/repulsion");
    Parameters p = parameter_defaults();
    EXPECT_EQ(parameter_number(*row, p), &p.ground->repulsion);
    EXPECT_EQ(find_parameter("energy_loss")->cli_option, "--energy-loss");
    EXPECT_EQ(find_parameter("nonsense"), nullptr);
    EXPECT_EQ(find_parameter("repulsion"), nullptr);  // only inside its section
}

TEST(ParameterTable, RangesAreWrittenAsIntervals) {
    const ParameterInfo& energy_loss = *find_parameter("energy_loss");
    EXPECT_EQ(energy_loss.range_text(), "(0, 1]");
    EXPECT_FALSE(energy_loss.in_range(0.0));
    EXPECT_TRUE(energy_loss.in_range(1.0));
    EXPECT_FALSE(energy_loss.in_range(1.0000001));
    EXPECT_EQ(find_parameter("k")->range_text(), ">= 0");
    EXPECT_EQ(find_parameter("mass")->range_text(), "> 0");
    EXPECT_EQ(find_parameter("rope_iterations")->range_text(), "[0, 1000]");
    EXPECT_EQ(find_parameter("wind")->range_text(), "any finite value");
    EXPECT_FALSE(find_parameter("wind")->in_range(std::nan("")));
    EXPECT_EQ(find_parameter("max_substep")->range_text(), "[1e-06, 0.1]");  // the float bound, not its double
}

std::string validation_error(const Parameters& p) {
    try {
        validate_parameters(p, "m.json");
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

// Validation refuses a value just outside each row's range and names the row,
// its range and unit, and the value; it accepts the bound itself when the row
// includes it.
TEST(ParameterTable, ValidationRefusesEachRowJustOutsideItsRange) {
    int checked = 0;
    for (const ParameterInfo& row : parameter_table()) {
        for (const std::string& text : test::outside_texts(row)) {
            SCOPED_TRACE(row.pointer() + " = " + text);
            Parameters p = parameter_defaults();
            if (float* x = parameter_number(row, p)) *x = std::strtof(text.c_str(), nullptr);  // stof refuses denormals
            else if (int* n = parameter_count(row, p)) *n = std::stoi(text);
            const std::string message = validation_error(p);
            EXPECT_EQ(message.rfind("m.json: " + row.pointer() + ": " + std::string(row.label) + " must be ", 0), 0u)
                << message;
            EXPECT_NE(message.find(row.range_text()), std::string::npos) << message;
            EXPECT_NE(message.find(std::string(row.unit)), std::string::npos) << message;
            ParameterValue value;
            EXPECT_NE(parse_parameter(row, text, value), "");  // the CLI refuses it too
            ++checked;
        }
        for (const ParameterBound& bound : {row.min, row.max}) {
            if (!std::isfinite(bound.value) || !bound.included) continue;
            Parameters p = parameter_defaults();
            if (float* x = parameter_number(row, p)) *x = static_cast<float>(bound.value);
            else if (int* n = parameter_count(row, p)) *n = static_cast<int>(bound.value);
            EXPECT_EQ(validation_error(p), "") << row.pointer();
        }
    }
    EXPECT_GE(checked, 14);
}

TEST(ParameterTable, ValidationRefusesNonFiniteValuesAtTheRow) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const ParameterInfo& row : parameter_table()) {
        Parameters p = parameter_defaults();
        if (float* x = parameter_number(row, p)) *x = nan;
        else if (Vec3* v = parameter_vector(row, p)) v->y = nan;
        else continue;
        EXPECT_EQ(validation_error(p), "m.json: " + row.pointer() + ": value is not a finite number");
    }
}

TEST(ParameterTable, ParseReadsEachTypeAndRefusesMalformedText) {
    ParameterValue v;
    EXPECT_EQ(parse_parameter(*find_parameter("gravity"), "0,-1.5,2", v), "");
    EXPECT_EQ(v.vector, (Vec3{0.0f, -1.5f, 2.0f}));
    EXPECT_EQ(parse_parameter(*find_parameter("gravity"), "0,-1.5", v), "expected X,Y,Z, got \"0,-1.5\"");
    EXPECT_EQ(parse_parameter(*find_parameter("gravity"), "0,1,2,3", v), "expected X,Y,Z, got \"0,1,2,3\"");
    EXPECT_EQ(parse_parameter(*find_parameter("integrator"), "verlet", v), "");
    EXPECT_EQ(v.integrator, Integrator::verlet);
    EXPECT_EQ(parse_parameter(*find_parameter("rope_iterations"), "2.5", v), "expected an integer, got \"2.5\"");
    EXPECT_EQ(parse_parameter(*find_parameter("k"), "stiff", v), "expected a number, got \"stiff\"");
    EXPECT_EQ(parse_parameter(*find_parameter("ground/height"), "inf", v),
              "ground height must be a finite number (got inf)");
    EXPECT_EQ(parse_parameter(*find_parameter("energy_loss"), "0", v), "energy loss must be in (0, 1] (got 0)");
}

TEST(ParameterOverrides, ApplySetsOnlyWhatWasSetAndAGroundHeightAddsAGround) {
    ParameterOverrides o;
    ParameterValue v;
    v.number = 7.0f;
    o.set(*find_parameter("ground/friction"), v);
    Parameters p;
    EXPECT_THROW(o.apply(p), Error);  // a ground constant needs a ground
    v.number = -1.0f;
    o.set(*find_parameter("ground/height"), v);
    o.apply(p);
    ASSERT_TRUE(p.ground.has_value());
    EXPECT_EQ(*p.ground, (Ground{.height = -1.0f, .repulsion = 100.0f, .friction = 7.0f, .absorption = 2.0f}));
    Parameters expected;
    expected.ground = p.ground;
    EXPECT_EQ(p, expected);  // nothing else changed
}

// The implicit integrator is there to take one step a 1/60 s frame: a switch
// to it keeps a given substep, and otherwise takes a frame for one.
TEST(ParameterOverrides, ASwitchToTheImplicitIntegratorTakesOneStepAFrame) {
    ParameterOverrides o;
    o.set(*find_parameter("integrator"), {.integrator = Integrator::implicit});
    Parameters p;  // symplectic Euler, 2 ms
    o.apply(p);
    EXPECT_EQ(p.integrator, Integrator::implicit);
    EXPECT_EQ(p.max_substep, kImplicitSubstep);
    EXPECT_EQ(p.max_substep, 1.0f / 60.0f);
    // A longer substep stays (the longest allowed is 0.1 s).
    Parameters slow;
    slow.max_substep = 0.05f;
    o.apply(slow);
    EXPECT_EQ(slow.max_substep, 0.05f);
    // Already implicit: its substep is its own choice (a stiff sample at 4 steps a frame).
    Parameters implicit;
    implicit.integrator = Integrator::implicit;
    implicit.max_substep = 1.0f / 240.0f;
    o.apply(implicit);
    EXPECT_EQ(implicit.max_substep, 1.0f / 240.0f);
    // A substep given with the switch is kept.
    o.set(*find_parameter("max_substep"), {.number = 0.005f});
    Parameters given;
    o.apply(given);
    EXPECT_EQ(given.max_substep, 0.005f);
    // Other integrators keep the explicit substep.
    ParameterOverrides verlet;
    verlet.set(*find_parameter("integrator"), {.integrator = Integrator::verlet});
    Parameters rope;
    verlet.apply(rope);
    EXPECT_EQ(rope.max_substep, Parameters{}.max_substep);
}

TEST(ParameterOverrides, EraseUnsetsOneRow) {
    ParameterOverrides o;
    o.set(*find_parameter("k"), {.number = 5.0f});
    o.set(*find_parameter("mass"), {.number = 2.0f});
    o.erase(*find_parameter("k"));
    o.erase(*find_parameter("wind"));  // never set: nothing happens
    EXPECT_EQ(o.find(*find_parameter("k")), nullptr);
    ASSERT_NE(o.find(*find_parameter("mass")), nullptr);
    o.erase(*find_parameter("mass"));
    EXPECT_TRUE(o.empty());
}

}  // namespace
}  // namespace springkit
