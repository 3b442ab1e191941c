// springkit-editor — draws a running model: the lit, textured surface with the
// simulation's per-step normals (Oliveira, "Texturing and Lighting"), springs as
// lines coloured by strain, nodes as points with anchors and the selection
// highlighted, and a ground plane with the model's planar shadow (as Tunca's
// rope demo draws it). OpenGL 3.3 core.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "editing/selection.hpp"
#include "render/gl_util.hpp"
#include "render/view_options.hpp"
#include "springkit/colliders.hpp"
#include "springkit/model.hpp"
#include "springkit/simulation.hpp"
#include "view/camera.hpp"

namespace springkit::editor {

/// The direction towards the light, unit length.
Vec3 light_direction(const ViewOptions& view);

class SceneRenderer {
public:
    /// Compiles the shaders; needs a current OpenGL 3.3 context.
    SceneRenderer();
    ~SceneRenderer();
    SceneRenderer(const SceneRenderer&) = delete;
    SceneRenderer& operator=(const SceneRenderer&) = delete;

    /// Builds what stays fixed while a model runs (the mapping of face corners to
    /// vertices, the texture). Call when the model's faces or texture change.
    /// `model_dir` resolves a relative texture path.
    void set_model(const Model& model, const std::filesystem::path& model_dir);
    /// Why the texture did not load, or empty.
    const std::string& texture_error() const { return texture_error_; }
    bool has_texture() const { return texture_.get() != 0; }

    /// Draws into the current framebuffer's `viewport` (pixels, y down, in a
    /// framebuffer `framebuffer_height` pixels high).
    /// `colliders` are drawn shaded, `selected_collider` highlighted.
    /// prepare() then render().
    void draw(const Simulation& sim, const OrbitCamera& camera, const Viewport& viewport, int framebuffer_height,
              const ViewOptions& view, const Selection& selection, std::span<const Collider> colliders = {},
              std::optional<std::size_t> selected_collider = std::nullopt);
    /// Copies what render() draws of the simulation's state (positions, normals,
    /// strain colours, ropes, its box) into the renderer's buffers: after it the
    /// simulation may step on while render() draws this state.
    void prepare(const Simulation& sim, const OrbitCamera& camera, const Viewport& viewport, const ViewOptions& view,
                 const Selection& selection);
    /// Draws what prepare() took, of the simulation's `model`, with the same
    /// camera, viewport, view and selection.
    void render(const Model& model, const OrbitCamera& camera, const Viewport& viewport, int framebuffer_height,
                const ViewOptions& view, const Selection& selection, std::span<const Collider> colliders = {},
                std::optional<std::size_t> selected_collider = std::nullopt);

private:
    void draw_ground(const Mat4& view_projection, const Model& model, float ground_y, float extent);
    /// Builds the colliders' triangles when they changed, and draws them.
    void draw_colliders(const Mat4& view_projection, const ViewOptions& view, std::span<const Collider> colliders,
                        std::optional<std::size_t> selected, Vec3 center, float extent);
    void draw_surface(const Mat4& view_projection, const Mat4& model_matrix, const ViewOptions& view, bool shadow);
    /// With ViewOptions::isolate_selection: marks the selected nodes and the ends
    /// of the selected springs in isolated_, and lists the faces whose corners are
    /// all marked.
    void isolate(const Model& model, const Selection& selection);
    /// Whether spring `index` is drawn: its class is shown and, when isolating, it
    /// is selected or joins two isolated nodes.
    bool drawn(const Spring& s, std::uint32_t index, const ViewOptions& view) const {
        return view.shows(s) && (!isolating_ || isolated_springs_[index] || (isolated_[s.a] && isolated_[s.b]));
    }
    /// `flush_halfway`: in two draws with a glFlush() between (render()).
    void draw_springs(const Mat4& view_projection, const Mat4& model_matrix, bool shadow,
                      bool flush_halfway = false);
    /// The shadow of a dense surface (more than kFlatShadowTriangles): the ellipse
    /// inscribed in the floor's extent of the body's box flattened along the light,
    /// instead of every triangle flattened (the pass a software rasteriser spends
    /// most on: many small, overlapping triangles).
    void draw_blob_shadow(const Mat4& view_projection, const Mat4& shadow, const Bounds& body, const ViewOptions& view);
    Bounds body_bounds_{};  ///< prepare(): the box of the positions drawn
    void draw_points(const Mat4& view_projection, std::span<const std::uint32_t> nodes, float size,
                     const float color[4]);
    /// Builds this frame's rope tubes (make_tube over Model::tubes, plus a straight
    /// tube per tether) and uploads them with the bead positions.
    void upload_ropes(const Simulation& sim);
    void draw_ropes(const Mat4& view_projection, const Mat4& model_matrix, const ViewOptions& view, bool shadow);
    /// The shadow program's uniforms: the floor's colour, centre and extent.
    void set_shadow_uniforms(GLuint program) const;
    /// Binds `vao` and the program for the draw (the shadow's, or the surface's
    /// textured or not) with what every surface draw sets: the matrices and, for
    /// the surface, the light.
    GLuint use_surface_program(GLuint vao, const Mat4& view_projection, const Mat4& model_matrix,
                               const ViewOptions& view, bool shadow, bool textured = false) const;
    void upload_frame(const Simulation& sim, const ViewOptions& view, const Selection& selection,
                      const Mat4& view_projection, const Viewport& viewport);
    /// The springs' vertices and indices (strain or kind colours, the level of
    /// detail; see draw_springs for the layout) are filled on a worker thread
    /// from a copy of the positions, while render() sends the floor, shadow and
    /// surface; finish_springs() joins it, adds the selected springs' vertices
    /// and uploads them. On two cores the editor's thread, which feeds
    /// llvmpipe, is the frame's longest path.
    void start_springs(const Simulation& sim, const ViewOptions& view, const Selection& selection,
                       const Mat4& view_projection, const Viewport& viewport);
    void fill_springs(const Model& model, const ViewOptions& view, const Mat4& view_projection,
                      const Viewport& viewport);
    void finish_springs(const Model& model, const Selection& selection);
    std::thread spring_filler_;
    std::vector<Vec3> spring_positions_;  ///< start_springs(): the positions drawn
    bool springs_ready_ = true;           ///< finish_springs() ran for this prepare()
    /// Where each node falls on the screen this frame, into `out`: its normalised
    /// device coordinates times `half` plus `offset`, in pixels on each axis (x
    /// NaN behind the camera).
    struct Pixel {
        float x, y;
    };
    static void project_nodes(std::span<const Vec3> positions, const Mat4& view_projection, Pixel half, Pixel offset,
                              std::vector<Pixel>& out);

    gl::Program surface_program_, textured_program_, shadow_program_, line_program_, point_program_, spring_program_;
    /// The springs: spring_vertices_ (per drawn spring its end b with its colour,
    /// then every node) through spring_indices_ (per drawn spring node a's vertex,
    /// then its own), one indexed GL_LINES draw with a flat colour.
    gl::VertexArray spring_vao_;
    gl::Buffer spring_vertices_, spring_indices_;
    std::size_t spring_count_ = 0;  ///< springs drawn this frame
    gl::VertexArray surface_vao_, line_vao_, point_vao_, ground_vao_;
    gl::Buffer surface_vertices_, surface_indices_, line_vertices_, point_positions_, point_indices_,
        ground_vertices_;
    gl::VertexArray blob_vao_;  ///< draw_blob_shadow()'s triangles, in the surface's layout
    gl::Buffer blob_vertices_;
    std::vector<float> blob_scratch_;
    gl::VertexArray isolated_vao_;  ///< the surface's vertices with the isolated faces' indices
    gl::Buffer isolated_indices_;
    gl::VertexArray covering_vao_;  ///< the surface's vertices with covering_triangles_
    gl::Buffer covering_indices_;
    /// The triangles of a dense surface (more than kFlatShadowTriangles) that may
    /// cover a pixel's centre this frame (keep_covering_triangles); empty when
    /// the surface is drawn whole.
    std::vector<std::uint32_t> covering_triangles_;
    bool culling_ = false;  ///< this frame draws covering_triangles_
    /// Leaves out of covering_triangles_ every triangle whose box on the screen
    /// holds no pixel centre: it covers no pixel, so the picture is the same,
    /// and the rasteriser is spared setting it up (a dense mesh seen whole has
    /// many triangles smaller than a pixel).
    void keep_covering_triangles(std::span<const Vec3> positions, const Mat4& view_projection,
                                 const Viewport& viewport);
    std::vector<Pixel> window_;  ///< keep_covering_triangles(): nodes in the viewport's pixels
    gl::VertexArray rope_vao_, bead_vao_;
    std::vector<Collider> drawn_colliders_;  ///< what the collider buffers hold
    Vec3 drawn_collider_center_{};
    float drawn_collider_extent_ = 0.0f;
    std::vector<std::size_t> collider_first_index_;  ///< per collider, then the end
    gl::Buffer rope_vertices_, rope_indices_, bead_positions_;
    gl::VertexArray collider_vao_;
    gl::Buffer collider_vertices_, collider_indices_;
    gl::Texture texture_;
    std::string texture_error_;

    // One surface vertex per distinct (node, texcoord) pair of the faces.
    std::vector<std::uint32_t> vertex_node_;
    std::vector<TexCoord> vertex_uv_;
    std::vector<std::uint32_t> triangle_indices_;
    std::vector<float> surface_scratch_;
    struct LineVertex {
        Vec3 position;
        std::uint32_t rgba;
    };
    std::vector<LineVertex> line_scratch_;  ///< the selected springs' ends, drawn over everything
    std::vector<LineVertex> spring_vertex_scratch_;    ///< what spring_vertices_ holds
    std::vector<std::uint32_t> spring_index_scratch_;  ///< what spring_indices_ holds
    std::vector<std::uint32_t> index_scratch_;
    std::vector<LineVertex> ground_scratch_;  ///< floor tiles, then grid lines
    std::size_t ground_triangle_vertices_ = 0;
    Vec3 ground_center_{};
    float ground_extent_ = 0.0f;
    std::vector<float> rope_scratch_;              ///< position, normal, uv per tube vertex
    std::vector<std::uint32_t> rope_index_scratch_;
    std::size_t bead_count_ = 0;
    std::size_t node_count_ = 0;
    bool isolating_ = false;                        ///< this frame draws the isolated selection
    std::vector<std::uint8_t> isolated_;            ///< per node: 1 when isolate() kept it
    std::vector<std::uint8_t> isolated_springs_;    ///< per spring: 1 when selected
    std::vector<std::uint32_t> isolated_nodes_;     ///< those nodes
    std::vector<std::uint32_t> isolated_triangles_; ///< the surface indices of the faces kept
    std::vector<Pixel> screen_;  ///< the nodes from the viewport's centre, px (the springs' level of detail)
};

}  // namespace springkit::editor
