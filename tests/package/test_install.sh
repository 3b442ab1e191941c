#!/usr/bin/env bash
# Installs springkit into a temporary prefix, builds samples/game against the
# installed package (find_package(springkit CONFIG) + springkit::core only, with
# Assimp out of reach) and runs it on a cloth model. When the importer was built,
# also builds tests/package/import_consumer (COMPONENTS import, springkit::import)
# and checks that it converts an OBJ to the same bytes as `springkit convert`.
# Usage: test_install.sh SOURCE_DIR BUILD_DIR WORK_DIR [with-import]
set -euo pipefail
src="$1" build="$2" work="$3" import="${4:-}"
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
config="$work/prefix/lib/cmake/springkit"
test -f "$work/prefix/include/springkit/springkit.hpp"
# A game must not need ImGui or OpenGL, and springkit::core's targets not Assimp
# (only springkit::import's do, in springkitImportTargets*.cmake).
if grep -rqiE "imgui|glfw|opengl" "$config" || grep -qiE "assimp" "$config"/springkitTargets*.cmake; then
  echo "installed package config depends on editor/importer libraries" >&2
  exit 1
fi
# Assimp out of reach: finding the package and linking springkit::core must not need it.
cmake -S "$src/samples/game" -B "$work/game" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_DISABLE_FIND_PACKAGE_assimp=TRUE >/dev/null
cmake --build "$work/game" >/dev/null
"$work/prefix/bin/springkit" new cloth --resolution 8 -o "$work/cloth.json" >/dev/null
out="$("$work/game/springkit-game" "$work/cloth.json" 120)"
echo "$out"
# 120 frames of 10-33 ms: about 2.6 s simulated; the cloth hangs from two corners and
# falls below its start height (y = 1).
echo "$out" | grep -qE "^.*cloth.json: 120 frames, 2\.[0-9]+ s simulated, 64 nodes, mean height 0\.[0-9]+ m"
# The second instance stands 5 m along x, in its own wind, and a ray from above hits it.
echo "$out" | grep -qE "^placed instance: centre of mass \((-?[0-9]+\.[0-9]+, ){2}-?[0-9]+\.[0-9]+\) m, mass 3\.2 kg"
echo "$out" | grep -qE "^overridden setting: wind \(0\.0, 0\.0, 3\.0\) m/s"
echo "$out" | grep -qE "^raycast: hit at [0-9.]+ m"
echo "$out" | grep -qE "^saved state: [0-9]+ bytes, restored instance steps on identically"
# Every step reported ok; the anchor following a 1 m/s handle is on it at the frame's end.
echo "$out" | grep -qE "^step results: 0 frames clamped by the substep budget, 0 runaways"
echo "$out" | grep -qE "^anchor target: 0\.000000 m from the handle, velocity \(1\.000, 0\.000, 0\.000\) m/s"

if [ "$import" != with-import ]; then
  # Built without the importer: a tool asking for it is told so.
  if cmake -S "$src/tests/package/import_consumer" -B "$work/tool" -DCMAKE_PREFIX_PATH="$work/prefix" \
      >"$work/tool-configure.log" 2>&1; then
    echo "find_package(springkit COMPONENTS import) succeeded in a build without the importer" >&2
    exit 1
  fi
  grep -q "built without the mesh importer" "$work/tool-configure.log"
  exit 0
fi
test -f "$work/prefix/include/springkit/import.hpp"
cmake -S "$src/tests/package/import_consumer" -B "$work/tool" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/tool" >/dev/null
mkdir -p "$work/tool-out" "$work/cli-out"
"$work/tool/mesh-to-model" "$src/samples/meshes/cube.obj" "$work/tool-out/cube.json"
"$work/prefix/bin/springkit" convert --assimp-obj "$src/samples/meshes/cube.obj" -o "$work/cli-out/cube.json" >/dev/null
cmp "$work/tool-out/cube.json" "$work/cli-out/cube.json"
