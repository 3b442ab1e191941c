// springkit-editor — small OpenGL helpers: shader programs and owned GL objects.
#pragma once

#include <glad/gl.h>

#include <string>
#include <utility>

namespace springkit::editor::gl {

/// Compiles and links a vertex + fragment shader pair. Throws springkit::Error with
/// the driver's log when either fails (a bug, not bad input: shaders are ours).
GLuint make_program(const char* name, const char* vertex_source, const char* fragment_source);

/// An OpenGL object name freed by `Deleter` when it goes; movable, not copyable.
template <void (*Deleter)(GLuint)>
class Owned {
public:
    Owned() = default;
    explicit Owned(GLuint id) : id_(id) {}
    Owned(Owned&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
    Owned& operator=(Owned&& other) noexcept {
        if (this != &other) {
            reset();
            id_ = std::exchange(other.id_, 0);
        }
        return *this;
    }
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
    ~Owned() { reset(); }
    GLuint get() const { return id_; }
    void reset() {
        if (id_ != 0) Deleter(id_);
        id_ = 0;
    }

private:
    GLuint id_ = 0;
};

void delete_buffer(GLuint id);
void delete_vertex_array(GLuint id);
void delete_program(GLuint id);
void delete_texture(GLuint id);

using Buffer = Owned<delete_buffer>;
using VertexArray = Owned<delete_vertex_array>;
using Program = Owned<delete_program>;
using Texture = Owned<delete_texture>;

Buffer make_buffer();
VertexArray make_vertex_array();

/// Replaces a buffer's contents (orphaning the old storage so the driver need not wait).
void upload(GLenum target, GLuint buffer, const void* data, std::size_t bytes);
/// Like upload(), for a buffer written once a frame: the data goes into the
/// buffer's storage when it is big enough, instead of new storage each time.
/// (Mesa's llvmpipe allocates new storage with fresh pages, which the kernel
/// zeroes; in place, the draw that read it last frame has finished with it.)
void update(GLenum target, GLuint buffer, const void* data, std::size_t bytes);

}  // namespace springkit::editor::gl
