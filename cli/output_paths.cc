#include "cli/output_paths.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "lda/prepared_corpus.h"

namespace pplda::cli {
namespace {

namespace fs = std::filesystem;

// True when `inner` is `outer` or lies below it (both canonical).
bool IsWithin(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

bool HasTxtExtension(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".txt";
}

// The folder `path` will be created in must exist and be writable.
absl::Status CheckWritableFolder(const std::string& flag, const std::string& path,
                                 const fs::path& folder) {
  std::error_code ec;
  const std::string shown = folder.empty() ? "." : folder.string();
  if (!fs::exists(folder.empty() ? fs::path(".") : folder, ec)) {
    return absl::NotFoundError(absl::StrCat(flag, " ", path, ": the folder ", shown,
                                            " does not exist (create it first)"));
  }
  if (!fs::is_directory(folder.empty() ? fs::path(".") : folder, ec)) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, " ", path, ": ", shown, " is not a folder"));
  }
  if (::access(folder.empty() ? "." : folder.c_str(), W_OK | X_OK) != 0) {
    return absl::PermissionDeniedError(
        absl::StrCat(flag, " ", path, ": the folder ", shown, " is not writable"));
  }
  return absl::OkStatus();
}

}  // namespace

fs::path CanonicalPath(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) absolute = fs::path(path);
  fs::path canonical = fs::weakly_canonical(absolute, ec);
  if (ec) canonical = absolute.lexically_normal();
  // "dir/" and "dir" are the same path.
  if (!canonical.has_filename() && canonical.has_parent_path()) canonical = canonical.parent_path();
  return canonical;
}

void OutputPaths::AddInput(const std::string& flag, const std::string& path) {
  if (path.empty()) return;
  std::error_code ec;
  Entry e{flag, path, CanonicalPath(path), fs::is_directory(path, ec), false};
  if (e.folder && lda::IsPreparedCorpusDir(path)) {
    for (const char* file : {"vocabulary.txt", "train.txt", "test.txt", "stats.json"}) {
      inputs_.push_back(Entry{flag, (fs::path(path) / file).string(), e.canonical / file, false,
                              false});
    }
  } else {
    e.raw_documents = e.folder;
  }
  inputs_.push_back(std::move(e));
}

absl::Status OutputPaths::AddFile(const std::string& flag, const std::string& path) {
  if (path.empty()) return absl::InvalidArgumentError(absl::StrCat(flag, ": the path is empty"));
  std::error_code ec;
  const fs::path given(path);
  if (!given.has_filename() || fs::is_directory(given, ec)) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, " ", path, " is a folder; give a file name"));
  }
  const fs::path canonical = CanonicalPath(path);
  for (const Entry& in : inputs_) {
    if (canonical == in.canonical) {
      return absl::InvalidArgumentError(absl::StrCat(
          flag, " ", path, " is also an input (", in.flag, " ", in.path,
          "): writing it would destroy that input; choose another output path"));
    }
    if (in.raw_documents && HasTxtExtension(canonical) && IsWithin(canonical, in.canonical)) {
      return absl::InvalidArgumentError(absl::StrCat(
          flag, " ", path, " is a .txt file inside the documents folder ", in.path, " (", in.flag,
          "): it would be read as a document next time; write it elsewhere"));
    }
  }
  for (const Entry& out : outputs_) {
    // A file inside an output folder of another flag would be overwritten
    // by (or overwrite) that flag's files.
    if (canonical == out.canonical ||
        (out.folder && out.flag != flag && IsWithin(canonical, out.canonical))) {
      return absl::InvalidArgumentError(absl::StrCat(flag, " ", path, " and ", out.flag, " ",
                                                     out.path,
                                                     " overlap; give separate paths"));
    }
  }
  // A file in an output folder checked earlier (created by the command).
  bool in_output_folder = false;
  for (const Entry& out : outputs_) {
    in_output_folder |= out.folder && canonical.parent_path() == out.canonical;
  }
  if (!in_output_folder) {
    absl::Status folder = CheckWritableFolder(flag, path, given.parent_path());
    if (!folder.ok()) return folder;
  }
  if (fs::exists(given, ec)) replaced_.push_back(canonical);
  outputs_.push_back(Entry{flag, path, canonical, false, false});
  return absl::OkStatus();
}

absl::Status OutputPaths::AddFolder(const std::string& flag, const std::string& path,
                                    FolderUse use) {
  if (path.empty()) return absl::InvalidArgumentError(absl::StrCat(flag, ": the path is empty"));
  const fs::path canonical = CanonicalPath(path);
  for (const Entry& in : inputs_) {
    if (IsWithin(in.canonical, canonical) || (in.folder && IsWithin(canonical, in.canonical))) {
      return absl::InvalidArgumentError(absl::StrCat(
          flag, " ", path, " overlaps the input ", in.path, " (", in.flag,
          "): outputs would be mixed with the inputs; choose a folder outside them"));
    }
  }
  for (const Entry& out : outputs_) {
    if (IsWithin(out.canonical, canonical) || IsWithin(canonical, out.canonical)) {
      return absl::InvalidArgumentError(absl::StrCat(flag, " ", path, " overlaps ", out.flag,
                                                     " ", out.path, "; give separate paths"));
    }
  }
  std::error_code ec;
  fs::path given(path);
  if (!given.has_filename() && given.has_parent_path()) given = given.parent_path();
  if (fs::exists(given, ec)) {
    if (!fs::is_directory(given, ec)) {
      return absl::InvalidArgumentError(
          absl::StrCat(flag, " ", path, " exists and is not a folder"));
    }
    if (use == FolderUse::kNewOrEmpty && !fs::is_empty(given, ec)) {
      return absl::FailedPreconditionError(absl::StrCat(
          flag, " ", path, " already holds files; choose a new folder (nothing was written)"));
    }
    if (::access(given.c_str(), W_OK | X_OK) != 0) {
      return absl::PermissionDeniedError(absl::StrCat(flag, " ", path, " is not writable"));
    }
  } else {
    absl::Status parent = CheckWritableFolder(flag, path, given.parent_path());
    if (!parent.ok()) return parent;
  }
  outputs_.push_back(Entry{flag, path, canonical, true, false});
  return absl::OkStatus();
}

std::string OutputPaths::ReplacedNote(const std::string& path) const {
  const fs::path canonical = CanonicalPath(path);
  return std::find(replaced_.begin(), replaced_.end(), canonical) != replaced_.end()
             ? " (replaced the existing file)"
             : "";
}

}  // namespace pplda::cli
