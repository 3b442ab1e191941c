// springkit — byte order of the binary files (the .skb model form and saved
// simulation states): little-endian on disk, whatever the machine's order.
#pragma once

#include <algorithm>
#include <cstring>

namespace springkit::detail {

/// `v` with its bytes in the opposite order.
template <class T>
T byte_swapped(T v) {
    unsigned char b[sizeof(T)];
    std::memcpy(b, &v, sizeof v);
    std::reverse(b, b + sizeof(T));
    std::memcpy(&v, b, sizeof v);
    return v;
}

}  // namespace springkit::detail
