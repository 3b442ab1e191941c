#!/usr/bin/env bash
# Goldens travel between builds: builds the CLI once more with the other vector
# flavour (-DSPRINGKIT_NATIVE flipped: -march=native contracts to FMA and uses
# other vector widths, so the last bits of the motion differ), records a golden of
# each sample model with each build and checks it with the other one.
# Usage: test_goldens_across_builds.sh SOURCE_DIR WORK_DIR THIS_CLI OTHER_NATIVE [cmake arguments...]
# The build folder is kept between runs, so a rerun rebuilds only what changed.
set -euo pipefail
src="$1" work="$2" this_cli="$3" other_native="$4"
shift 4
build="$work/build"
mkdir -p "$work"
show_log() { echo "failed; see $work/*.log" >&2; tail -n 30 "$work"/*.log >&2 || true; }
trap show_log ERR

cmake -S "$src" -B "$build" "$@" -DSPRINGKIT_NATIVE="$other_native" -DSPRINGKIT_BUILD_IMPORT=OFF \
  -DSPRINGKIT_BUILD_APP=OFF -DSPRINGKIT_BUILD_TESTS=OFF -DSPRINGKIT_BUILD_BENCH=OFF >"$work/configure.log" 2>&1
cmake --build "$build" --target springkit_cli --parallel 2 >"$work/build.log" 2>&1
other_cli="$build/converter/springkit"
trap 'rm -f "$other_cli"' EXIT  # not a CLI that tools looking in the build tree should find
"$this_cli" --version
"$other_cli" --version

# The samples with the least margin (docs/CONVERTER.md, "What check guarantees"):
# a swinging cloth, ropes on the ground, beads sliding, a jelly.
for model in cloth tunca-rope bead-rope jelly; do
  for recorder in this other; do
    if [ "$recorder" = this ]; then record="$this_cli" replay="$other_cli"; else record="$other_cli" replay="$this_cli"; fi
    golden="$work/$model.$recorder.golden.json"
    "$record" golden -q "$src/samples/models/$model.json" --seconds 5 --samples 10 -o "$golden"
    "$replay" check -q "$src/samples/models/$model.json" --golden "$golden"
  done
done
echo "goldens of the portable and the native build pass check on the other"
