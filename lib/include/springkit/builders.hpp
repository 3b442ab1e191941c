// springkit — scenes built in one place (Box2D's shared/ idea): tests, samples,
// benchmarks, the CLI's `new` verb and the editor all build models here.
#pragma once

#include <cstdint>
#include <unordered_set>

#include "springkit/model.hpp"
#include "springkit/simulation.hpp"

namespace springkit {

/// Adds springs without duplicates in O(1) per spring; for bulk building.
class SpringSet {
public:
    explicit SpringSet(Model& model);
    /// Adds a spring a-b at its current length; false if a == b or it exists.
    bool add(std::uint32_t a, std::uint32_t b, float k = 0.0f,
             SpringKind kind = SpringKind::hooke);

private:
    Model& model_;
    std::unordered_set<std::uint64_t> pairs_;
};

/// Oliveira listing 4: a line of nodes along +x, the first node anchored.
struct StringSpec {
    int nodes = 20;
    float length = 2.0f;     ///< m, total
    Vec3 start{0, 0, 0};
    Vec3 direction{1, 0, 0};
    bool anchor_first = true;
};
Model make_string(const StringSpec& spec = {}, const Parameters& params = {});

/// Where a cloth is held.
enum class ClothAnchors : std::uint8_t {
    none,
    top_corners,    ///< the two corners of the far edge (v = 0 row)
    top_edge,       ///< the whole far edge
    center_square,  ///< four nodes in a square around the centre (Oliveira figures 14-17)
};

/// A rectangular grid in the xz plane (y up), faces with texcoords (u along x).
struct ClothSpec {
    int columns = 20;        ///< nodes along x
    int rows = 20;           ///< nodes along z
    float width = 2.0f;      ///< m along x
    float height = 2.0f;     ///< m along z
    Vec3 origin{-1.0f, 1.0f, -1.0f};  ///< position of node (0, 0)
    bool vertical = false;   ///< true: the grid hangs in the xy plane, rows going down
    bool shear = true;       ///< diagonals of each quad
    bool bend = true;        ///< springs skipping one node, along rows and columns
    ClothAnchors anchors = ClothAnchors::top_corners;
};
Model make_cloth(const ClothSpec& spec = {}, const Parameters& params = {});

/// A box lattice of nodes in the stable arrangement of Oliveira's Figure 8: the
/// cell edges plus both diagonals of every cell face plus the four body
/// diagonals, so no cell can fold flat without stretching a spring (the plain
/// edge lattice of his Figure 5 collapses). Surface triangles for drawing.
struct JellySpec {
    int nx = 4, ny = 4, nz = 4;   ///< nodes per axis (>= 2)
    float size = 1.0f;            ///< m, edge of the cube along x; y, z keep the spacing
    Vec3 origin{-0.5f, 0.0f, -0.5f};
    bool anchor_bottom = false;   ///< anchor the y = 0 layer
};
Model make_jelly(const JellySpec& spec = {}, const Parameters& params = {});

/// Oliveira's balloon: a string tied to a spherical jelly. The sphere is a UV
/// sphere surface with a centre node spoked to every surface node, plus surface
/// edges and ring-skipping springs; the string hangs from its lowest node down
/// to an anchored end.
struct BalloonSpec {
    float radius = 0.5f;       ///< m
    int rings = 8;             ///< latitude bands
    int segments = 12;         ///< longitude segments
    Vec3 center{0, 2.0f, 0};
    int string_nodes = 12;
    float string_length = 1.5f;  ///< m
    bool anchor_string_end = true;
};
Model make_balloon(const BalloonSpec& spec = {}, const Parameters& params = {});

/// Tunca's rope (rope-physics-tutorial): 80 masses of 0.05 kg over 4 m, k 10000,
/// inner friction 0.2, air friction 0.02, ground at y = -1.5 with repulsion 100,
/// friction 0.2, absorption 2; the first mass is the velocity-driven connection
/// point. The rope starts horizontal along +x from `start`.
struct TuncaRopeSpec {
    int masses = 80;
    float segment = 0.05f;  ///< m, rest length of each spring (79 x 0.05 = 3.95 m)
    Vec3 start{0, 0, 0};
};
Parameters tunca_rope_parameters();
Model make_tunca_rope(const TuncaRopeSpec& spec = {});

/// Source engine rope: `segments` max-length sticks from `start` to `end`, each
/// (distance + slack) / segments long, Verlet with damping 0.98 and three
/// relaxation passes; both ends anchored. Not pre-simulated: see presimulate().
struct SourceRopeSpec {
    Vec3 start{-1, 1, 0};
    Vec3 end{1, 1, 0};
    int segments = 10;
    float slack = 0.5f;   ///< m added to the rope's length
    float mass = 0.05f;   ///< kg per node
};
Model make_source_rope(const SourceRopeSpec& spec = {});

/// Runs the model for `seconds` (60 Hz frames) and makes the result its rest
/// positions; rest lengths stay. The Source engine settles ropes for 3 s so they
/// are at rest when first shown.
void presimulate(Model& model, float seconds);

/// The names `springkit new` and the editor know, in the order they list them.
inline constexpr const char* kBuilderNames[] = {"string", "cloth", "jelly", "balloon", "rope",
                                                "source-rope"};

}  // namespace springkit
