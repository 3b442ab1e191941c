#include <unistd.h>

#include <algorithm>
#include <iostream>

#include "cli.hpp"

namespace springkit::cli {

namespace {
std::string one_line(std::string text) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
}
}  // namespace

void print_error(const std::string& message) { std::cerr << "error: " << one_line(message) << std::endl; }
void print_warning(const std::string& message) { std::cerr << "warning: " << one_line(message) << std::endl; }
bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

}  // namespace springkit::cli
