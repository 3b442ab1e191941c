// Validation: each bad input is refused with a message naming the problem
// and where it is, so that a person can fix the file.
#include <gtest/gtest.h>

#include <limits>

#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;

namespace {

Model two_nodes() {
    Model m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    m.springs = {{0, 1, 1.0f}, {1, 2, 1.0f}};
    return m;
}

std::string validation_error(const Model& m) {
    return springkit::test::error_of([&] { validate(m, "model.json"); });
}

}  // namespace

TEST(Model, ValidModelPasses) { EXPECT_EQ(validation_error(two_nodes()), ""); }

TEST(Model, RejectOutOfRangeSpringIndex) {
    Model m = two_nodes();
    m.springs[1].b = 7;
    EXPECT_EQ(validation_error(m), "model.json: /springs/1: node index 7 out of range (model has 3 nodes)");
}

TEST(Model, RejectNonPositiveMass) {
    Model m = two_nodes();
    m.params.mass = 0.0f;
    EXPECT_EQ(validation_error(m), "model.json: /parameters/mass: mass must be > 0 kg (got 0)");
    m = two_nodes();
    m.masses = {1.0f, -2.0f, 1.0f};
    EXPECT_EQ(validation_error(m), "model.json: /masses/1: node mass must be > 0 kg (got -2)");
}

TEST(Model, RejectNonFiniteNumbers) {
    Model m = two_nodes();
    m.positions[2].y = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(validation_error(m), "model.json: /positions/2: value is not a finite number");
    m = two_nodes();
    m.params.k = std::numeric_limits<float>::infinity();
    EXPECT_EQ(validation_error(m), "model.json: /parameters/k: value is not a finite number");
}

TEST(Model, RejectNonPositiveRestLength) {
    Model m = two_nodes();
    m.springs[0].rest = 0.0f;
    EXPECT_EQ(validation_error(m), "model.json: /springs/0/rest: rest length must be > 0 m (got 0)");
}

TEST(Model, RejectDuplicateSpring) {
    Model m = two_nodes();
    m.springs.push_back({1, 0, 1.0f});
    EXPECT_EQ(validation_error(m),
              "model.json: /springs/2: duplicate spring between nodes 1 and 0 (same as spring 0)");
}

TEST(Model, RejectSelfSpring) {
    Model m = two_nodes();
    m.springs[0].b = 0;
    EXPECT_EQ(validation_error(m), "model.json: /springs/0: spring connects node 0 to itself");
}

TEST(Model, RejectAnchorOutOfRangeOrTwice) {
    Model m = two_nodes();
    m.anchors = {{.node = 3}};
    EXPECT_EQ(validation_error(m), "model.json: /anchors/0: anchor node 3 out of range (model has 3 nodes)");
    m.anchors = {{.node = 1}, {.node = 1}};
    EXPECT_EQ(validation_error(m), "model.json: /anchors/1: node 1 is anchored twice");
}

TEST(Model, RejectFaceIndicesOutOfRange) {
    Model m = two_nodes();
    m.faces = {{{0, 1, 5}, {0, 0, 0}}};
    EXPECT_EQ(validation_error(m), "model.json: /faces/0: node index 5 out of range (model has 3 nodes)");
    m.faces = {{{0, 1, 2}, {0, 1, 2}}};
    m.texcoords = {{0, 0}, {1, 0}};
    EXPECT_EQ(validation_error(m), "model.json: /faces/0: texcoord index 2 out of range (model has 2 texcoords)");
}

TEST(Model, RejectBadParameters) {
    Model m = two_nodes();
    m.params.energy_loss = 1.5f;
    EXPECT_NE(validation_error(m).find("/parameters/energy_loss: energy loss must be in (0, 1]"), std::string::npos);
    m = two_nodes();
    m.params.max_substep = 0.0f;
    EXPECT_NE(validation_error(m).find("/parameters/max_substep"), std::string::npos);
}

TEST(Model, SimulationRefusesAnInvalidModel) {
    Model m = two_nodes();
    m.springs[0].a = 9;
    EXPECT_THROW(Simulation sim(m), Error);
}

TEST(Model, AddSpringSkipsDuplicatesAndSelfLoops) {
    Model m = two_nodes();
    EXPECT_FALSE(add_spring(m, 1, 0));
    EXPECT_FALSE(add_spring(m, 2, 2));
    EXPECT_TRUE(add_spring(m, 0, 2));
    EXPECT_FLOAT_EQ(m.springs.back().rest, 2.0f);
}
