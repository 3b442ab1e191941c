// Test support: the small model the editor's document, panel and paint tests edit.
#pragma once

#include "springkit/builders.hpp"
#include "springkit/model.hpp"

namespace springkit::test::editor {

/// A 5 x 4 cloth with make_cloth's default anchors (two corners of its first row).
inline Model small_cloth() {
    ClothSpec spec;
    spec.columns = 5;
    spec.rows = 4;
    return make_cloth(spec);
}

}  // namespace springkit::test::editor
