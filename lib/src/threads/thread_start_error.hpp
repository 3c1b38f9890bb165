// The error for a thread that could not be started: `-j 100000`, or a process limit reached.
// std::thread throws std::system_error then; let through, that error would reach a destructor of
// joinable threads and end the process (std::terminate, exit 134) instead of one clear line.
#pragma once

#include <cstddef>
#include <string>
#include <system_error>

#include "sawtag/error.hpp"

namespace sawtag {

// Throws InputError: "could not start 5000 threads (2741 started: Resource temporarily
// unavailable); ask for fewer threads". The caller has joined the threads it started.
[[noreturn]] inline void throw_cannot_start_threads(std::size_t requested, std::size_t started,
                                                    const std::system_error& error) {
  throw InputError("could not start " + std::to_string(requested) + " threads (" +
                   std::to_string(started) + " started: " + error.code().message() +
                   "); ask for fewer threads");
}

}  // namespace sawtag
