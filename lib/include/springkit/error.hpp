// springkit — the one exception type of the library.
#pragma once

#include <stdexcept>
#include <string>

namespace springkit {

/// Every failure of the library (a bad file, an invalid model, a simulation that
/// blew up) is thrown as springkit::Error. what() is one line that names the file
/// (when there is one), the place in it and the problem, ready to print after "error: ".
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Thrown by Simulation::step when the state turns non-finite or the energy runs
/// away. The simulation keeps the last good state; reset() starts over.
class SimulationError : public Error {
public:
    using Error::Error;
};

}  // namespace springkit
