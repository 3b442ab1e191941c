#!/usr/bin/env bash
# Converts the sample meshes into the tuned models samples/models/converted-*.json.
# Usage: samples/meshes/convert_models.sh SPRINGKIT [OUT_DIR]   (OUT_DIR defaults to
# samples/models). The test SampleMeshes.ConvertedModelsAreUpToDate runs it into a
# temporary folder and compares the files byte for byte.
set -euo pipefail
springkit="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${2:-$here/../models}"
mkdir -p "$out"
# A cloth held at its two top corners; shear and bend springs keep it from crumpling.
"$springkit" convert "$here/cloth.obj" --shear --bend --anchor near:-0.5,2,0 --anchor near:0.5,2,0 \
  -o "$out/converted-cloth.json"
# Jellies: volume springs keep them in shape (shape error ~0 instead of ~30%), dropped on a ground.
"$springkit" convert "$here/cube.obj" --volume --ground -1 -o "$out/converted-cube.json"
"$springkit" convert "$here/uv_sphere.obj" --volume --ground -1 -o "$out/converted-uv-sphere.json"
# The flag hangs from its pole: every node at the pole's x is anchored.
# The sphere again as a stiff jelly at one step per 1/60 s frame (k dt^2/m = 111):
# the implicit integrator, where the explicit ones would need about 40 substeps.
"$springkit" convert "$here/uv_sphere.obj" --volume --ground -1 --k 20000 --integrator implicit \
  --max-substep 0.0166667 --implicit-iterations 10 -o "$out/converted-stiff-jelly.json"
"$springkit" convert "$here/flag.obj" --shear --bend --anchor -x:0.1% -o "$out/converted-flag.json"
# A tail wagged by its skeleton: the root (weighted to the hip bone alone) follows the
# clip "wag", the rest (weighted less than 0.9 to any bone) swings after it, soft: without
# volume elements, which would hold its bend as hard as its volume springs do (its anchors,
# on two rings, already keep it from settling as its mirror image).
"$springkit" convert "$here/tail.gltf" --bone-anchors 0.9 --no-volume-elements -o "$out/converted-tail.json"
