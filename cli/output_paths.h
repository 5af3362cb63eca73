// Where a command will write, checked before it does any work, so that a
// long training or secure run never ends in "cannot write": every output's
// folder must exist and be writable, no output may be an input (paths are
// compared in canonical form, whether or not they exist yet, so "./a/../m"
// and a symlink to the input are caught), and no two outputs may be the same
// file. Outputs that would replace an existing file are remembered so the
// command can say so when it reports what it wrote.
//
// Rules (errors are InvalidArgument, NotFound or PermissionDenied naming the
// flag and the path):
//   - AddInput(flag, path): a file or folder the command reads; a prepared
//     folder counts as its four files too. Missing inputs are fine here (the
//     reader reports them).
//   - AddFile(flag, path): the path is not empty and not a folder; its folder
//     exists and is writable; it is not an input, not a .txt file inside a
//     folder of raw documents given as input (it would be read as a document
//     next time), and not an earlier output.
//   - AddFolder(flag, path, use): kNewOrEmpty (pplda prepare) needs a path
//     that does not exist or is an empty folder; kCreateOrReuse (audit
//     reports, mixtures, keys) accepts an existing writable folder. Either
//     way the folder (or, when it is absent, its parent) must exist and be
//     writable, and it may not be an input folder, lie inside one, or hold
//     an input.
// Thread-compatible (one command's checks).
#ifndef PPLDA_CLI_OUTPUT_PATHS_H_
#define PPLDA_CLI_OUTPUT_PATHS_H_

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace pplda::cli {

class OutputPaths {
 public:
  enum class FolderUse { kNewOrEmpty, kCreateOrReuse };

  void AddInput(const std::string& flag, const std::string& path);
  absl::Status AddFile(const std::string& flag, const std::string& path);
  absl::Status AddFolder(const std::string& flag, const std::string& path, FolderUse use);

  // " (replaced the existing file)" when AddFile found `path` existing, else
  // "": for the command's report of what it wrote.
  std::string ReplacedNote(const std::string& path) const;

 private:
  struct Entry {
    std::string flag;
    std::string path;               // as given
    std::filesystem::path canonical;
    bool folder = false;            // input: an existing folder
    bool raw_documents = false;     // input: a folder read for .txt documents
  };
  std::vector<Entry> inputs_;
  std::vector<Entry> outputs_;
  std::vector<std::filesystem::path> replaced_;
};

// `path` absolute and canonical as far as it exists (symlinks and ".."
// resolved), lexically normal beyond that.
std::filesystem::path CanonicalPath(const std::string& path);

}  // namespace pplda::cli

#endif  // PPLDA_CLI_OUTPUT_PATHS_H_
