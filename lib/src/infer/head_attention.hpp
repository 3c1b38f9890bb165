// One attention head over one window, the steps InferenceNetwork::attend takes. Score and
// weight rows are padded_length(n) floats apart. The softmax between scores and weighted values
// is a kernel of the CPU level (kernels/level_kernels.hpp: attention_weights).
#pragma once

#include "infer/kernels.hpp"

namespace sawtag::infer {

// n rounded up to the 16 floats the loops work on at a time.
int padded_length(int n);

// One head's keys, transposed ([head_dim, padded], zero beyond n), and values ([n, head_dim]),
// copied out of rows `stride` floats apart: walking those directly maps every row onto the
// same few cache sets.
void copy_keys_and_values(const float* keys, const float* values, int stride, int n, int head_dim,
                          int padded, float* keys_t, float* values_out);

// call.scores[i][j] = q_i . k_j for i < call.rows, j < n.
void head_scores(const Kernels& kernels, const HeadCall& call);

// call.output[i] = sum_j scores[i][j] values[j] for i < call.rows, j < n.
void weighted_values(const Kernels& kernels, const HeadCall& call);

}  // namespace sawtag::infer
