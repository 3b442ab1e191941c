// The parameter table: one row per field of Parameters, each with a field, a
// pointer, a range its default lies in.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "springkit/parameters.hpp"

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
    // Parameters holds 11 fields, a Ground 4 and a Gust 4.
    EXPECT_EQ(fields.size(), 19u);
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
}

}  // namespace
}  // namespace springkit
