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

// Whether head_scores and weighted_values compute each query row of a window of n words alone:
// the same floats whichever of the window's rows are computed with it. Under 64 words the CPU
// level's loops do. Eigen's blocked products, from 64 words on, do not: which micro-kernel
// sums a row, and so the order of its sums, depends on how many rows there are and where the
// row sits among them (a one-row product is even a matrix-vector product); tried on windows of
// 64 to 128 words, some rows computed without the others differed in the last bits. There every
// row is computed as in the whole window.
bool computes_rows_alone(int n);

// call.scores[i][j] = q_i . k_j for i < call.rows, j < n.
void head_scores(const Kernels& kernels, const HeadCall& call);

// call.output[i] = sum_j scores[i][j] values[j] for i < call.rows, j < n.
void weighted_values(const Kernels& kernels, const HeadCall& call);

}  // namespace sawtag::infer
