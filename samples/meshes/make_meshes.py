#!/usr/bin/env python3
"""Writes the sample meshes of samples/meshes/ (or of the folder given as the only
argument). The output is deterministic: re-running it leaves the committed files
unchanged, which the test SampleMeshes.CommittedMeshesAreWhatTheScriptWrites checks.

  cloth.obj   1 x 1 m grid of 16 x 16 quads hanging in the xy plane, UVs, cloth.png
  cube.obj    1 m cube, 4 x 4 quads per side; each side has its own vertices,
              normals and UVs, as exporters write hard-edged boxes (24 -> 98 nodes)
  uv_sphere.obj  radius 0.5 m, 16 segments x 10 rings, with a UV seam at u = 0/1
              and one pole vertex per segment (as Blender's UV sphere exports)
  flag.obj    a 2.5 m pole (a line set) with a 1.5 x 1 m flag of 12 x 8 quads
              sharing the pole's top vertices, UVs, flag.png
  tail.gltf   a skinned tube of 28 vertices on two bones, with the clip "wag"
              that swings its root (for convert --bone-anchors)

Texture images are tiny PNGs written with zlib only (no imaging library).
"""
import math
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def fmt(x):
    s = f"{x:.6f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def write(name, lines):
    with open(os.path.join(HERE, name), "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


def write_png(name, width, height, pixel):
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(png)


def grid(lines, origin, du, dv, nu, nv, base=0, normal=None, normal_index=0, flip=False):
    """Appends a grid of nu x nv quads with its own vertices and UVs (u along du,
    v against dv); `base` counts the vertices written before. Returns its vertex count."""
    for j in range(nv + 1):
        for i in range(nu + 1):
            p = [origin[k] + du[k] * i / nu + dv[k] * j / nv for k in range(3)]
            lines.append("v " + " ".join(fmt(c) for c in p))
    for j in range(nv + 1):
        for i in range(nu + 1):
            lines.append(f"vt {fmt(i / nu)} {fmt(1 - j / nv)}")
    if normal is not None:
        lines.append("vn " + " ".join(fmt(c) for c in normal))
    suffix = f"/{normal_index}" if normal is not None else ""
    for j in range(nv):
        for i in range(nu):
            a = base + j * (nu + 1) + i + 1
            corners = [a, a + nu + 1, a + nu + 2, a + 1]
            if flip:
                corners.reverse()
            lines.append("f " + " ".join(f"{v}/{v}{suffix}" for v in corners))
    return (nu + 1) * (nv + 1)


def cloth():
    lines = ["# springkit sample: cloth, 16 x 16 quads, 1 x 1 m, hanging in the xy plane",
             "mtllib cloth.mtl", "o cloth", "usemtl cloth"]
    grid(lines, (-0.5, 2.0, 0.0), (1.0, 0.0, 0.0), (0.0, -1.0, 0.0), 16, 16)
    write("cloth.obj", lines)
    write("cloth.mtl", ["newmtl cloth", "Kd 1 1 1", "map_Kd cloth.png"])
    write_png("cloth.png", 64, 64,
              lambda x, y: (200, 40, 40) if (x // 8 + y // 8) % 2 else (240, 230, 210))


def cube():
    lines = ["# springkit sample: 1 m cube, 4 x 4 quads per side, hard edges (own vertices per side)",
             "o cube"]
    n = 4
    sides = [  # origin, du, dv, outward normal (quads wound counter-clockwise seen from outside)
        ((-0.5, -0.5, 0.5), (1, 0, 0), (0, 1, 0), (0, 0, 1)),
        ((0.5, -0.5, -0.5), (-1, 0, 0), (0, 1, 0), (0, 0, -1)),
        ((0.5, -0.5, 0.5), (0, 0, -1), (0, 1, 0), (1, 0, 0)),
        ((-0.5, -0.5, -0.5), (0, 0, 1), (0, 1, 0), (-1, 0, 0)),
        ((-0.5, 0.5, 0.5), (1, 0, 0), (0, 0, -1), (0, 1, 0)),
        ((-0.5, -0.5, -0.5), (1, 0, 0), (0, 0, 1), (0, -1, 0)),
    ]
    base = 0
    for s, (origin, du, dv, normal) in enumerate(sides):
        # grid() runs down dv from the origin: reversed corners face outward here.
        base += grid(lines, origin, du, dv, n, n, base=base, normal=normal, normal_index=s + 1, flip=True)
    write("cube.obj", lines)


def uv_sphere():
    segments, rings, r = 16, 10, 0.5
    lines = ["# springkit sample: UV sphere r = 0.5 m, 16 segments x 10 rings, UV seam at u = 0/1,",
             "# one pole vertex per segment (unique positions: 16 x 9 + 2 = 146)", "o uv_sphere"]
    # (rings + 1) rows of (segments + 1) vertices: the last column repeats the first
    # position with u = 1 (the seam), and each pole row repeats the pole position.
    for j in range(rings + 1):
        theta = math.pi * j / rings
        for i in range(segments + 1):
            phi = 2 * math.pi * (i % segments) / segments
            p = (r * math.sin(theta) * math.cos(phi), r * math.cos(theta), -r * math.sin(theta) * math.sin(phi))
            lines.append("v " + " ".join(fmt(c) for c in p))
    for j in range(rings + 1):
        for i in range(segments + 1):
            lines.append(f"vt {fmt(i / segments)} {fmt(1 - j / rings)}")
    w = segments + 1
    for j in range(rings):
        for i in range(segments):
            a, b, c, d = j * w + i + 1, (j + 1) * w + i + 1, (j + 1) * w + i + 2, j * w + i + 2
            if j == 0:
                lines.append(f"f {a}/{a} {b}/{b} {c}/{c}")
            elif j == rings - 1:
                lines.append(f"f {a}/{a} {b}/{b} {d}/{d}")
            else:
                lines.append(f"f {a}/{a} {b}/{b} {c}/{c} {d}/{d}")
    write("uv_sphere.obj", lines)


def flag():
    nu, nv, width, height, pole = 12, 8, 1.5, 1.0, 2.5
    lines = ["# springkit sample: flag of 12 x 8 quads on a 2.5 m pole (a polyline); the flag's",
             "# left column shares the pole's top vertices", "mtllib flag.mtl", "o flag", "usemtl flag"]
    grid(lines, (0.0, pole, 0.0), (width, 0.0, 0.0), (0.0, -height, 0.0), nu, nv)
    count = (nu + 1) * (nv + 1)
    lines.append("o pole")
    steps = round(pole / (height / nv))  # the pole's vertices land on the flag's rows
    for k in range(steps + 1):
        lines.append(f"v 0 {fmt(pole - pole * k / steps)} 0")
    lines.append("l " + " ".join(str(count + 1 + k) for k in range(steps + 1)))
    write("flag.obj", lines)
    write("flag.mtl", ["newmtl flag", "Kd 1 1 1", "map_Kd flag.png"])
    write_png("flag.png", 48, 32, lambda x, y: (20, 60, 160) if y // 8 % 2 else (250, 250, 250))


def tail():
    """A skinned, animated glTF tail: a square tube along +x, 1.2 m long in 6
    segments, tapering from 0.2 m to 0.06 m across, closed at both ends. Two
    bones: "hip" at the origin and its child "tail" at x = 0.4 m. The clip
    "wag" turns the hip about +y by 0, 30, 0, -30, 0 degrees at 0, 0.5, 1, 1.5,
    2 s; the tail bone keeps still relative to it. The rings at x = 0 and 0.2
    are weighted to the hip alone, the others shared out to the tail bone (0.5,
    0.7, 0.8, 0.8, 0.8), so --bone-anchors 0.9 anchors the root and leaves the
    rest to swing after it."""
    import base64
    import json

    rings = 7
    positions, joints, weights = [], [], []
    tail_weight = [0.0, 0.0, 0.5, 0.7, 0.8, 0.8, 0.8]
    for r in range(rings):
        x = 0.2 * r
        h = 0.1 - 0.07 * r / (rings - 1)
        for y, z in ((-h, -h), (h, -h), (h, h), (-h, h)):
            positions.append((x, y, z))
            joints.append((0, 1, 0, 0))
            weights.append((1.0 - tail_weight[r], tail_weight[r], 0.0, 0.0))
    indices = []
    for r in range(rings - 1):
        for c in range(4):
            a, b = 4 * r + c, 4 * r + (c + 1) % 4
            indices += [a, b, b + 4, a, b + 4, a + 4]
    last = 4 * (rings - 1)
    indices += [0, 2, 1, 0, 3, 2, last, last + 1, last + 2, last, last + 2, last + 3]
    times = [0.0, 0.5, 1.0, 1.5, 2.0]
    angles = [0.0, 30.0, 0.0, -30.0, 0.0]
    rotations = [(0.0, math.sin(math.radians(a) / 2), 0.0, math.cos(math.radians(a) / 2)) for a in angles]
    identity = [1.0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    tail_bind = identity[:12] + [-0.4, 0.0, 0.0, 1.0]  # column-major: translate(-0.4, 0, 0)

    data = b""
    views, accessors = [], []

    def add(blob, count, kind, component, stride=None, extra=None):
        nonlocal data
        data += b"\x00" * (-len(data) % 4)
        view = {"buffer": 0, "byteOffset": len(data), "byteLength": len(blob)}
        if stride:
            view["byteStride"] = stride
        views.append(view)
        accessor = {"bufferView": len(views) - 1, "componentType": component, "count": count, "type": kind}
        accessor.update(extra or {})
        accessors.append(accessor)
        data += blob
        return len(accessors) - 1

    floats = lambda values: struct.pack("<%df" % len(values), *values)
    i_idx = add(struct.pack("<%dH" % len(indices), *indices), len(indices), "SCALAR", 5123)
    flat = [c for p in positions for c in p]
    i_pos = add(floats(flat), len(positions), "VEC3", 5126,
                extra={"min": [min(p[k] for p in positions) for k in range(3)],
                       "max": [max(p[k] for p in positions) for k in range(3)]})
    i_joint = add(struct.pack("<%dH" % (4 * len(joints)), *[c for j in joints for c in j]), len(joints), "VEC4", 5123)
    i_weight = add(floats([c for w in weights for c in w]), len(weights), "VEC4", 5126)
    i_bind = add(floats(identity + tail_bind), 2, "MAT4", 5126)
    i_time = add(floats(times), len(times), "SCALAR", 5126, extra={"min": [times[0]], "max": [times[-1]]})
    i_rot = add(floats([c for q in rotations for c in q]), len(rotations), "VEC4", 5126)
    gltf = {
        "asset": {"version": "2.0", "generator": "springkit samples/meshes/make_meshes.py"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [{"name": "tail_mesh", "mesh": 0, "skin": 0},
                  {"name": "hip", "children": [2]},
                  {"name": "tail", "translation": [0.4, 0.0, 0.0]}],
        "meshes": [{"name": "tail", "primitives": [{"attributes": {"POSITION": i_pos, "JOINTS_0": i_joint,
                                                                   "WEIGHTS_0": i_weight}, "indices": i_idx}]}],
        "skins": [{"inverseBindMatrices": i_bind, "joints": [1, 2]}],
        "animations": [{"name": "wag",
                        "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}],
                        "samplers": [{"input": i_time, "interpolation": "LINEAR", "output": i_rot}]}],
        "buffers": [{"byteLength": len(data),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode("ascii")}],
        "bufferViews": views,
        "accessors": accessors,
    }
    write("tail.gltf", [json.dumps(gltf, indent=1)])


if __name__ == "__main__":
    if len(sys.argv) > 1:
        HERE = os.path.abspath(sys.argv[1])
        os.makedirs(HERE, exist_ok=True)
    cloth()
    cube()
    uv_sphere()
    flag()
    tail()
