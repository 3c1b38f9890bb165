// "Input file is output file": before a command writes anything, each output it will write is
// compared with each file it reads, by device and inode, so that `-o notes.txt`, a symbolic or
// a hard link to notes.txt, or `--attention notes.txt` cannot destroy the input notes.txt.
#pragma once

#include <string>
#include <vector>

namespace sawtag::cli {

// A file named on the command line, and the option that named it, for messages:
// {"-o", "notes.txt"}; an empty option for a positional argument.
struct FileArgument {
  std::string option;
  std::string path;
};

// Throws OutputError (exit 1) when an output is the same file as an input: "-o notes.txt:
// would overwrite the input notes.txt; choose another output". "-" and "" (stdin, stdout) are
// no files; an output that does not exist yet cannot be an input.
void refuse_output_over_input(const std::vector<FileArgument>& inputs,
                              const std::vector<FileArgument>& outputs);

// Throws OutputError when two outputs are the same file (by device and inode when it exists,
// else by the normalised path), so that one would replace the other.
void refuse_shared_outputs(const std::vector<FileArgument>& outputs);

// The checks of a training command, before anything is read or written: the output and the
// checkpoint are neither inputs nor the same file, and the output is not the checkpoint resumed
// from either; the checkpoint may be (it is read first and replaced whole later).
void refuse_training_overwrites(const std::vector<FileArgument>& inputs,
                                const FileArgument& resumed, const FileArgument& output,
                                const FileArgument& checkpoint);

}  // namespace sawtag::cli
