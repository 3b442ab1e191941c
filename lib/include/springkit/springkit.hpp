// springkit — data-driven mass-spring soft bodies. The one header a game includes.
//
//   springkit::Model model = springkit::load_model("cloth.json");  // throws springkit::Error
//   springkit::Simulation sim(model);     // sim prepares its own copy of the model
//   sim.step(1.0f / 60.0f);               // fixed substeps of at most max_substep
//   draw(sim.positions(), sim.normals()); // spans valid until the next step
//
// All errors are springkit::Error (a std::runtime_error) with a one-line message
// naming the file and the problem. Units are SI (m, kg, s, N).
#pragma once

#include "springkit/builders.hpp"
#include "springkit/collider_scenes.hpp"
#include "springkit/colliders.hpp"
#include "springkit/error.hpp"
#include "springkit/frame_cost.hpp"
#include "springkit/io.hpp"
#include "springkit/locality.hpp"
#include "springkit/material.hpp"
#include "springkit/model.hpp"
#include "springkit/model_hash.hpp"
#include "springkit/parameters.hpp"
#include "springkit/printable.hpp"
#include "springkit/raycast.hpp"
#include "springkit/rope_mesh.hpp"
#include "springkit/samples.hpp"
#include "springkit/scene_file.hpp"
#include "springkit/scenes.hpp"
#include "springkit/shape.hpp"
#include "springkit/simulation.hpp"
#include "springkit/transform.hpp"
#include "springkit/vec3.hpp"
