// springkit — the table of physics parameters.
//
// Every field of springkit::Parameters has one row here: its JSON key, the label
// tools show, its command-line option, unit, accepted range, default and a
// one-line description. The model file's reader and writer, validation, the
// JSON Schema test, the CLI's options, `springkit info` and the editor's panels
// are driven from this table or checked against it, so a new parameter is added
// in one place (a row here and a field in Parameters) plus its physics.
//
// Rules that tie two fields together (a gust's duration within its period) are
// not ranges; validate_parameters() states them on top of the table's ranges.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "springkit/model.hpp"

namespace springkit {

/// How a parameter's value is held in Parameters.
enum class ParameterType : std::uint8_t {
    number,      ///< one float
    vector,      ///< a Vec3
    count,       ///< an int
    integrator,  ///< an Integrator, saved by name (integrator_name)
};

/// Where a parameter sits. The optional sections are objects inside
/// "parameters": "ground" is absent or null when the model has no ground plane,
/// "gust" is written only when any of its fields is set.
enum class ParameterSection : std::uint8_t {
    main,    ///< a field of Parameters itself
    ground,  ///< a field of Parameters::ground (only when there is a ground)
    gust,    ///< a field of Parameters::gust
};

/// What a parameter is about. Tools group their controls by it (the editor's
/// Physics panel and its import dialog), so that a new row lands in its group
/// from the table alone.
enum class ParameterTopic : std::uint8_t {
    main,            ///< the body and its integrator: k, mass, gravity, damping, substeps
    ground,          ///< the collision ground (the "ground" section)
    wind,            ///< wind and gusts
    implicit,        ///< the implicit integrator and its projections
    self_collision,  ///< nodes kept apart from the body's own faces
    material,        ///< what the converter derives k and masses from
};

/// A closed or open bound; infinite when there is none.
struct ParameterBound {
    double value = 0.0;
    bool included = true;  ///< false: the bound itself is refused ("(0, 1]" has an open 0)
};

struct ParameterInfo {
    std::string_view key;         ///< JSON key inside its section ("k", "repulsion")
    ParameterSection section;
    ParameterTopic topic;
    std::string_view label;       ///< what tools show ("energy loss", "ground repulsion")
    std::string_view cli_option;  ///< the option that sets it ("--energy-loss"); empty: none
    std::string_view unit;        ///< SI unit as tools print it ("N/m"); empty: a plain factor
    ParameterType type;
    ParameterBound min;           ///< lower bound, for numbers, counts and each vector component
    ParameterBound max;           ///< upper bound
    std::string_view doc;         ///< one line: what it does and where the method comes from
    /// false: the writer leaves a main-section row out while it holds its default
    /// (parameter_defaults()), so that adding a parameter does not change the
    /// bytes of every model saved without it. Readers take an absent row as its
    /// default either way.
    bool written_when_default = true;

    /// Where validation errors put it: "/parameters/ground/repulsion".
    std::string pointer() const;
    /// True when `value` lies within [min, max] (open ends excluded); NaN is never within.
    bool in_range(double value) const;
    /// The range as messages and help texts write it: "[0, 1000]", "(0, 1]", ">= 0", "> 0".
    std::string range_text() const;
};

/// What validation says of a value outside a row's range, after its pointer:
/// "energy loss must be in (0, 1] (got 1.5)", "mass must be > 0 kg (got 0)".
/// `got` is the value as the message shows it.
std::string parameter_range_message(const ParameterInfo& row, std::string_view got);

/// Every parameter, in the order the model file writes them.
std::span<const ParameterInfo> parameter_table();

/// The row with this JSON pointer tail ("energy_loss", "ground/repulsion",
/// "gust/period"); nullptr when there is none.
const ParameterInfo* find_parameter(std::string_view path);

/// The value a row reads from and writes to. Rows of the ground section give
/// nullptr when `params` has no ground. Exactly one of these is non-null for a
/// row (its type's); `integrator` rows use parameter_integrator().
float* parameter_number(const ParameterInfo& row, Parameters& params);
const float* parameter_number(const ParameterInfo& row, const Parameters& params);
Vec3* parameter_vector(const ParameterInfo& row, Parameters& params);
const Vec3* parameter_vector(const ParameterInfo& row, const Parameters& params);
int* parameter_count(const ParameterInfo& row, Parameters& params);
const int* parameter_count(const ParameterInfo& row, const Parameters& params);
Integrator* parameter_integrator(const ParameterInfo& row, Parameters& params);
const Integrator* parameter_integrator(const ParameterInfo& row, const Parameters& params);

/// The defaults every builder and loader starts from, with a default ground
/// (Ground{}) so that the ground rows have a default too.
const Parameters& parameter_defaults();

/// A value for one row; the field of the row's type is the one used.
struct ParameterValue {
    float number = 0.0f;
    Vec3 vector{};
    int count = 0;
    Integrator integrator = Integrator::symplectic_euler;
    friend bool operator==(const ParameterValue&, const ParameterValue&) = default;
};

/// Reads a value for `row` as tools take it: a number ("0.5", as CLI11 reads
/// floats), a vector "X,Y,Z", an integer, or an integrator's name; finite and
/// within the row's range. Returns an empty string on success, else what is
/// wrong ("expected X,Y,Z", "energy loss must be in (0, 1] (got 0)").
std::string parse_parameter(const ParameterInfo& row, std::string_view text, ParameterValue& out);

/// Parameters a user sets on top of a model's own (the CLI's options, an import
/// dialog): only the rows that were set. `new`, `convert` and the importer apply
/// them after building the model, so what was asked for wins.
/// After `params`'s integrator was set, having been `before`: a switch to
/// Integrator::implicit lengthens a shorter max_substep to kImplicitSubstep, one
/// step a 1/60 s frame, what an integrator stable for any k is for (the explicit
/// default, 2 ms, would run nine solves a frame). ParameterOverrides::apply()
/// (unless it sets max_substep too) and the editor's Physics panel call it.
void take_implicit_substep(Parameters& params, Integrator before);

class ParameterOverrides {
public:
    void set(const ParameterInfo& row, const ParameterValue& value);
    /// Unsets a row (nothing when it was not set): the model keeps its own value.
    void erase(const ParameterInfo& row);
    /// The value set for this row, or nullptr.
    const ParameterValue* find(const ParameterInfo& row) const;
    bool empty() const { return values_.empty(); }

    /// Writes the set values into `params`, in table order. Switching `params`
    /// to Integrator::implicit without setting max_substep lengthens the
    /// substep to kImplicitSubstep, one step a 1/60 s frame. Setting the ground's
    /// height adds a ground (Ground's defaults for the rest) when there is none;
    /// the other ground rows change an existing ground and throws Error ("--ground-
    /// friction: the model has no ground; add one with --ground HEIGHT") without one.
    void apply(Parameters& params) const;

    friend bool operator==(const ParameterOverrides&, const ParameterOverrides&) = default;

private:
    std::vector<std::pair<const ParameterInfo*, ParameterValue>> values_;  // in table order
};

}  // namespace springkit
