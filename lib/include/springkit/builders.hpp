// springkit — scenes built in one place, as Box2D keeps its sample and benchmark
// scenes in one library every tool shares: tests, samples, benchmarks, the CLI's
// `new` verb and the editor all build models here. The registry of named scenes
// over these builders is springkit/scenes.hpp.
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
    /// Adds a spring a-b with this rest length (a grid's spacing, which float
    /// positions only approximate); false if a == b or it exists.
    bool add_with_rest(std::uint32_t a, std::uint32_t b, float rest, float k = 0.0f,
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

/// A towel over a thin rail: a horizontal cloth (shear and bend springs) held
/// along its middle row (row rows / 2), as if laid over a rail along x; its two
/// halves fall and hang face to face. Without self-collision
/// (Parameters::self_collision_distance) they swing through each other.
struct TowelSpec {
    int columns = 9;           ///< nodes along the rail (x)
    int rows = 33;             ///< nodes across it (z)
    float width = 0.8f;        ///< m along x
    float length = 3.2f;       ///< m along z, both halves
    Vec3 center{0, 2.0f, 0};   ///< m, the middle of the rail
};
Model make_towel(const TowelSpec& spec = {}, const Parameters& params = {});

/// A box lattice of nodes in the stable arrangement of Oliveira's Figure 8: the
/// cell edges plus both diagonals of every cell face plus the four body
/// diagonals, so no cell can fold flat without stretching a spring (the plain
/// edge lattice of his Figure 5 collapses). Surface triangles for drawing.
struct JellySpec {
    int nx = 4, ny = 4, nz = 4;   ///< nodes per axis (>= 2)
    float size = 1.0f;            ///< m, edge of the cube along x; y, z keep the spacing
    Vec3 origin{-0.5f, 0.0f, -0.5f};
    bool anchor_bottom = false;   ///< anchor the y = 0 layer
    /// Also springs that skip one node along each axis ("stack the cloth model and
    /// connect all the planes with more springs", Oliveira). A large shake can turn
    /// a Figure 8 cell inside out, where it stays; these springs span two cells and
    /// pull it back.
    bool bend = false;
};
Model make_jelly(const JellySpec& spec = {}, const Parameters& params = {});

/// Oliveira's balloon: a string tied to a spherical jelly. The sphere is a UV
/// sphere surface with a centre node spoked to every surface node, plus surface
/// edges and ring-skipping springs; the string hangs from its lowest node down
/// to an anchored end (a hand holding it).
/// The gas lifts it: `lift` times the weight of the whole balloon pulls the body's
/// nodes up (Model::constant_forces, shared equally), so the body floats above
/// the held end and the string hangs below it, taut. Without lift an anchored
/// string would let the body fall onto it. Oliveira gives no value: 1.25 (a
/// modest helium balloon) keeps the string tension at a quarter of the weight.
struct BalloonSpec {
    float radius = 0.5f;       ///< m
    int rings = 8;             ///< latitude bands
    int segments = 12;         ///< longitude segments
    Vec3 center{0, 2.0f, 0};
    int string_nodes = 12;
    float string_length = 1.5f;  ///< m
    bool anchor_string_end = true;
    float lift = 1.25f;          ///< gas lift as a multiple of the whole balloon's weight; 0 = none
    float string_k = 3000.0f;    ///< N/m, own stiffness of the string's springs; 0 = Parameters::k
    float string_radius = 0.005f;  ///< m, drawn as a tube
};
Model make_balloon(const BalloonSpec& spec = {}, const Parameters& params = {});

/// Tunca's rope (his rope physics tutorial): 80 masses of 0.05 kg over 4 m, k 10000,
/// inner friction 0.2, air friction 0.02, ground at y = -1.5 with repulsion 100,
/// friction 0.2, absorption 2; the first mass is the velocity-driven connection
/// point. The rope starts horizontal along +x from `start`.
struct TuncaRopeSpec {
    int masses = 80;
    float segment = 0.05f;  ///< m, rest length of each spring (79 x 0.05 = 3.95 m)
    Vec3 start{0, 0, 0};
    float radius = 0.02f;   ///< m, drawn as a tube (Tunca draws a line; our choice)
};
Parameters tunca_rope_parameters();
Model make_tunca_rope(const TuncaRopeSpec& spec = {});

/// Garrido's "improved rope" (real-time rope thesis, IV.A): Tunca's rope without the
/// inner spring friction, k 20000 N/m and a 1 ms step; the rest as Tunca.
/// k dt^2 / m = 0.4: above springkit's 0.3 warning, as Garrido ran it (he reports
/// it "considerably stable at 0.05 kg per particle").
Parameters garrido_rope_parameters();
Model make_garrido_rope(const TuncaRopeSpec& spec = {});

/// Garrido's heavy bead on a rope (IV.B): an improved rope hanging between two
/// anchored ends at different heights, with a bead (Model::beads) that slides down
/// it. The rope starts on a parabola below the straight line, `slack` longer than
/// the distance between the ends. Garrido's weight is 100 rope masses (5 kg); we
/// pick 1 kg, enough to bend the rope visibly, and a little friction (0.5 N s/m,
/// our choice) so the bead comes to rest at the low point instead of rocking forever.
struct BeadRopeSpec {
    Vec3 start{-2.0f, 1.5f, 0};  ///< m, the high end
    Vec3 end{2.0f, 0.0f, 0};     ///< m, the low end
    int segments = 40;
    float slack = 0.2f;          ///< m of rope beyond the straight distance
    float bead_mass = 1.0f;      ///< kg
    float bead_start = 2.0f;     ///< segments from the high end
    float bead_friction = 0.5f;  ///< N s/m
};
Model make_bead_rope(const BeadRopeSpec& spec = {});

/// Garrido's jump rope (IV.C): both ends turn on circles of `radius` around the
/// axis through the two circle centres, perpendicular to the rope, at
/// `angular_speed`; the rope starts hanging `sag` below its ends on a parabola
/// (his Figure 25, y = a x^2 + b), improved-rope constants otherwise. Garrido
/// starts with radius 0.25 m and turns the ends 0.1 rad per key press; he gives no
/// speed, so we pick 12 rad/s (about 2 turns a second): at 8 rad/s the middle
/// sometimes fails to swing over the top and falls through the axis, as Garrido
/// warns ("if the angular speed is too slow ... the desired effect will not be achieved").
struct JumpRopeSpec {
    Vec3 center{0, 1.5f, 0};   ///< m, midpoint of the axis through the circle centres
    float span = 2.0f;         ///< m between the two ends (along x)
    float sag = 0.6f;          ///< m the middle hangs below the ends at the start
    int segments = 40;
    float radius = 0.25f;      ///< m, circle radius of the ends (Garrido: 0.25)
    float angular_speed = 12.0f;  ///< rad/s
};
Model make_jump_rope(const JumpRopeSpec& spec = {});

/// Builderboy's single-segment rope: bodies (single nodes) on inextensible ropes
/// (Model::tethers) from a fixed point. The first body starts inside the circle,
/// off to the side, and falls until its rope pulls tight, then swings; the second,
/// with Builderboy's "3/2" pull (bounce 0.5), is dropped straight below its point.
struct TetherSpec {
    Vec3 point{0, 2.0f, 0};    ///< m, where the ropes are tied
    float length = 1.0f;       ///< m, rope length L
    float bounce = 0.5f;       ///< of the second body
    float spacing = 1.5f;      ///< m along x between the two set-ups
};
Model make_tethered_bodies(const TetherSpec& spec = {});

/// Source engine rope: `segments` max-length sticks from `start` to `end`, each
/// (distance + slack) / segments long, Verlet with damping 0.98 and three
/// relaxation passes; both ends anchored. Not pre-simulated: see presimulate().
struct SourceRopeSpec {
    Vec3 start{-1, 1, 0};
    Vec3 end{1, 1, 0};
    int segments = 10;
    float slack = 0.5f;   ///< m added to the rope's length
    float mass = 0.05f;   ///< kg per node
    int subdivisions = 2; ///< Catmull-Rom points drawn between two nodes (the mapper's "subdivision")
    float radius = 0.01f; ///< m, drawn as a tube
};
Model make_source_rope(const SourceRopeSpec& spec = {});

/// Oliveira's "flag with a flexible pole": a cloth flag hanging from the top of a
/// pole that bends. The pole is a thin jelly column (Figure 8 cells, 2 x 2 nodes
/// across) anchored at its foot, much stiffer and heavier than the cloth; the
/// flag's edge is tied to it by springs. The wind (through air friction) blows the
/// flag out and bends the pole; gusts make it flap. Oliveira gives no constants;
/// ours are chosen to look right and to stay stable at a 1 ms substep.
struct FlagSpec {
    float pole_height = 2.0f;      ///< m
    float pole_thickness = 0.15f;  ///< m, also the spacing of the pole's levels
    float pole_k = 25000.0f;       ///< N/m, the pole's springs
    float pole_node_mass = 0.1f;   ///< kg
    int columns = 13, rows = 9;    ///< flag nodes along x and down
    float width = 1.2f, height = 0.8f;  ///< m, flag size
    float flag_node_mass = 0.01f;  ///< kg
    Vec3 wind{0, 0, 5.0f};         ///< m/s
};
Model make_flag(const FlagSpec& spec = {});

/// Oliveira's F1 example: "the finish line cloth with a cloth connected by strings
/// to the poles. As the cars cross the line apply the forces due to the air
/// movement". A banner between two rigid poles hangs on four strings (top and
/// bottom corners); every `gust_period` seconds a car passes and a gust
/// (Parameters::gust) pushes the banner along the cars' path (+z). Constants ours.
struct FinishLineSpec {
    float span = 6.0f;             ///< m between the poles (along x)
    float pole_height = 3.0f;      ///< m
    float banner_width = 4.0f, banner_height = 0.6f;  ///< m
    float banner_top = 2.7f;       ///< m, height of the banner's top edge
    int columns = 21, rows = 4;    ///< banner nodes
    int string_nodes = 6;          ///< nodes of each string, both ends included
    Vec3 gust{0, 0, 8.0f};         ///< m/s, peak air velocity behind a car
    float gust_period = 4.0f;      ///< s between cars
    float gust_duration = 1.5f;    ///< s
};
Model make_finish_line(const FinishLineSpec& spec = {});

/// Appends `part` to `into`: nodes, springs, anchors, faces, texcoords and
/// attachments, renumbered. Keeps `into`'s parameters; where `part` relies on its
/// own defaults (mass, k) that differ, they become per-node masses and per-spring
/// k. Returns the index of part's first node in `into`.
std::uint32_t append_model(Model& into, const Model& part);

/// Runs the model for `seconds` (60 Hz frames) and makes the result its rest
/// positions; rest lengths stay. The Source engine settles ropes for 3 s so they
/// are at rest when first shown.
void presimulate(Model& model, float seconds);

/// The templates of `springkit new` by the names scripts use: "rope" is the alias
/// of the scene "tunca-rope". The registry (springkit/scenes.hpp,
/// template_scenes()) lists them with their options.
inline constexpr const char* kBuilderNames[] = {"string", "cloth", "jelly", "balloon", "rope",
                                                "source-rope"};

}  // namespace springkit
