// Every FLOAT option of every command refuses NaN and infinity. CLI11's own checks let them
// through (CLI::Range and CLI::PositiveNumber compare, and every comparison with NaN is false):
// `sawtag train --lr nan` trained a network of NaN, `--clip nan` switched clipping off.
#pragma once

#include <CLI/CLI.hpp>

namespace sawtag::cli {

// Adds the check to each option of `app` and of its subcommands whose type is FLOAT; call it
// once all are defined. "--lr: Value nan is not a finite number" (a usage error, exit 2).
void require_finite_numbers(CLI::App& app);

// "--lr: Value -1 is not above 0": checks with a message that names the bound plainly (CLI11's
// PositiveNumber says "not in range 0.000000 to 1797693134862315708145274237317043567980...").
CLI::Validator positive_number();
CLI::Validator non_negative_number();  // "--warmup: Value -5 is below 0"

}  // namespace sawtag::cli
