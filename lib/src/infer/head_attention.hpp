// One attention head over one window, the steps InferenceNetwork::attend takes. Score and
// weight rows are padded_length(n) floats apart.
#pragma once

namespace sawtag::infer {

// n rounded up to the 16 floats the loops work on at a time.
int padded_length(int n);

// One head's keys, transposed ([head_dim, padded], zero beyond n), and values ([n, head_dim]),
// copied out of rows `stride` floats apart: walking those directly maps every row onto the
// same few cache sets.
void copy_keys_and_values(const float* keys, const float* values, int stride, int n,
                          int head_dim, int padded, float* keys_t, float* values_out);

// scores[i][j] = q_i . k_j for i, j < n.
void head_scores(const float* queries, int stride, const float* keys_t, int n, int padded,
                 int head_dim, float* scores);

// Row i of scores -> softmax(scale * scores[i] + bias[clip(j - i)]) over j < n (bias may be
// nullptr); the padding joins the softmax as -infinity (weight 0).
void attention_weights(float scale, const float* bias, int reach, int n, int padded,
                       float* scores);

// output[i] = sum_j weights[i][j] values[j] for i < n (output rows `output_stride` apart).
void weighted_values(const float* weights, int n, int padded, const float* values, int head_dim,
                     float* output, int output_stride);

}  // namespace sawtag::infer
