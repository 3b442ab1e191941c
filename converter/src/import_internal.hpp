// springkit::import — what the importer's own files share.
#pragma once

#include "springkit/import.hpp"

namespace springkit::detail {

/// import_mesh for a child process that exits right after answering
/// (import_isolated.cpp): Assimp's scene is left for the exit to reclaim, and
/// only the parameters are validated: the parent validates the whole model it
/// receives, with the same messages.
Model import_mesh_then_exit(const std::filesystem::path& path, const ImportOptions& options, ImportReport& report);

}  // namespace springkit::detail
