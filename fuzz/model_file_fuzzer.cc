// libFuzzer target: the model file reader (lda/model_file.h) on arbitrary
// bytes. Any crash, sanitizer report, hang or out-of-memory is a finding;
// an error status is the expected answer to bad bytes. A model that reads
// must be one the commands can use (abort = finding): it validates, every
// phi(k, t) is finite and in (0, 1] and each topic's row sums to 1 (what
// topics, evaluate and fold-in compute with), and writing it and reading it
// back gives the same model.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "lda/model_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using pplda::fuzz::Require;
  const std::filesystem::path dir = pplda::fuzz::ScratchFolder("model");
  pplda::fuzz::WriteFile(dir / "model.json",
                         std::string_view(reinterpret_cast<const char*>(data), size));
  absl::StatusOr<pplda::lda::LdaModel> model =
      pplda::lda::ReadModelFile((dir / "model.json").string());
  pplda::fuzz::Trace("ReadModelFile", model.status());
  if (!model.ok()) return 0;
  Require(model->Validate().ok());
  const int32_t v = model->num_terms();
  const std::vector<double> phi = model->PhiMatrix();
  for (int k = 0; k < model->num_topics; ++k) {
    double sum = 0;
    for (int32_t t = 0; t < v; ++t) {
      const double p = phi[static_cast<size_t>(k) * v + t];
      Require(std::isfinite(p) && p > 0 && p <= 1);
      sum += p;
    }
    Require(std::abs(sum - 1) < 1e-6);
  }
  // Metadata with strings that are not UTF-8 cannot be written (an error).
  if (pplda::lda::WriteModelFile(*model, (dir / "again.json").string()).ok()) {
    absl::StatusOr<pplda::lda::LdaModel> again =
        pplda::lda::ReadModelFile((dir / "again.json").string());
    Require(again.ok());
    Require(pplda::lda::ModelToJson(*again) == pplda::lda::ModelToJson(*model));
  }
  return 0;
}
