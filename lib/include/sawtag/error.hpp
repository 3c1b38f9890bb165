// The one small hierarchy of errors the library throws. Only the CLI's main catches them.
#pragma once

#include <stdexcept>
#include <string>

namespace sawtag {

// Base of every sawtag error; what() is one line saying what went wrong and where.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad user input: a missing or unreadable file, a malformed CoNLL-U line ("file:line: problem").
class InputError : public Error {
 public:
  using Error::Error;
};

// A model file that cannot be used: not JSON, wrong format or version, a bad tensor or config.
class ModelError : public Error {
 public:
  using Error::Error;
};

// Output that could not be written (a full disk, a closed file).
class OutputError : public Error {
 public:
  using Error::Error;
};

}  // namespace sawtag
