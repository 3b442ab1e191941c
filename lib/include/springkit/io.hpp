// springkit — model files.
//
// The canonical form is JSON (schema/springkit-model.schema.json, docs/FILE_FORMAT.md):
// {"format": "springkit", "version": N, ...}. Files of an older version are
// migrated on load; a newer version is refused. Saving is atomic: a temp file
// beside the target is written, flushed and renamed over it, so a crash leaves
// either the old file or the new one, never a mix.
//
// Save targets (docs/RELIABILITY.md, "Save targets"): a symbolic link is followed
// (a dangling link's target is created; the link stays a link); a character
// device or FIFO (/dev/null, a pipe) is written through, not replaced; a
// directory, socket or block device is refused; a read-only file is refused, not
// replaced; a hard-linked file is replaced, so its other names keep the old
// content.
#pragma once

#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "springkit/model.hpp"

namespace springkit {

/// The version this library writes, and the newest it reads.
inline constexpr int kFormatVersion = 1;

/// The file name extension of the binary form (docs/FILE_FORMAT.md, "Binary
/// form"): the same model, its big arrays stored raw, for big models.
inline constexpr const char* kBinaryExtension = ".skb";
/// The first eight bytes of every binary model file.
inline constexpr char kBinaryMagic[8] = {'S', 'P', 'R', 'I', 'N', 'G', 'K', 'B'};

/// True when `path` names a binary model file (by its extension).
bool is_binary_model_path(const std::filesystem::path& path);

/// What is wrong with `extension` (".txt"; empty for a name without one) for a
/// model file: save_model() writes the binary form for kBinaryExtension and JSON
/// for any other name, which no tool would then look for as a model, so a name
/// ends in ".json" or ".skb". Empty when it does; else "a model is written as
/// .json or .skb (the binary form), chosen by the extension; not .txt", for the
/// tools that refuse such a name (the CLI's -o, the editor's Save As).
std::string model_extension_problem(std::string_view extension);

/// Loads and validates a model: the binary form for a .skb file name, JSON for
/// any other. Throws springkit::Error naming the file, the location (a JSON
/// pointer such as /springs/rest/7, or a binary offset) and the problem.
Model load_model(const std::filesystem::path& path);

/// Validates and saves atomically, in the form the file name chooses (see
/// load_model). Throws springkit::Error naming the file.
void save_model(const Model& model, const std::filesystem::path& path);

/// Whether a writer validates the model first. `already_validated` is for a
/// model that was just loaded or imported (both validate) and not changed since:
/// for a million-spring model the check costs about as much as the writing.
enum class Check : unsigned char { validate, already_validated };
void save_model(const Model& model, const std::filesystem::path& path, Check check);

/// The same, from and to memory; `name` stands for the file in messages.
Model model_from_json(std::string_view text, const std::string& name = "<memory>");
std::string model_to_json(const Model& model);
Model model_from_binary(std::string_view bytes, const std::string& name = "<memory>");
std::string model_to_binary(const Model& model);
std::string model_to_json(const Model& model, Check check);
std::string model_to_binary(const Model& model, Check check);
/// model_to_binary into memory the caller provides: `place(size)` returns where
/// the model's `size` bytes go (a mapped file, shared memory), or throws.
void model_to_binary(const Model& model, Check check, const std::function<char*(std::size_t size)>& place);

/// Writes `bytes` to `path` atomically (temp file in the same folder, flush,
/// fsync, rename). Throws springkit::Error naming the file.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

/// Throws the springkit::Error a save to `path` would fail with, as far as it can
/// be told without writing: a target saving refuses (a directory, socket, block
/// device, read-only file), a missing folder, or one without write permission.
/// Cheap (a few stat calls), for tools to call before long work. Creates nothing
/// and does not open a FIFO (that would wait for a reader).
void check_writable(const std::filesystem::path& path);

/// write_file_atomically in two steps, to write while something else runs: the
/// constructor writes `bytes` to the temp file and flushes it; commit() puts it
/// in place. Destroyed without commit() (the content turned out invalid, an
/// error), it removes the temp file and the target stays as it was. Both throw
/// springkit::Error naming the file, with write_file_atomically's messages. For a
/// target written through (a device, a FIFO) the bytes are kept and written by
/// commit(): nothing reaches it before.
class PendingFile {
public:
    PendingFile(const std::filesystem::path& path, std::string_view bytes);
    /// The same for a file made of `parts`, back to back.
    PendingFile(const std::filesystem::path& path, std::span<const std::string_view> parts);
    PendingFile(PendingFile&& other) noexcept;
    PendingFile& operator=(PendingFile&&) = delete;
    PendingFile(const PendingFile&) = delete;
    PendingFile& operator=(const PendingFile&) = delete;
    ~PendingFile();
    void commit();

private:
    std::string target_;              ///< the path as given, for messages
    std::filesystem::path path_;      ///< the file replaced (a link's target)
    std::filesystem::path temp_;      ///< empty once committed or moved from
    std::string through_;             ///< the bytes for a target written through
    bool through_pending_ = false;    ///< through_ is still to be written
};

/// Where byte `byte` of a text stands, as error messages name it: "line 3, column 7"
/// (both from 1; a column counts bytes).
std::string line_and_column(std::string_view text, std::size_t byte);

/// How many bytes read_file() hands to its `check_start` before reading the rest.
inline constexpr std::size_t kReadFileStart = 64;

/// Reads a whole file; throws springkit::Error for a missing or unreadable file
/// or a directory. `check_start`, when given, sees the first kReadFileStart bytes
/// (fewer for a shorter file) before the rest is read and throws to refuse the
/// file, so a huge file that is not of the expected kind is never read whole.
std::string read_file(const std::filesystem::path& path,
                      const std::function<void(std::string_view start)>& check_start = {});

}  // namespace springkit
