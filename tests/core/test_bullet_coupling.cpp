// Two-way coupling through a game's rigid-body engine (docs/GAME_API.md,
// "Colliders"): a Bullet btRigidBody is a kinematic collider for springkit
// each frame, and gets back the impulses springkit's contacts report. With
// nothing else acting, the momentum of jelly + rigid body does not change.
#include <btBulletDynamicsCommon.h>
#include <gtest/gtest.h>

#include <cmath>

#include "springkit/springkit.hpp"

using namespace springkit;

namespace {

Vec3 to_vec(const btVector3& v) { return {v.x(), v.y(), v.z()}; }
btVector3 to_bt(Vec3 v) { return {v.x, v.y, v.z}; }

}  // namespace

TEST(BulletCoupling, MomentumExchangeWithARigidBodyBalances) {
    // A 1 kg box, free in space, and a jelly flying into it at 2 m/s.
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher(&config);
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
    world.setGravity({0, 0, 0});
    const Vec3 half{0.1f, 0.3f, 0.3f};
    btBoxShape shape(to_bt(half));
    const btScalar box_mass = 1.0f;
    btVector3 inertia;
    shape.calculateLocalInertia(box_mass, inertia);
    btDefaultMotionState motion(btTransform(btQuaternion::getIdentity(), btVector3(0.5f, 0.15f, 0.05f)));
    btRigidBody box(btRigidBody::btRigidBodyConstructionInfo(box_mass, &motion, &shape, inertia));
    box.setActivationState(DISABLE_DEACTIVATION);
    box.setDamping(0, 0);
    world.addRigidBody(&box);

    Parameters p;
    p.gravity = {};
    p.energy_loss = 1.0f;
    p.k = 2000.0f;
    p.node_radius = 0.005f;
    Simulation jelly(make_jelly({.nx = 4, .ny = 4, .nz = 4, .size = 0.3f, .origin = {-0.1f, 0.0f, -0.15f}}, p));
    jelly.add_velocity({2.0f, 0.0f, 0.0f});
    auto colliders = std::make_shared<ColliderSet>();
    Collider c = box_collider(half);
    c.static_friction = 0.3f;
    c.dynamic_friction = 0.2f;
    const ColliderId id = colliders->add(c);
    jelly.set_colliders(colliders);

    const float dt = 1.0f / 60.0f;
    auto total = [&] { return jelly.linear_momentum() + to_vec(box.getLinearVelocity()) * box_mass; };
    const Vec3 start = total();
    float worst = 0.0f;
    for (int frame = 0; frame < 60; ++frame) {
        // 1. The rigid body's pose now and where its velocity takes it by the
        //    end of the frame: the collider moves there over the step.
        const btTransform& t = box.getWorldTransform();
        const btQuaternion q = t.getRotation();
        colliders->set_transform(id, {to_vec(t.getOrigin()), {q.w(), q.x(), q.y(), q.z()}});
        btTransform next;
        btTransformUtil::integrateTransform(t, box.getLinearVelocity(), box.getAngularVelocity(), dt, next);
        const btQuaternion nq = next.getRotation().normalized();
        colliders->move_to(id, {to_vec(next.getOrigin()), {nq.w(), nq.x(), nq.y(), nq.z()}}, dt);
        // 2. The soft body steps against it.
        jelly.step(dt);
        // 3. The rigid body gets the reaction: minus each contact's impulse, at
        //    the contact point.
        for (const Contact& contact : jelly.contacts())
            if (contact.collider == id)
                box.applyImpulse(to_bt(-contact.impulse), to_bt(contact.point) - box.getCenterOfMassPosition());
        world.stepSimulation(dt, 0);
        const Vec3 drift = total() - start;
        worst = std::max(worst, length(drift));
    }
    // The box was hit and moves on; together they kept their 2 m/s x jelly mass.
    EXPECT_GT(box.getLinearVelocity().x(), 0.5f);
    EXPECT_LT(worst, 1e-4f * length(start));
}
