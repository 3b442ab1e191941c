// springkit-editor — OpenGL helpers.
#include "render/gl_util.hpp"

#include <vector>

#include "springkit/error.hpp"

namespace springkit::editor::gl {

namespace {

GLuint compile(const char* name, GLenum stage, const char* source) {
    const GLuint shader = glCreateShader(stage);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        GLint length = 0;
        glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
        std::vector<char> log(static_cast<std::size_t>(length) + 1, '\0');
        glGetShaderInfoLog(shader, length, nullptr, log.data());
        glDeleteShader(shader);
        throw Error(std::string("shader ") + name + (stage == GL_VERTEX_SHADER ? " (vertex)" : " (fragment)") +
                    " does not compile: " + log.data());
    }
    return shader;
}

}  // namespace

GLuint make_program(const char* name, const char* vertex_source, const char* fragment_source) {
    const GLuint vs = compile(name, GL_VERTEX_SHADER, vertex_source);
    const GLuint fs = compile(name, GL_FRAGMENT_SHADER, fragment_source);
    const GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        GLint length = 0;
        glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
        std::vector<char> log(static_cast<std::size_t>(length) + 1, '\0');
        glGetProgramInfoLog(program, length, nullptr, log.data());
        glDeleteProgram(program);
        throw Error(std::string("shader program ") + name + " does not link: " + log.data());
    }
    return program;
}

void delete_buffer(GLuint id) { glDeleteBuffers(1, &id); }
void delete_vertex_array(GLuint id) { glDeleteVertexArrays(1, &id); }
void delete_program(GLuint id) { glDeleteProgram(id); }
void delete_texture(GLuint id) { glDeleteTextures(1, &id); }

Buffer make_buffer() {
    GLuint id = 0;
    glGenBuffers(1, &id);
    return Buffer(id);
}

VertexArray make_vertex_array() {
    GLuint id = 0;
    glGenVertexArrays(1, &id);
    return VertexArray(id);
}

void upload(GLenum target, GLuint buffer, const void* data, std::size_t bytes) {
    glBindBuffer(target, buffer);
    glBufferData(target, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_DRAW);
    if (bytes > 0) glBufferSubData(target, 0, static_cast<GLsizeiptr>(bytes), data);
}

void update(GLenum target, GLuint buffer, const void* data, std::size_t bytes) {
    glBindBuffer(target, buffer);
    GLint size = 0;
    glGetBufferParameteriv(target, GL_BUFFER_SIZE, &size);
    if (static_cast<std::size_t>(size) < bytes)
        glBufferData(target, static_cast<GLsizeiptr>(bytes), data, GL_DYNAMIC_DRAW);
    else if (bytes > 0)
        glBufferSubData(target, 0, static_cast<GLsizeiptr>(bytes), data);
}

}  // namespace springkit::editor::gl
