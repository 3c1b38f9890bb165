// `Tagger.info`: what `sawtag info` shows (app/info_command.cpp), as a dict.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "sawtag/model.hpp"

namespace sawtag::python {

// {"model": path, "licence", "kernels", "cpu_kernels", "architecture": {...}, "parameters",
//  "parameter_groups": {...}, "ensemble": [...], "vocabulary": {...}, "upos": [...],
//  "xpos": [...], "tokenizer": {...}, "calibration": {...}, "self_tests", "training": {...}}
// (docs/python.md lists every key).
pybind11::dict model_info(const Model& model, const std::string& path);

}  // namespace sawtag::python
