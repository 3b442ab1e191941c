// springkit::import — bones that drive anchors (ImportOptions::bone_anchors).
//
// Linear blend skinning as Assimp describes a skinned mesh (aiBone: "the offset
// matrix transforms from mesh space to bone space in bind pose"): a vertex v of
// a mesh moves with its bone b to G_b(t) O_b v, G_b(t) the bone node's global
// transform at time t and O_b its offset matrix; the sum over its bones,
// weighted, is where it is drawn (Assimp's viewer draws it so). The model's
// rest pose is the mesh drawn so with the scene's own node transforms, G_b(r):
// each vertex at the normalised sum of w_b G_b(r) O_b v (for most files the
// mesh node's transform times v; not for those whose mesh node moves with the
// skeleton or whose offsets assume another root). A node weighted to one bone
// above the threshold follows it rigidly from there: the frame
//     F_b(t) = G_b(t) G_b(r)^-1
// takes its rest position to G_b(t) O_b v, and is what an anchor track stores
// (AnchorDrive::track). G_b(t) is the product of the local transforms from the
// root down, each node's from the clip's channel for it (aiNodeAnim: positions
// and scales interpolated linearly, rotations by slerp, holding the end keys
// outside them; Assimp's viewer's AnimEvaluator does the same) or its static
// transform. The clip is sampled at ImportOptions::bone_key_rate keys per second
// and its end.
#include <assimp/anim.h>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <unordered_map>

#include "springkit/error.hpp"
#include "import_internal.hpp"

namespace springkit::detail {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
    throw Error(path.string() + ": " + what);
}

// The longest clip baked: an hour at the key rate is 108000 keys per bone.
constexpr double kLongestClip = 3600.0;

/// The clip options.animation names, or null when the file has none.
const aiAnimation* chosen_clip(const std::filesystem::path& path, const aiScene& scene, const ImportOptions& options) {
    if (scene.mNumAnimations == 0 || scene.mAnimations == nullptr) {
        if (!options.animation.empty())
            fail(path, "--animation " + options.animation + ": the file has no animations");
        return nullptr;
    }
    const std::string& wanted = options.animation;
    unsigned index = 0;
    if (!wanted.empty()) {
        std::string names;
        bool found = false;
        for (unsigned a = 0; a < scene.mNumAnimations && !found; ++a) {
            const aiAnimation* clip = scene.mAnimations[a];
            if (clip != nullptr && wanted == clip->mName.C_Str()) {
                index = a;
                found = true;
            }
        }
        if (!found && std::all_of(wanted.begin(), wanted.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
            wanted.size() < 10) {
            index = static_cast<unsigned>(std::stoul(wanted));
            found = index < scene.mNumAnimations;
        }
        if (!found) {
            for (unsigned a = 0; a < scene.mNumAnimations && a < 10; ++a) {
                names += a == 0 ? " " : ", ";
                const aiAnimation* clip = scene.mAnimations[a];
                names += std::to_string(a) + " \"" + (clip ? clip->mName.C_Str() : "") + "\"";
            }
            fail(path, "--animation " + wanted + ": no such animation (the file has " +
                           std::to_string(scene.mNumAnimations) + ":" + names +
                           (scene.mNumAnimations > 10 ? ", ...)" : ")"));
        }
    }
    const aiAnimation* clip = scene.mAnimations[index];
    if (clip == nullptr || (clip->mNumChannels > 0 && clip->mChannels == nullptr))
        fail(path, "animation " + std::to_string(index) + " is missing its channels");
    return clip;
}

/// The value of a key track at `tick`: the end keys outside it, `mix` between keys.
template <class Key, class Value, class Mix>
Value key_at(const Key* keys, unsigned count, double tick, Value fallback, Mix mix) {
    if (keys == nullptr || count == 0) return fallback;
    if (count == 1 || tick <= keys[0].mTime) return keys[0].mValue;
    if (tick >= keys[count - 1].mTime) return keys[count - 1].mValue;
    const Key* after = std::upper_bound(keys + 1, keys + count - 1, tick,
                                        [](double t, const Key& k) { return t < k.mTime; });
    const Key& a = *(after - 1);
    const double span = after->mTime - a.mTime;
    const float s = span > 0.0 ? static_cast<float>((tick - a.mTime) / span) : 0.0f;
    return mix(a.mValue, after->mValue, std::clamp(s, 0.0f, 1.0f));
}

/// The local transform of `node` at `tick` of the clip (its static one without a channel).
aiMatrix4x4 local_at(const aiNode& node, const aiNodeAnim* channel, double tick) {
    if (channel == nullptr) return node.mTransformation;
    aiVector3D scaling, position;
    aiQuaternion rotation;
    node.mTransformation.Decompose(scaling, rotation, position);
    const auto lerp = [](const aiVector3D& a, const aiVector3D& b, float s) { return a + (b - a) * s; };
    position = key_at(channel->mPositionKeys, channel->mNumPositionKeys, tick, position, lerp);
    scaling = key_at(channel->mScalingKeys, channel->mNumScalingKeys, tick, scaling, lerp);
    rotation = key_at(channel->mRotationKeys, channel->mNumRotationKeys, tick, rotation,
                      [](const aiQuaternion& a, const aiQuaternion& b, float s) {
                          aiQuaternion q;
                          aiQuaternion::Interpolate(q, a, b, s);
                          return q.Normalize();
                      });
    return aiMatrix4x4(scaling, rotation, position);
}

}  // namespace

void gather_bones(const std::filesystem::path& path, const aiScene& scene, const aiMesh& mesh, std::size_t base,
                  const ImportOptions& options, Soup& soup, ImportReport& report) {
    if (mesh.mNumBones == 0) return;
    if (mesh.mBones == nullptr) fail(path, "mesh '" + std::string(mesh.mName.C_Str()) + "' has no bone array");
    const aiAnimation* clip = chosen_clip(path, scene, options);
    std::unordered_map<std::string, const aiNodeAnim*> channels;
    double ticks_per_second = 25.0, ticks = 0.0;  // Assimp's default rate for clips that give none
    if (clip != nullptr) {
        for (unsigned c = 0; c < clip->mNumChannels; ++c)
            if (clip->mChannels[c] != nullptr) channels.emplace(clip->mChannels[c]->mNodeName.C_Str(), clip->mChannels[c]);
        if (clip->mTicksPerSecond > 0.0) ticks_per_second = clip->mTicksPerSecond;
        ticks = clip->mDuration;
        const double seconds = ticks / ticks_per_second;
        if (!std::isfinite(seconds) || seconds < 0.0 || seconds > kLongestClip)
            fail(path, "animation \"" + std::string(clip->mName.C_Str()) + "\" lasts " + std::to_string(seconds) +
                           " s: not between 0 and " + std::to_string(static_cast<int>(kLongestClip)) + " s");
        unsigned index = 0;
        while (scene.mAnimations[index] != clip) ++index;
        report.animation = clip->mName.length > 0 ? "\"" + std::string(clip->mName.C_Str()) + "\""
                                                  : "#" + std::to_string(index);
        report.animation_seconds = seconds;
    }
    const double seconds = ticks / ticks_per_second;
    const auto samples = static_cast<std::size_t>(std::max(1.0, std::ceil(seconds * options.bone_key_rate - 1e-9)));

    // The rest pose: each vertex where its bones draw it with the scene's own
    // node transforms, sum of w_b G_b O_b v over its weights (normalised).
    // Summed in double and rounded once, so that a vertex whose bones all draw
    // it where it is (the usual bind pose) keeps its float coordinates exactly.
    std::vector<std::array<double, 3>> rest(mesh.mNumVertices, {0.0, 0.0, 0.0});
    std::vector<double> total(mesh.mNumVertices, 0.0);
    for (unsigned b = 0; b < mesh.mNumBones; ++b) {
        const aiBone* bone = mesh.mBones[b];
        if (bone == nullptr || (bone->mNumWeights > 0 && bone->mWeights == nullptr))
            fail(path, "mesh '" + std::string(mesh.mName.C_Str()) + "' bone " + std::to_string(b) + " is missing its weights");
        const aiNode* node = scene.mRootNode->FindNode(bone->mName);
        if (node == nullptr) {
            report.warnings.push_back("bone '" + std::string(bone->mName.C_Str()) +
                                      "' is no node of the scene; its vertices stay soft");
            continue;
        }
        // The bone's chain from the root, and its global transform at rest.
        std::vector<const aiNode*> chain;
        for (const aiNode* n = node; n != nullptr && chain.size() <= 1000; n = n->mParent) chain.push_back(n);
        aiMatrix4x4 at_rest;
        for (auto n = chain.rbegin(); n != chain.rend(); ++n) at_rest = at_rest * (*n)->mTransformation;
        aiMatrix4x4 rest_inverse = at_rest;
        rest_inverse.Inverse();
        const float* m = &rest_inverse.a1;
        if (!std::all_of(m, m + 16, [](float x) { return std::isfinite(x); }))
            fail(path, "bone '" + std::string(bone->mName.C_Str()) + "' has a transform that cannot be inverted");
        std::size_t track = 0;
        while (track < soup.bone_tracks.size() && soup.bone_tracks[track].name != bone->mName.C_Str()) ++track;
        if (track == soup.bone_tracks.size()) {
            AnchorTrack t;
            t.name = bone->mName.C_Str();
            t.loop = true;
            bool scaled = false;
            for (std::size_t k = 0; k <= samples; ++k) {
                if (k == samples && samples == 1 && ticks == 0.0) break;  // one key for a still pose
                const double tick = ticks * static_cast<double>(k) / static_cast<double>(samples);
                aiMatrix4x4 global;
                for (auto n = chain.rbegin(); n != chain.rend(); ++n) {
                    const auto it = channels.find((*n)->mName.C_Str());
                    global = global * local_at(**n, it == channels.end() ? nullptr : it->second, tick);
                }
                const aiMatrix4x4 frame = global * rest_inverse;  // F_b = G_b(t) G_b(rest)^-1
                aiVector3D scaling, position;
                aiQuaternion rotation;
                frame.Decompose(scaling, rotation, position);
                if (std::abs(scaling.x - 1.0f) > 1e-3f || std::abs(scaling.y - 1.0f) > 1e-3f ||
                    std::abs(scaling.z - 1.0f) > 1e-3f)
                    scaled = true;
                rotation.Normalize();
                Quat q{rotation.w, rotation.x, rotation.y, rotation.z};
                // One hemisphere from key to key, so that no key flips sign.
                if (!t.keys.empty()) {
                    const Quat& p = t.keys.back().rotation;
                    if (p.w * q.w + p.x * q.x + p.y * q.y + p.z * q.z < 0.0f) q = {-q.w, -q.x, -q.y, -q.z};
                }
                if (!std::isfinite(position.x) || !std::isfinite(position.y) || !std::isfinite(position.z) ||
                    !is_unit(q))
                    fail(path, "bone '" + t.name + "' has a transform that is not finite at " +
                                   std::to_string(tick / ticks_per_second) + " s");
                t.keys.push_back({static_cast<float>(tick / ticks_per_second), {position.x, position.y, position.z}, q});
            }
            if (scaled)
                report.warnings.push_back("bone '" + t.name + "' scales in the clip: its anchors follow its "
                                          "rotation and position only");
            soup.bone_tracks.push_back(std::move(t));
        }
        const aiMatrix4x4 skin = at_rest * bone->mOffsetMatrix;  // G_b(rest) O_b
        for (unsigned w = 0; w < bone->mNumWeights; ++w) {
            const aiVertexWeight& vw = bone->mWeights[w];
            if (vw.mVertexId >= mesh.mNumVertices || !(vw.mWeight > 0.0f) || !std::isfinite(vw.mWeight)) continue;
            const aiVector3D& v = mesh.mVertices[vw.mVertexId];
            const double x[4] = {v.x, v.y, v.z, 1.0};
            for (unsigned r = 0; r < 3; ++r) {
                double sum = 0.0;
                for (unsigned c = 0; c < 4; ++c) sum += double(skin[r][c]) * x[c];
                rest[vw.mVertexId][r] += sum * vw.mWeight;
            }
            total[vw.mVertexId] += vw.mWeight;
            soup.bone_weights.push_back({static_cast<std::uint32_t>(base + vw.mVertexId),
                                         static_cast<std::uint32_t>(track), vw.mWeight});
        }
    }
    for (unsigned v = 0; v < mesh.mNumVertices; ++v)
        if (total[v] > 0.0)
            soup.positions[base + v] = {static_cast<float>(rest[v][0] / total[v]),
                                        static_cast<float>(rest[v][1] / total[v]),
                                        static_cast<float>(rest[v][2] / total[v])};
}

std::size_t add_bone_anchors(Model& model, const Soup& soup, const std::vector<std::uint32_t>& node_of, double scale,
                             const ImportOptions& options, ImportReport& report) {
    // Each node's heaviest bone: its largest weight over the vertices welded
    // into it (seams repeat a vertex with the same weights).
    const std::size_t n = model.positions.size();
    std::vector<float> weight(n, 0.0f);
    std::vector<std::uint32_t> bone(n, 0);
    for (const Soup::BoneWeight& w : soup.bone_weights) {
        const std::uint32_t node = node_of[w.vertex];
        if (w.weight > weight[node] || (w.weight == weight[node] && w.bone < bone[node])) {
            weight[node] = w.weight;
            bone[node] = w.bone;
        }
    }
    std::vector<bool> anchored(n, false);
    for (const Anchor& a : model.anchors) anchored[a.node] = true;
    std::vector<std::uint32_t> track_of(soup.bone_tracks.size(), UINT32_MAX);
    std::size_t added = 0;
    for (std::uint32_t node = 0; node < n; ++node) {
        if (anchored[node] || !(weight[node] >= static_cast<float>(options.bone_anchors))) continue;
        std::uint32_t& track = track_of[bone[node]];
        if (track == UINT32_MAX) {
            track = static_cast<std::uint32_t>(model.anchor_tracks.size());
            AnchorTrack t = soup.bone_tracks[bone[node]];
            for (TrackKey& key : t.keys) key.position = key.position * static_cast<float>(scale);
            model.anchor_tracks.push_back(std::move(t));
        }
        model.anchors.push_back({.node = node, .drive = AnchorDrive::track, .track = track});
        ++added;
    }
    report.bone_anchors = added;
    report.bone_tracks = model.anchor_tracks.size();
    return added;
}

}  // namespace springkit::detail
