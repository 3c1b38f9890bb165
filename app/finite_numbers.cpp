#include "finite_numbers.hpp"

#include <cmath>
#include <string>

namespace sawtag::cli {

namespace {

CLI::Validator finite_number() {
  // An empty description keeps `--help` as it was ("--lr FLOAT=0.001").
  return CLI::Validator(
      [](std::string& input) -> std::string {
        double value = 0.0;
        if (CLI::detail::lexical_cast(input, value) && !std::isfinite(value)) {
          return "Value " + input + " is not a finite number";
        }
        return std::string();  // a finite number, or not a number (the type check says so)
      },
      "");
}

// A check that the value is above (or at least) 0.
CLI::Validator compared_with_zero(bool zero_allowed, const std::string& description) {
  return CLI::Validator(
      [zero_allowed](std::string& input) -> std::string {
        double value = 0.0;
        // Not a number, or NaN or infinity: the type check or the finite check says so.
        if (!CLI::detail::lexical_cast(input, value) || !std::isfinite(value)) return std::string();
        if (zero_allowed ? value < 0.0 : !(value > 0.0)) {
          return "Value " + input + (zero_allowed ? " is below 0" : " is not above 0");
        }
        return std::string();
      },
      description);
}

}  // namespace

CLI::Validator positive_number() { return compared_with_zero(false, "POSITIVE"); }

CLI::Validator non_negative_number() { return compared_with_zero(true, "NONNEGATIVE"); }

void require_finite_numbers(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_type_name().rfind("FLOAT", 0) == 0) option->check(finite_number());
  }
  for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) {
    require_finite_numbers(*command);
  }
}

}  // namespace sawtag::cli
