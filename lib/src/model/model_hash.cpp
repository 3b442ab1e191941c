// springkit — model_hash (springkit/model_hash.hpp).
#include "springkit/model_hash.hpp"

#include <bit>
#include <cstring>
#include <string>

#include "springkit/io.hpp"
#include "files/byte_order.hpp"

namespace springkit {

namespace {

// FNV-1a, 64 bits: per byte, h = (h xor byte) * 1099511628211, from the offset
// basis 14695981039346656037. Values go in as their little-endian bytes.
class Fnv1a {
public:
    void bytes(const unsigned char* data, std::size_t size) {
        for (std::size_t i = 0; i < size; ++i) h_ = (h_ ^ data[i]) * 1099511628211ull;
    }
    template <class T>
    void add(T v) {
        if constexpr (std::endian::native == std::endian::big) v = detail::byte_swapped(v);
        unsigned char b[sizeof(T)];
        std::memcpy(b, &v, sizeof v);
        bytes(b, sizeof b);
    }
    void add(float v) { add(std::bit_cast<std::uint32_t>(v)); }
    void add(Vec3 v) {
        add(v.x);
        add(v.y);
        add(v.z);
    }
    std::uint64_t value() const { return h_; }

private:
    std::uint64_t h_ = 14695981039346656037ull;
};

std::uint64_t whole_model_hash(const Model& model) {
    Model m = model;
    m.name.clear();
    m.texture.clear();
    const std::string text = model_to_json(m);
    Fnv1a h;
    h.bytes(reinterpret_cast<const unsigned char*>(text.data()), text.size());
    return h.value();
}

// Each array is preceded by its length, so that moving an element from one
// array to the next changes the hash.
std::uint64_t physics_hash(const Model& m) {
    Fnv1a h;
    h.add(static_cast<std::uint64_t>(m.positions.size()));
    for (Vec3 p : m.positions) h.add(p);
    h.add(static_cast<std::uint64_t>(m.masses.size()));
    for (float x : m.masses) h.add(x);
    h.add(m.params.k);
    h.add(m.params.mass);
    h.add(static_cast<std::uint64_t>(m.springs.size()));
    for (const Spring& s : m.springs) {
        h.add(s.a);
        h.add(s.b);
        h.add(s.rest);
        h.add(s.k);
        h.add(static_cast<std::uint8_t>(s.kind));
    }
    h.add(static_cast<std::uint64_t>(m.faces.size()));
    for (const Face& f : m.faces)
        for (std::uint32_t n : f.node) h.add(n);
    h.add(static_cast<std::uint64_t>(m.anchors.size()));
    for (const Anchor& a : m.anchors) {
        h.add(a.node);
        h.add(static_cast<std::uint8_t>(a.drive));
        h.add(a.velocity);
        h.add(a.center);
        h.add(a.axis);
        h.add(a.angular_speed);
        if (a.drive == AnchorDrive::track) h.add(a.track);  // so that hashes without tracks stay as they were
    }
    h.add(static_cast<std::uint64_t>(m.tethers.size()));
    for (const Tether& t : m.tethers) {
        h.add(t.node);
        h.add(t.point);
        h.add(t.length);
        h.add(t.bounce);
    }
    h.add(static_cast<std::uint64_t>(m.beads.size()));
    for (const Bead& b : m.beads) {
        h.add(b.first);
        h.add(b.last);
        h.add(b.mass);
        h.add(b.start);
        h.add(b.friction);
    }
    h.add(static_cast<std::uint64_t>(m.constant_forces.size()));
    for (const ConstantForce& f : m.constant_forces) {
        h.add(f.node);
        h.add(f.force);
    }
    // Only when there are any, so that the hashes of models without groups
    // (and the saved states that carry them) stay as they were.
    if (!m.spring_groups.empty()) {
        h.add(static_cast<std::uint64_t>(m.spring_groups.size()));
        for (const SpringGroup& g : m.spring_groups) {
            h.add(g.stiffness_scale);
            h.add(static_cast<std::uint8_t>(g.damping.has_value()));
            h.add(g.damping.value_or(0.0f));
            h.add(static_cast<std::uint64_t>(g.springs.size()));
            for (std::uint32_t s : g.springs) h.add(s);
        }
    }
    if (!m.anchor_tracks.empty()) {
        h.add(static_cast<std::uint64_t>(m.anchor_tracks.size()));
        for (const AnchorTrack& t : m.anchor_tracks) {
            h.add(static_cast<std::uint8_t>(t.loop));
            h.add(static_cast<std::uint64_t>(t.keys.size()));
            for (const TrackKey& k : t.keys) {
                h.add(k.time);
                h.add(k.position);
                h.add(k.rotation.w);
                h.add(k.rotation.x);
                h.add(k.rotation.y);
                h.add(k.rotation.z);
            }
        }
    }
    if (!m.volume_elements.empty()) {
        h.add(static_cast<std::uint64_t>(m.volume_elements.size()));
        for (const VolumeElement& e : m.volume_elements) {
            for (std::uint32_t n : e.node) h.add(n);
            h.add(e.rest);
        }
    }
    return h.value();
}

}  // namespace

std::uint64_t model_hash(const Model& model, HashScope scope) {
    return scope == HashScope::physics ? physics_hash(model) : whole_model_hash(model);
}

}  // namespace springkit
