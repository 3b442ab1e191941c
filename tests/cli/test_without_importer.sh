#!/usr/bin/env bash
# Builds springkit's core and CLI alone, with the importer turned off and Assimp out
# of reach, and checks that the core verbs work and that convert answers with one
# error line and exit 1. Then configures once more with the importer left on but
# Assimp missing: that must warn and go on, not fail.
# Usage: test_without_importer.sh SOURCE_DIR WORK_DIR [cmake arguments...]
# The build folder is kept between runs, so a rerun rebuilds only what changed.
set -euo pipefail
src="$1" work="$2"
shift 2
build="$work/build"
mkdir -p "$work"
show_log() { echo "failed; see $work/*.log" >&2; tail -n 30 "$work"/*.log >&2 || true; }
trap show_log ERR

common=("$@" -DSPRINGKIT_BUILD_APP=OFF -DSPRINGKIT_BUILD_TESTS=OFF -DSPRINGKIT_BUILD_BENCH=OFF
        -DCMAKE_DISABLE_FIND_PACKAGE_assimp=TRUE)
cmake -S "$src" -B "$build" "${common[@]}" -DSPRINGKIT_BUILD_IMPORT=OFF >"$work/configure.log" 2>&1
cmake --build "$build" --target springkit_cli --parallel 2 >"$work/build.log" 2>&1
cli="$build/converter/springkit"
# Tools that look for the CLI by name in the build tree must not find this one, which
# cannot convert: it goes when the test ends (the next run only links it again).
trap 'rm -f "$cli"' EXIT
if ldd "$cli" | grep -qi assimp; then
  echo "$cli links Assimp" >&2
  exit 1
fi

"$cli" new cloth --resolution 8 -o "$work/cloth.json" >/dev/null
"$cli" info "$work/cloth.json" >/dev/null
"$cli" --help | grep -qE "^  convert +.*unavailable"

rc=0
"$cli" convert "$src/samples/meshes/cube.obj" -o "$work/cube.json" >"$work/convert.out" 2>"$work/convert.err" || rc=$?
expected="error: convert is unavailable: this springkit was built without the mesh importer (springkit::import, which needs Assimp)"
if [ "$rc" != 1 ] || [ "$(cat "$work/convert.err")" != "$expected" ] || [ -s "$work/convert.out" ] || [ -e "$work/cube.json" ]; then
  echo "springkit convert without the importer: exit $rc, stderr: $(cat "$work/convert.err")" >&2
  exit 1
fi

cmake -S "$src" -B "$work/assimp-missing" "${common[@]}" >"$work/assimp-missing.log" 2>&1
grep -q "Assimp 5.2 not found: building without springkit::import" "$work/assimp-missing.log"
echo "springkit without the importer: core verbs work, convert refuses with exit 1"
