// springkit-editor — the scene renderer.
#include "render/scene_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "editing/collider_shapes.hpp"
#include "editing/document.hpp"
#include "render/texture.hpp"
#include "springkit/rope_mesh.hpp"

namespace springkit::editor {

namespace {

// The surface's programs are built from one source with TEXTURED 0 or 1: each
// draw runs a shader without the other case's varyings and branches, since a
// software rasteriser (llvmpipe) sets up every varying for every triangle and
// runs fragment code per 4x4 block of pixels.
constexpr const char* kSurfaceVertex = R"(
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
uniform mat4 u_view_projection;
uniform mat4 u_model;
out vec3 v_normal;
#if TEXTURED
out vec2 v_uv;
#endif
void main() {
    v_normal = a_normal;
#if TEXTURED
    v_uv = a_uv;
#endif
    gl_Position = u_view_projection * (u_model * vec4(a_position, 1.0));
}
)";

// Lambert lighting from one directional light plus ambient, two-sided: a cloth is
// seen from both sides, so a back face is lit with its normal flipped.
constexpr const char* kSurfaceFragment = R"(
in vec3 v_normal;
#if TEXTURED
in vec2 v_uv;
uniform sampler2D u_texture;
#endif
uniform vec3 u_light;
uniform int u_lighting;
uniform vec4 u_color;
out vec4 frag;
void main() {
#if TEXTURED
    vec3 base = texture(u_texture, v_uv).rgb;
    float alpha = 1.0;
#else
    vec3 base = u_color.rgb;
    float alpha = u_color.a;
#endif
    if (u_lighting == 0) { frag = vec4(base, alpha); return; }
    vec3 n = dot(v_normal, v_normal) > 1e-12 ? normalize(v_normal) : vec3(0.0, 1.0, 0.0);
    if (!gl_FrontFacing) n = -n;
    float diffuse = max(dot(n, u_light), 0.0);
    frag = vec4(base * (0.2 + 0.8 * diffuse), alpha);
}
)";

// The planar shadow: the surface's positions flattened by u_model, painted the
// floor's own colour (faded towards its rim as draw_ground fades the tiles)
// darkened, opaque: overlapping shadow triangles then cannot darken a pixel
// twice, with no stencil or blending. Only the floor position is interpolated.
constexpr const char* kShadowVertex = R"(#version 330 core
layout(location = 0) in vec3 a_position;
uniform mat4 u_view_projection;
uniform mat4 u_model;
out vec2 v_floor;
void main() {
    vec4 world = u_model * vec4(a_position, 1.0);
    v_floor = world.xz / world.w;
    gl_Position = u_view_projection * world;
}
)";

constexpr const char* kShadowFragment = R"(#version 330 core
in vec2 v_floor;
uniform vec3 u_background;
uniform vec3 u_floor_color;
uniform vec3 u_floor_center;
uniform float u_floor_extent;
out vec4 frag;
void main() {
    float t = clamp((length(v_floor - u_floor_center.xz) - 0.45 * u_floor_extent) / (0.55 * u_floor_extent),
                    0.0, 1.0);
    frag = vec4(mix(u_background, u_floor_color, 1.0 - t * t * (3.0 - 2.0 * t)) * 0.55, 1.0);
}
)";

gl::Program make_surface_program(bool textured) {
    const std::string head = std::string("#version 330 core\n#define TEXTURED ") + (textured ? "1" : "0") + "\n";
    return gl::Program(gl::make_program(textured ? "textured surface" : "surface", (head + kSurfaceVertex).c_str(),
                                        (head + kSurfaceFragment).c_str()));
}

constexpr const char* kLineVertex = R"(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color;
uniform mat4 u_view_projection;
uniform mat4 u_model;
uniform float u_point_size;
out vec4 v_color;
void main() {
    v_color = a_color;
    gl_PointSize = u_point_size;
    // Two matrix-vector products, not a matrix product per vertex.
    gl_Position = u_view_projection * (u_model * vec4(a_position, 1.0));
}
)";

// Lines and the floor: the colour as it comes. Points (nodes, anchors, beads):
// round, the square's corners discarded. Apart, so that the lines and the floor,
// which cover most of the viewport, run a shader without discard (a software
// rasteriser can then test depth before shading and skip the per-pixel branch).
constexpr const char* kLineFragment = R"(#version 330 core
in vec4 v_color;
out vec4 frag;
void main() {
    frag = v_color;
}
)";

// Springs: one indexed GL_LINES draw in which spring i's second end is its
// own vertex i (the position of its node b and its colour) and its first end
// the shared vertex of node a, after the springs' own. The colour is flat,
// taken from the line's last vertex (GL's provoking vertex), so a node's
// vertex serves all its springs and llvmpipe shades it once per batch of the
// indexed draw, not once per line end. The position is the line program's
// expression, so the lines fall on the same pixels.
constexpr const char* kSpringVertex = R"(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color;
uniform mat4 u_view_projection;
uniform mat4 u_model;
flat out vec4 v_color;
void main() {
    v_color = a_color;
    gl_Position = u_view_projection * (u_model * vec4(a_position, 1.0));
}
)";

constexpr const char* kSpringFragment = R"(#version 330 core
flat in vec4 v_color;
out vec4 frag;
void main() {
    frag = v_color;
}
)";

constexpr const char* kPointFragment = R"(#version 330 core
in vec4 v_color;
out vec4 frag;
void main() {
    if (length(gl_PointCoord - vec2(0.5)) > 0.5) discard;
    frag = v_color;
}
)";

constexpr float kBackground[3] = {0.16f, 0.17f, 0.19f};
// With more springs than this (and springs shown), render() flushes the scene
// to llvmpipe's threads twice more: after the shadow, and halfway through the
// springs (every frame with springs shown flushes before their upload).
constexpr std::size_t kSplitSprings = 20000;
// Surfaces with more triangles than this cast an ellipse (draw_blob_shadow).
constexpr std::size_t kFlatShadowTriangles = 20000;
constexpr float kSurfaceColor[4] = {0.82f, 0.58f, 0.38f, 1.0f};
constexpr float kStrainViewSurface[4] = {0.42f, 0.43f, 0.45f, 1.0f};  // grey under the strain colours
constexpr float kTileColor[3] = {0.34f, 0.35f, 0.37f};   // the floor
constexpr float kGridColor[3] = {0.48f, 0.49f, 0.52f};   // its grid lines
constexpr float kShadowColor[4] = {0.19f, 0.19f, 0.2f, 1.0f};  // shadows of springs (thin lines)
constexpr float kNodeColor[4] = {0.85f, 0.87f, 0.9f, 1.0f};
constexpr float kAnchorColor[4] = {1.0f, 0.55f, 0.1f, 1.0f};
constexpr float kSelectedColor[4] = {1.0f, 0.9f, 0.2f, 1.0f};
constexpr float kActiveColor[4] = {1.0f, 1.0f, 1.0f, 1.0f};
constexpr float kRopeColor[4] = {0.78f, 0.74f, 0.62f, 1.0f};
constexpr float kBeadColor[4] = {0.35f, 0.55f, 0.95f, 1.0f};
// Colliders: a cool blue-grey apart from the warm model; the selected one yellow
// like the selection; planes see-through so the floor grid shows under them.
constexpr float kColliderColor[4] = {0.42f, 0.56f, 0.72f, 1.0f};
constexpr float kSelectedColliderColor[4] = {0.95f, 0.85f, 0.3f, 1.0f};
constexpr float kPlaneAlpha = 0.45f;

// Vertex layouts, each bound to its vertex array (and index buffer) once.
void bind_surface_layout(GLuint vao, GLuint vertices, GLuint indices) {
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vertices);
    const GLsizei stride = 8 * sizeof(float);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(3 * sizeof(float)));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(6 * sizeof(float)));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices);
}

// A position (3 floats at offset 0) and an RGBA8 colour at `color_offset`.
void bind_line_layout(GLuint vao, GLuint vertices, GLsizei stride, std::size_t color_offset) {
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vertices);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, reinterpret_cast<void*>(color_offset));
}

void bind_position_layout(GLuint vao, GLuint positions) {
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, positions);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(Vec3), nullptr);
}

std::uint32_t pack_rgba(float r, float g, float b, float a) {
    auto byte = [](float v) { return static_cast<std::uint32_t>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f); };
    return byte(r) | byte(g) << 8 | byte(b) << 16 | byte(a) << 24;
}

std::uint32_t strain_color(float strain, float full) {
    const Rgb c = strain_rgb(strain, full);
    return pack_rgba(c.r, c.g, c.b, 1.0f);
}

void set_matrix(GLuint program, const char* name, const Mat4& m) {
    glUniformMatrix4fv(glGetUniformLocation(program, name), 1, GL_FALSE, m.m);
}

}  // namespace

Vec3 light_direction(const ViewOptions& view) {
    return {std::cos(view.light_pitch) * std::sin(view.light_yaw), std::sin(view.light_pitch),
            std::cos(view.light_pitch) * std::cos(view.light_yaw)};
}

SceneRenderer::SceneRenderer()
    : surface_program_(make_surface_program(false)),
      textured_program_(make_surface_program(true)),
      shadow_program_(gl::make_program("shadow", kShadowVertex, kShadowFragment)),
      line_program_(gl::make_program("lines", kLineVertex, kLineFragment)),
      point_program_(gl::make_program("points", kLineVertex, kPointFragment)),
      spring_program_(gl::make_program("springs", kSpringVertex, kSpringFragment)),
      spring_vao_(gl::make_vertex_array()),
      spring_vertices_(gl::make_buffer()),
      spring_indices_(gl::make_buffer()),
      surface_vao_(gl::make_vertex_array()),
      line_vao_(gl::make_vertex_array()),
      point_vao_(gl::make_vertex_array()),
      ground_vao_(gl::make_vertex_array()),
      surface_vertices_(gl::make_buffer()),
      surface_indices_(gl::make_buffer()),
      line_vertices_(gl::make_buffer()),
      point_positions_(gl::make_buffer()),
      point_indices_(gl::make_buffer()),
      ground_vertices_(gl::make_buffer()),
      blob_vao_(gl::make_vertex_array()),
      blob_vertices_(gl::make_buffer()),
      isolated_vao_(gl::make_vertex_array()),
      isolated_indices_(gl::make_buffer()),
      covering_vao_(gl::make_vertex_array()),
      covering_indices_(gl::make_buffer()),
      rope_vao_(gl::make_vertex_array()),
      bead_vao_(gl::make_vertex_array()),
      rope_vertices_(gl::make_buffer()),
      rope_indices_(gl::make_buffer()),
      bead_positions_(gl::make_buffer()),
      collider_vao_(gl::make_vertex_array()),
      collider_vertices_(gl::make_buffer()),
      collider_indices_(gl::make_buffer()) {
    // Surface and rope tubes: position, normal, uv interleaved (8 floats).
    bind_surface_layout(surface_vao_.get(), surface_vertices_.get(), surface_indices_.get());
    bind_surface_layout(rope_vao_.get(), rope_vertices_.get(), rope_indices_.get());
    bind_surface_layout(isolated_vao_.get(), surface_vertices_.get(), isolated_indices_.get());
    bind_surface_layout(covering_vao_.get(), surface_vertices_.get(), covering_indices_.get());
    bind_surface_layout(blob_vao_.get(), blob_vertices_.get(), 0);
    bind_surface_layout(collider_vao_.get(), collider_vertices_.get(), collider_indices_.get());
    // Springs and the floor (vertex-coloured tiles and grid lines): position + packed colour.
    bind_line_layout(line_vao_.get(), line_vertices_.get(), sizeof(LineVertex), offsetof(LineVertex, rgba));
    bind_line_layout(ground_vao_.get(), ground_vertices_.get(), sizeof(LineVertex), offsetof(LineVertex, rgba));
    // Points: the node positions, drawn whole or through an index list; their colour
    // is the constant attribute 1.
    bind_position_layout(point_vao_.get(), point_positions_.get());
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, point_indices_.get());
    // Springs: their own vertices and the nodes', through an index list.
    bind_line_layout(spring_vao_.get(), spring_vertices_.get(), sizeof(LineVertex), offsetof(LineVertex, rgba));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, spring_indices_.get());
    // Beads: points at the simulation's bead positions.
    bind_position_layout(bead_vao_.get(), bead_positions_.get());
    glBindVertexArray(0);
}

SceneRenderer::~SceneRenderer() {
    if (spring_filler_.joinable()) spring_filler_.join();
}

void SceneRenderer::set_model(const Model& model, const std::filesystem::path& model_dir) {
    node_count_ = model.node_count();
    vertex_node_.clear();
    vertex_uv_.clear();
    triangle_indices_.clear();
    const bool has_uv = !model.texcoords.empty();
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> vertex_of;
    for (const Face& f : model.faces) {
        for (int c = 0; c < 3; ++c) {
            const std::uint32_t uv = has_uv ? f.texcoord[c] : 0;
            auto [it, added] = vertex_of.try_emplace({f.node[c], uv}, static_cast<std::uint32_t>(vertex_node_.size()));
            if (added) {
                vertex_node_.push_back(f.node[c]);
                vertex_uv_.push_back(has_uv && uv < model.texcoords.size() ? model.texcoords[uv] : TexCoord{});
            }
            triangle_indices_.push_back(it->second);
        }
    }
    glBindVertexArray(surface_vao_.get());
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, surface_indices_.get());
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(triangle_indices_.size() * sizeof(std::uint32_t)),
                 triangle_indices_.data(), GL_STATIC_DRAW);
    glBindVertexArray(0);

    texture_.reset();
    texture_error_.clear();
    if (!model.texture.empty()) {
        const std::filesystem::path path = std::filesystem::path(model.texture).is_absolute()
                                               ? std::filesystem::path(model.texture)
                                               : model_dir / model.texture;
        try {
            texture_ = load_texture(path);
        } catch (const std::exception& e) {
            texture_error_ = e.what();
        }
    }
}

void SceneRenderer::project_nodes(std::span<const Vec3> positions, const Mat4& view_projection, Pixel half,
                                  Pixel offset, std::vector<Pixel>& out) {
    out.resize(positions.size());
    const float* m = view_projection.m;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Vec3 p = positions[i];
        const float w = m[3] * p.x + m[7] * p.y + m[11] * p.z + m[15];
        if (!(w > 1e-6f)) {
            out[i] = {std::numeric_limits<float>::quiet_NaN(), 0.0f};
            continue;
        }
        const float inv = 1.0f / w;
        out[i] = {(m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12]) * inv * half.x + offset.x,
                  (m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13]) * inv * half.y + offset.y};
    }
}

void SceneRenderer::keep_covering_triangles(std::span<const Vec3> positions, const Mat4& view_projection,
                                            const Viewport& viewport) {
    // Where GL puts a vertex, from the viewport's corner (render() gives GL the
    // viewport's integer corner and size): (ndc + 1) size / 2. The margin is far
    // more than the rounding of this and the rasteriser's transforms (about
    // 1e-4 px) and its snapping to 1/256 px, so no triangle that covers a pixel
    // is left out.
    constexpr float kMargin = 1.0f / 32.0f;
    const Pixel half{0.5f * static_cast<float>(static_cast<GLsizei>(viewport.width)),
                     0.5f * static_cast<float>(static_cast<GLsizei>(viewport.height))};
    project_nodes(positions, view_projection, half, half, window_);
    covering_triangles_.clear();
    for (std::size_t t = 0; t + 2 < triangle_indices_.size(); t += 3) {
        const std::uint32_t* v = &triangle_indices_[t];
        const Pixel a = window_[vertex_node_[v[0]]], b = window_[vertex_node_[v[1]]], c = window_[vertex_node_[v[2]]];
        const float xs[3] = {a.x, b.x, c.x}, ys[3] = {a.y, b.y, c.y};
        if (std::isnan(a.x) || std::isnan(b.x) || std::isnan(c.x) || may_cover_pixel(xs, ys, kMargin))
            covering_triangles_.insert(covering_triangles_.end(), v, v + 3);
    }
    glBindVertexArray(covering_vao_.get());
    gl::update(GL_ELEMENT_ARRAY_BUFFER, covering_indices_.get(), covering_triangles_.data(),
               covering_triangles_.size() * sizeof(std::uint32_t));
    glBindVertexArray(0);
}

void SceneRenderer::start_springs(const Simulation& sim, const ViewOptions& view, const Selection& selection,
                                  const Mat4& view_projection, const Viewport& viewport) {
    const Model& model = sim.model();
    const auto positions = sim.positions();
    line_scratch_.clear();
    spring_index_scratch_.clear();
    spring_vertex_scratch_.clear();
    springs_ready_ = false;
    const bool springs_cast_shadow = view.ground && view.shadow && (model.faces.empty() || !view.surface);
    const bool springs = view.springs || springs_cast_shadow;
    // A copy of the positions: the frame's steps may change them while the
    // draw calls go out.
    if (springs || !selection.springs().empty()) spring_positions_.assign(positions.begin(), positions.end());
    if (!springs) return;
    // The worker writes into storage sized here, so that it allocates nothing.
    screen_.resize(positions.size());
    spring_index_scratch_.reserve(model.springs.size() * 2);
    spring_vertex_scratch_.reserve(model.springs.size() + positions.size());
    spring_filler_ = std::thread([this, &model, view, view_projection, viewport] {
        fill_springs(model, view, view_projection, viewport);
    });
}

void SceneRenderer::fill_springs(const Model& model, const ViewOptions& view, const Mat4& view_projection,
                                 const Viewport& viewport) {
    const std::span<const Vec3> positions = spring_positions_;
    std::uint32_t class_color[kSpringClasses];
    for (std::size_t c = 0; c < kSpringClasses; ++c) {
        const Rgb rgb = spring_class_rgb(static_cast<SpringClass>(c));
        class_color[c] = pack_rgba(rgb.r, rgb.g, rgb.b, 1.0f);
    }
    // Level of detail: a spring whose two ends fall within a pixel of each
    // other covers at most the pixel its nodes do, and a dense mesh seen whole
    // has many; they are left out (NaN, behind the camera, never compares
    // below 1, so those are drawn and clipped).
    project_nodes(positions, view_projection, {0.5f * viewport.width, 0.5f * viewport.height}, {0.0f, 0.0f},
                  screen_);
    for (std::uint32_t i = 0; i < model.springs.size(); ++i) {
        const Spring& s = model.springs[i];
        if (!drawn(s, i, view)) continue;
        const Pixel pa = screen_[s.a], pb = screen_[s.b];
        if (std::abs(pa.x - pb.x) < 1.0f && std::abs(pa.y - pb.y) < 1.0f) continue;
        std::uint32_t color;
        if (view.colour_by_class)
            color = class_color[static_cast<std::size_t>(spring_class(s))];
        else
            color = s.kind == SpringKind::rope && spring_strain(s, positions) < 0
                        ? strain_color(0, view.strain_full)  // slack rope
                        : strain_color(spring_strain(s, positions), view.strain_full);
        spring_index_scratch_.push_back(s.a);  // a node's vertex; numbered below
        spring_index_scratch_.push_back(static_cast<std::uint32_t>(spring_vertex_scratch_.size()));
        spring_vertex_scratch_.push_back({positions[s.b], color});
    }
    const auto nodes_from = static_cast<std::uint32_t>(spring_vertex_scratch_.size());
    for (std::size_t i = 0; i < spring_index_scratch_.size(); i += 2) spring_index_scratch_[i] += nodes_from;
    for (const Vec3& p : positions) spring_vertex_scratch_.push_back({p, 0});
}

void SceneRenderer::finish_springs(const Model& model, const Selection& selection) {
    if (springs_ready_) return;
    springs_ready_ = true;
    if (spring_filler_.joinable()) spring_filler_.join();
    spring_count_ = spring_index_scratch_.size() / 2;
    const std::uint32_t selected = pack_rgba(kSelectedColor[0], kSelectedColor[1], kSelectedColor[2], 1.0f);
    for (std::uint32_t si : selection.springs()) {
        if (si >= model.springs.size()) continue;
        line_scratch_.push_back({spring_positions_[model.springs[si].a], selected});
        line_scratch_.push_back({spring_positions_[model.springs[si].b], selected});
    }
    if (!line_scratch_.empty())
        gl::update(GL_ARRAY_BUFFER, line_vertices_.get(), line_scratch_.data(),
                   line_scratch_.size() * sizeof(LineVertex));
    if (spring_count_ == 0) return;
    gl::update(GL_ARRAY_BUFFER, spring_vertices_.get(), spring_vertex_scratch_.data(),
               spring_vertex_scratch_.size() * sizeof(LineVertex));
    glBindVertexArray(spring_vao_.get());
    gl::update(GL_ELEMENT_ARRAY_BUFFER, spring_indices_.get(), spring_index_scratch_.data(),
               spring_index_scratch_.size() * sizeof(std::uint32_t));
    glBindVertexArray(0);
}

void SceneRenderer::upload_frame(const Simulation& sim, const ViewOptions& view, const Selection& selection,
                                 const Mat4& view_projection, const Viewport& viewport) {
    const auto positions = sim.positions();
    const auto normals = sim.normals();
    surface_scratch_.resize(vertex_node_.size() * 8);
    for (std::size_t v = 0; v < vertex_node_.size(); ++v) {
        float* out = &surface_scratch_[v * 8];
        const Vec3& p = positions[vertex_node_[v]];
        const Vec3 n = normals.empty() ? Vec3{0, 1, 0} : normals[vertex_node_[v]];
        out[0] = p.x, out[1] = p.y, out[2] = p.z;
        out[3] = n.x, out[4] = n.y, out[5] = n.z;
        out[6] = vertex_uv_[v].u, out[7] = vertex_uv_[v].v;
    }
    gl::update(GL_ARRAY_BUFFER, surface_vertices_.get(), surface_scratch_.data(),
               surface_scratch_.size() * sizeof(float));
    culling_ = view.surface && !isolating_ && triangle_indices_.size() / 3 > kFlatShadowTriangles;
    if (culling_) keep_covering_triangles(positions, view_projection, viewport);

    const Model& model = sim.model();
    start_springs(sim, view, selection, view_projection, viewport);
    // The points' positions, when some point is drawn.
    if (view.nodes || isolating_ || !selection.nodes().empty() || (view.anchors && !model.anchors.empty()))
        gl::update(GL_ARRAY_BUFFER, point_positions_.get(), positions.data(), positions.size() * sizeof(Vec3));
}

void SceneRenderer::draw(const Simulation& sim, const OrbitCamera& camera, const Viewport& viewport,
                         int framebuffer_height, const ViewOptions& view, const Selection& selection,
                         std::span<const Collider> colliders, std::optional<std::size_t> selected_collider) {
    prepare(sim, camera, viewport, view, selection);
    render(sim.model(), camera, viewport, framebuffer_height, view, selection, colliders, selected_collider);
}

void SceneRenderer::prepare(const Simulation& sim, const OrbitCamera& camera, const Viewport& viewport,
                            const ViewOptions& view, const Selection& selection) {
    if (spring_filler_.joinable()) spring_filler_.join();  // a prepare() without its render()
    const Model& model = sim.model();
    if (model.node_count() == 0) return;
    isolating_ = view.isolate_selection;
    if (isolating_) isolate(model, selection);
    upload_frame(sim, view, selection, camera.view_projection(viewport), viewport);
    if (view.ropes) upload_ropes(sim);
    body_bounds_ = sim.bounds();
}

void SceneRenderer::render(const Model& model, const OrbitCamera& camera, const Viewport& viewport,
                           int framebuffer_height, const ViewOptions& view, const Selection& selection,
                           std::span<const Collider> colliders, std::optional<std::size_t> selected_collider) {
    const auto x = static_cast<GLint>(viewport.x);
    const auto y = static_cast<GLint>(static_cast<float>(framebuffer_height) - viewport.y - viewport.height);
    const auto w = static_cast<GLsizei>(viewport.width), h = static_cast<GLsizei>(viewport.height);
    glViewport(x, y, w, h);
    glEnable(GL_SCISSOR_TEST);
    glScissor(x, y, w, h);
    glClearColor(kBackground[0], kBackground[1], kBackground[2], 1.0f);
    glDepthMask(GL_TRUE);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    if (model.node_count() == 0) return;

    const Mat4 view_projection = camera.view_projection(viewport);
    const Mat4 identity;
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    // Everything the scene draws is opaque: no blending, which a software
    // rasteriser (llvmpipe) pays for with a read and a mix of every pixel.
    glDisable(GL_BLEND);
    glEnable(GL_PROGRAM_POINT_SIZE);

    const Bounds box = bounds(model);
    const float diagonal = std::max(box.diagonal(), 0.1f);
    const float ground_y = floor_height(model);
    const bool has_surface = !model.faces.empty() && view.surface;
    if (view.ground) {
        draw_ground(view_projection, model, ground_y, 2.5f * diagonal);
        if (view.shadow) {
            // Flatten the model onto the floor along the light (Tunca's rope demo).
            const Mat4 shadow = planar_shadow({0, ground_y + 0.002f * diagonal, 0}, {0, 1, 0}, light_direction(view));
            // Drawn before anything writes depth, so a depth test would pass
            // everywhere: without it llvmpipe neither reads nor tests depth.
            glDisable(GL_DEPTH_TEST);
            glDepthMask(GL_FALSE);
            const std::size_t triangles = isolating_ ? isolated_triangles_.size() / 3 : triangle_indices_.size() / 3;
            if (has_surface && triangles > kFlatShadowTriangles)
                draw_blob_shadow(view_projection, shadow, body_bounds_, view);
            else if (has_surface)
                draw_surface(view_projection, shadow, view, true);
            else {
                finish_springs(model, selection);
                draw_springs(view_projection, shadow, true);
            }
            if (view.ropes) draw_ropes(view_projection, shadow, view, true);
            glDepthMask(GL_TRUE);
            glEnable(GL_DEPTH_TEST);
        }
    }
    // llvmpipe bins every primitive on this thread and rasterises on its own
    // threads only once the scene is flushed (at the swap, without a flush).
    // With many springs to send, the flushes here let those threads rasterise
    // the floor and shadow while this one sends the surface, then the surface
    // while it bins the first half of the lines, then that half while it bins
    // the rest, the nodes and the panels; what is left after the swap is the
    // second half. Without springs there is little to overlap, and a scene
    // more costs more than it saves.
    const bool many_springs = view.springs && model.springs.size() > kSplitSprings;
    if (many_springs) glFlush();

    if (view.colliders && !colliders.empty()) {
        const Vec3 centre{(box.min.x + box.max.x) * 0.5f, ground_y, (box.min.z + box.max.z) * 0.5f};
        draw_colliders(view_projection, view, colliders, selected_collider, centre, 2.5f * diagonal);
    }
    if (has_surface) {
        // Push the surface back a little so springs on it stay visible.
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(1.0f, 1.0f);
        draw_surface(view_projection, identity, view, false);
        glDisable(GL_POLYGON_OFFSET_FILL);
    }

    // Flushed before waiting for the springs' worker and uploading its output.
    if (view.springs && !model.springs.empty()) glFlush();
    // The springs' vertices, filled by a worker while the calls above went out.
    finish_springs(model, selection);
    if (view.ropes) draw_ropes(view_projection, identity, view, false);
    // X-ray: the springs and nodes show through the surface (and the ropes' tubes).
    if (view.xray) glDisable(GL_DEPTH_TEST);
    if (view.springs) draw_springs(view_projection, identity, false, many_springs);

    if (view.nodes && isolating_) {
        draw_points(view_projection, isolated_nodes_, 4.0f, kNodeColor);
    } else if (view.nodes) {
        glBindVertexArray(point_vao_.get());
        glUseProgram(point_program_.get());
        set_matrix(point_program_.get(), "u_view_projection", view_projection);
        set_matrix(point_program_.get(), "u_model", identity);
        glUniform1f(glGetUniformLocation(point_program_.get(), "u_point_size"), node_count_ > 20000 ? 2.0f : 4.0f);
        glVertexAttrib4fv(1, kNodeColor);
        glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(model.node_count()));
    }

    // Highlights draw over everything: selected springs, anchors, selected nodes.
    glDisable(GL_DEPTH_TEST);
    if (!line_scratch_.empty()) {
        glBindVertexArray(line_vao_.get());
        glUseProgram(line_program_.get());
        set_matrix(line_program_.get(), "u_view_projection", view_projection);
        set_matrix(line_program_.get(), "u_model", identity);
        glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(line_scratch_.size()));
    }
    // A selected point wears a yellow ring around what it is: an anchor stays an
    // orange dot, a free node a light one, the active node (the last picked) a
    // white one; unselected points have no ring.
    draw_points(view_projection, selection.nodes(), 11.0f, kSelectedColor);
    index_scratch_.clear();
    if (view.anchors)
        for (const Anchor& a : model.anchors)
            if (!isolating_ || isolated_[a.node]) index_scratch_.push_back(a.node);
    draw_points(view_projection, index_scratch_, 8.0f, kAnchorColor);
    const auto is_anchor = [&](std::uint32_t n) {
        return std::find(index_scratch_.begin(), index_scratch_.end(), n) != index_scratch_.end();
    };
    std::vector<std::uint32_t> free_selected;
    for (std::uint32_t n : selection.nodes())
        if (!is_anchor(n)) free_selected.push_back(n);
    draw_points(view_projection, free_selected, 5.0f, kNodeColor);
    if (auto active = selection.active_node(); active && *active < model.node_count() && !is_anchor(*active)) {
        const std::uint32_t one[] = {*active};
        draw_points(view_projection, one, 5.0f, kActiveColor);
    }
    glBindVertexArray(0);
    glDisable(GL_BLEND);
    glDisable(GL_PROGRAM_POINT_SIZE);
}

void SceneRenderer::draw_ground(const Mat4& view_projection, const Model& model, float ground_y, float extent) {
    const Bounds box = bounds(model);
    const Vec3 c{(box.min.x + box.max.x) * 0.5f, ground_y, (box.min.z + box.max.z) * 0.5f};
    if (ground_scratch_.empty() || !(c == ground_center_) || extent != ground_extent_) {
        // A grid that fades into the background towards its edge, with the colours
        // computed per vertex: the fragments do nothing but take them, which matters
        // for software rasterisers (llvmpipe) filling most of the viewport with it.
        ground_center_ = c;
        ground_extent_ = extent;
        ground_scratch_.clear();
        auto color_at = [&](float x, float z, const float rgb[3]) {
            const float r = std::sqrt((x - c.x) * (x - c.x) + (z - c.z) * (z - c.z));
            const float t = std::clamp((r - 0.45f * extent) / (0.55f * extent), 0.0f, 1.0f);
            const float fade = 1.0f - t * t * (3.0f - 2.0f * t);  // 1 - smoothstep
            return pack_rgba(kBackground[0] + (rgb[0] - kBackground[0]) * fade,
                             kBackground[1] + (rgb[1] - kBackground[1]) * fade,
                             kBackground[2] + (rgb[2] - kBackground[2]) * fade, 1.0f);
        };
        constexpr int kTiles = 24;
        const float step = 2.0f * extent / kTiles;
        auto at = [&](int i, int j) {
            const float x = c.x - extent + step * static_cast<float>(i), z = c.z - extent + step * static_cast<float>(j);
            return LineVertex{{x, c.y, z}, color_at(x, z, kTileColor)};
        };
        for (int i = 0; i < kTiles; ++i)
            for (int j = 0; j < kTiles; ++j)
                for (auto [di, dj] : {std::pair{0, 0}, {1, 0}, {1, 1}, {0, 0}, {1, 1}, {0, 1}})
                    ground_scratch_.push_back(at(i + di, j + dj));
        ground_triangle_vertices_ = ground_scratch_.size();
        // Grid lines every power of ten metres near a tenth of the model's size,
        // split into pieces so their colour can fade along them.
        const float cell = std::pow(10.0f, std::round(std::log10(std::max(extent * 0.08f, 1e-3f))));
        const float first_x = std::ceil((c.x - extent) / cell) * cell, first_z = std::ceil((c.z - extent) / cell) * cell;
        for (int axis = 0; axis < 2; ++axis) {
            const float first = axis == 0 ? first_x : first_z;
            for (int k = 0; k < 400; ++k) {
                const float u = first + cell * static_cast<float>(k);
                if (u > (axis == 0 ? c.x : c.z) + extent) break;
                for (int piece = 0; piece < kTiles; ++piece)
                    for (int end = 0; end < 2; ++end) {
                        const float v = -extent + step * static_cast<float>(piece + end);
                        const float x = axis == 0 ? u : c.x + v, z = axis == 0 ? c.z + v : u;
                        ground_scratch_.push_back({{x, c.y, z}, color_at(x, z, kGridColor)});
                    }
            }
        }
        gl::upload(GL_ARRAY_BUFFER, ground_vertices_.get(), ground_scratch_.data(),
                   ground_scratch_.size() * sizeof(LineVertex));
    }
    // Under everything, without depth: the floor never hides the model.
    glDisable(GL_DEPTH_TEST);
    glBindVertexArray(ground_vao_.get());
    const GLuint program = line_program_.get();
    glUseProgram(program);
    set_matrix(program, "u_view_projection", view_projection);
    set_matrix(program, "u_model", Mat4{});
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(ground_triangle_vertices_));
    glDrawArrays(GL_LINES, static_cast<GLint>(ground_triangle_vertices_),
                 static_cast<GLsizei>(ground_scratch_.size() - ground_triangle_vertices_));
    glEnable(GL_DEPTH_TEST);
}

void SceneRenderer::draw_colliders(const Mat4& view_projection, const ViewOptions& view,
                                   std::span<const Collider> colliders, std::optional<std::size_t> selected,
                                   Vec3 center, float extent) {
    const bool same = drawn_colliders_.size() == colliders.size() && center == drawn_collider_center_ &&
                      extent == drawn_collider_extent_ &&
                      std::equal(colliders.begin(), colliders.end(), drawn_colliders_.begin(), same_collider);
    if (!same) {
        drawn_colliders_.assign(colliders.begin(), colliders.end());
        drawn_collider_center_ = center;
        drawn_collider_extent_ = extent;
        std::vector<float> vertices;
        std::vector<std::uint32_t> indices;
        collider_first_index_.clear();
        for (const Collider& c : colliders) {
            collider_first_index_.push_back(indices.size());
            const ColliderMesh mesh = collider_mesh(c, center, extent);
            const auto base = static_cast<std::uint32_t>(vertices.size() / 8);
            for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
                const Vec3 &p = mesh.positions[v], &n = mesh.normals[v];
                vertices.insert(vertices.end(), {p.x, p.y, p.z, n.x, n.y, n.z, 0.0f, 0.0f});
            }
            for (std::uint32_t i : mesh.indices) indices.push_back(base + i);
        }
        collider_first_index_.push_back(indices.size());
        gl::upload(GL_ARRAY_BUFFER, collider_vertices_.get(), vertices.data(), vertices.size() * sizeof(float));
        glBindVertexArray(collider_vao_.get());
        gl::upload(GL_ELEMENT_ARRAY_BUFFER, collider_indices_.get(), indices.data(), indices.size() * sizeof(std::uint32_t));
    }
    const GLuint program = use_surface_program(collider_vao_.get(), view_projection, Mat4{}, view, false);
    // Pushed back further than the surface (draw()): a collider touching the model
    // (a cloth lying on a box) shows the model where both are at one depth.
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(2.0f, 2.0f);
    // Solids first; the see-through planes last, without writing depth.
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1) glDepthMask(GL_FALSE);
        for (std::size_t i = 0; i < colliders.size(); ++i) {
            const bool plane = colliders[i].shape == ColliderShape::plane;
            if (plane != (pass == 1)) continue;
            float color[4];
            std::copy_n(selected == i ? kSelectedColliderColor : kColliderColor, 4, color);
            if (plane) color[3] = kPlaneAlpha;
            glUniform4fv(glGetUniformLocation(program, "u_color"), 1, color);
            const std::size_t first = collider_first_index_[i], count = collider_first_index_[i + 1] - first;
            glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(count), GL_UNSIGNED_INT,
                           reinterpret_cast<const void*>(first * sizeof(std::uint32_t)));
        }
    }
    glDepthMask(GL_TRUE);
    glDisable(GL_POLYGON_OFFSET_FILL);
}

GLuint SceneRenderer::use_surface_program(GLuint vao, const Mat4& view_projection, const Mat4& model_matrix,
                                          const ViewOptions& view, bool shadow, bool textured) const {
    const GLuint program = shadow ? shadow_program_.get() : textured ? textured_program_.get() : surface_program_.get();
    glUseProgram(program);
    glBindVertexArray(vao);
    set_matrix(program, "u_view_projection", view_projection);
    set_matrix(program, "u_model", model_matrix);
    if (shadow) {
        set_shadow_uniforms(program);
    } else {
        const Vec3 light = light_direction(view);
        glUniform3f(glGetUniformLocation(program, "u_light"), light.x, light.y, light.z);
        glUniform1i(glGetUniformLocation(program, "u_lighting"), view.lighting ? 1 : 0);
    }
    return program;
}

void SceneRenderer::set_shadow_uniforms(GLuint program) const {
    glUniform3fv(glGetUniformLocation(program, "u_background"), 1, kBackground);
    glUniform3fv(glGetUniformLocation(program, "u_floor_color"), 1, kTileColor);
    glUniform3f(glGetUniformLocation(program, "u_floor_center"), ground_center_.x, ground_center_.y, ground_center_.z);
    glUniform1f(glGetUniformLocation(program, "u_floor_extent"), ground_extent_);
}

void SceneRenderer::isolate(const Model& model, const Selection& selection) {
    isolated_.assign(model.node_count(), 0);
    isolated_springs_.assign(model.springs.size(), 0);
    for (std::uint32_t n : selection.nodes())
        if (n < isolated_.size()) isolated_[n] = 1;
    for (std::uint32_t i : selection.springs()) {
        if (i >= model.springs.size()) continue;
        isolated_springs_[i] = 1;
        isolated_[model.springs[i].a] = isolated_[model.springs[i].b] = 1;
    }
    isolated_nodes_.clear();
    for (std::uint32_t n = 0; n < isolated_.size(); ++n)
        if (isolated_[n]) isolated_nodes_.push_back(n);
    isolated_triangles_.clear();
    for (std::size_t t = 0; t + 2 < triangle_indices_.size(); t += 3) {
        const std::uint32_t* v = &triangle_indices_[t];
        if (isolated_[vertex_node_[v[0]]] && isolated_[vertex_node_[v[1]]] && isolated_[vertex_node_[v[2]]])
            isolated_triangles_.insert(isolated_triangles_.end(), v, v + 3);
    }
    glBindVertexArray(isolated_vao_.get());
    gl::upload(GL_ELEMENT_ARRAY_BUFFER, isolated_indices_.get(), isolated_triangles_.data(),
               isolated_triangles_.size() * sizeof(std::uint32_t));
    glBindVertexArray(0);
}

void SceneRenderer::draw_surface(const Mat4& view_projection, const Mat4& model_matrix, const ViewOptions& view,
                                 bool shadow) {
    // The flattened shadow covers other pixels than the surface: it draws every triangle.
    const bool covering = culling_ && !shadow;
    const std::size_t indices = isolating_ ? isolated_triangles_.size()
                                : covering ? covering_triangles_.size()
                                           : triangle_indices_.size();
    if (indices == 0) return;
    const bool textured = view.texture && !view.strain_view && texture_.get() != 0 && !shadow;
    const GLuint vao = isolating_ ? isolated_vao_.get() : covering ? covering_vao_.get() : surface_vao_.get();
    const GLuint program = use_surface_program(vao, view_projection, model_matrix, view, shadow, textured);
    if (textured) {
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, texture_.get());
        glUniform1i(glGetUniformLocation(program, "u_texture"), 0);
    } else if (!shadow) {
        glUniform4fv(glGetUniformLocation(program, "u_color"), 1, view.strain_view ? kStrainViewSurface : kSurfaceColor);
    }
    glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(indices), GL_UNSIGNED_INT, nullptr);
}

void SceneRenderer::draw_blob_shadow(const Mat4& view_projection, const Mat4& shadow, const Bounds& body,
                                     const ViewOptions& view) {
    // The box's corners flattened onto the floor; their extent in x and z.
    float x0 = std::numeric_limits<float>::max(), x1 = -x0, z0 = x0, z1 = -x0, y = 0.0f;
    for (int c = 0; c < 8; ++c) {
        const Vec3 corner{c & 1 ? body.max.x : body.min.x, c & 2 ? body.max.y : body.min.y,
                          c & 4 ? body.max.z : body.min.z};
        float p[4];
        transform(shadow, corner, p);
        if (!(std::abs(p[3]) > 1e-12f)) return;
        x0 = std::min(x0, p[0] / p[3]), x1 = std::max(x1, p[0] / p[3]);
        z0 = std::min(z0, p[2] / p[3]), z1 = std::max(z1, p[2] / p[3]);
        y = p[1] / p[3];
    }
    // A fan of triangles: position, normal, uv as the surface's vertices.
    constexpr int kRim = 48;
    const float cx = 0.5f * (x0 + x1), cz = 0.5f * (z0 + z1), rx = 0.5f * (x1 - x0), rz = 0.5f * (z1 - z0);
    blob_scratch_.clear();
    auto vertex = [&](float x, float z) { blob_scratch_.insert(blob_scratch_.end(), {x, y, z, 0, 1, 0, 0, 0}); };
    for (int i = 0; i < kRim; ++i) {
        const float a0 = 6.2831853f * static_cast<float>(i) / kRim, a1 = 6.2831853f * static_cast<float>(i + 1) / kRim;
        vertex(cx, cz);
        vertex(cx + rx * std::cos(a0), cz + rz * std::sin(a0));
        vertex(cx + rx * std::cos(a1), cz + rz * std::sin(a1));
    }
    gl::update(GL_ARRAY_BUFFER, blob_vertices_.get(), blob_scratch_.data(), blob_scratch_.size() * sizeof(float));
    use_surface_program(blob_vao_.get(), view_projection, Mat4{}, view, true);
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(blob_scratch_.size() / 8));
}

void SceneRenderer::upload_ropes(const Simulation& sim) {
    const Model& model = sim.model();
    rope_scratch_.clear();
    rope_index_scratch_.clear();
    auto append = [&](const TubeMesh& mesh) {
        const auto base = static_cast<std::uint32_t>(rope_scratch_.size() / 8);
        for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
            const Vec3 &p = mesh.positions[v], &n = mesh.normals[v];
            rope_scratch_.insert(rope_scratch_.end(),
                                 {p.x, p.y, p.z, n.x, n.y, n.z, mesh.texcoords[v].u, mesh.texcoords[v].v});
        }
        for (std::uint32_t i : mesh.indices) rope_index_scratch_.push_back(base + i);
    };
    const auto positions = sim.positions();
    for (const Tube& tube : model.tubes) append(make_tube(positions, tube));
    // Builderboy's rope is one segment: a straight tube from its point to the body.
    const float thin = 0.004f * std::max(bounds(model).diagonal(), 0.1f);
    for (const Tether& t : model.tethers) {
        const Vec3 ends[2] = {t.point, positions[t.node]};
        if (length(ends[1] - ends[0]) > 1e-6f) append(make_tube(ends, thin, 6));
    }
    gl::upload(GL_ARRAY_BUFFER, rope_vertices_.get(), rope_scratch_.data(), rope_scratch_.size() * sizeof(float));
    glBindVertexArray(rope_vao_.get());
    gl::upload(GL_ELEMENT_ARRAY_BUFFER, rope_indices_.get(), rope_index_scratch_.data(),
               rope_index_scratch_.size() * sizeof(std::uint32_t));
    glBindVertexArray(0);
    const auto beads = sim.bead_positions();
    bead_count_ = beads.size();
    gl::upload(GL_ARRAY_BUFFER, bead_positions_.get(), beads.data(), beads.size() * sizeof(Vec3));
}

void SceneRenderer::draw_ropes(const Mat4& view_projection, const Mat4& model_matrix, const ViewOptions& view,
                               bool shadow) {
    if (!rope_index_scratch_.empty()) {
        const GLuint program = use_surface_program(rope_vao_.get(), view_projection, model_matrix, view, shadow);
        if (!shadow) glUniform4fv(glGetUniformLocation(program, "u_color"), 1, kRopeColor);
        glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(rope_index_scratch_.size()), GL_UNSIGNED_INT, nullptr);
    }
    if (bead_count_ > 0) {
        const GLuint program = point_program_.get();
        glUseProgram(program);
        glBindVertexArray(bead_vao_.get());
        set_matrix(program, "u_view_projection", view_projection);
        set_matrix(program, "u_model", model_matrix);
        glUniform1f(glGetUniformLocation(program, "u_point_size"), 18.0f);
        glVertexAttrib4fv(1, shadow ? kShadowColor : kBeadColor);
        glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(bead_count_));
    }
}

void SceneRenderer::draw_springs(const Mat4& view_projection, const Mat4& model_matrix, bool shadow,
                                 bool flush_halfway) {
    if (spring_count_ == 0) return;
    const GLuint program = spring_program_.get();
    glUseProgram(program);
    glBindVertexArray(spring_vao_.get());
    set_matrix(program, "u_view_projection", view_projection);
    set_matrix(program, "u_model", model_matrix);
    if (shadow) {
        glDisableVertexAttribArray(1);
        glVertexAttrib4fv(1, kShadowColor);
    }
    // In the springs' order either way: the lines that overlap are drawn in the same order.
    const std::size_t first_half = flush_halfway ? spring_count_ / 2 : spring_count_;
    glDrawElements(GL_LINES, static_cast<GLsizei>(2 * first_half), GL_UNSIGNED_INT, nullptr);
    if (first_half < spring_count_) {
        glFlush();
        glDrawElements(GL_LINES, static_cast<GLsizei>(2 * (spring_count_ - first_half)), GL_UNSIGNED_INT,
                       reinterpret_cast<const void*>(2 * first_half * sizeof(std::uint32_t)));
    }
    if (shadow) glEnableVertexAttribArray(1);
}

void SceneRenderer::draw_points(const Mat4& view_projection, std::span<const std::uint32_t> nodes, float size,
                                const float color[4]) {
    if (nodes.empty()) return;
    const GLuint program = point_program_.get();
    glUseProgram(program);
    glBindVertexArray(point_vao_.get());
    set_matrix(program, "u_view_projection", view_projection);
    set_matrix(program, "u_model", Mat4{});
    glUniform1f(glGetUniformLocation(program, "u_point_size"), size);
    glVertexAttrib4fv(1, color);
    gl::upload(GL_ELEMENT_ARRAY_BUFFER, point_indices_.get(), nodes.data(), nodes.size() * sizeof(std::uint32_t));
    glDrawElements(GL_POINTS, static_cast<GLsizei>(nodes.size()), GL_UNSIGNED_INT, nullptr);
}

}  // namespace springkit::editor
