// springkit — text from a file or a command line made safe to quote in one line
// of a message or of a tool's output.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace springkit {

/// Longest quote printable() gives by default, in bytes (before the "... (N
/// bytes more)" note): a name or a library's message can be megabytes long.
inline constexpr std::size_t kMaxPrintableBytes = 1000;

/// `text` safe to show on a terminal as (part of) one line: \n, \r and \t as
/// those escapes, other control characters (C0, DEL, and the C1 range U+0080 to
/// U+009F, which some terminals act on) and bytes that are not well-formed UTF-8
/// (stray continuation bytes, overlong forms, surrogates, beyond U+10FFFF) as
/// \xNN; well-formed UTF-8 is kept. Cut after `limit` bytes, never inside an
/// escape or a character, with "... (N bytes more)". Backslashes are kept as they
/// are, so applying it twice changes nothing (up to the cut).
std::string printable(std::string_view text, std::size_t limit = kMaxPrintableBytes);

/// A count and its noun for a message: "1 anchor", "0 anchors", "3 anchors";
/// `plural` for a noun that does not just take an s ("vertex", "vertices").
std::string counted(std::size_t count, std::string_view noun, std::string_view plural = {});

}  // namespace springkit
