// A Tesseract that stays loaded: the ID card reader sends it batches of grey images and gets back
// hOCR, as from `tesseract LIST - -l LANG --psm N --dpi 300 -c hocr_char_boxes=1 hocr`. Each
// language's model is loaded once per process instead of once per batch (about 0.1 s of CPU), and
// no process is forked per batch (a fork of a large server costs tens of milliseconds).
//
// Protocol, on stdin and stdout, one request at a time:
//   request:  "LANG PSM WHITELIST COUNT\n" (WHITELIST "-" for none), then per image
//             "WIDTH HEIGHT\n" and WIDTH×HEIGHT bytes of 8-bit grey, row by row
//   answer:   "ok BYTES\n" then the hOCR of every image, pages numbered from 1 in order,
//             or "error BYTES\n" then a message
// A malformed request ends the process (the reader starts another and reports the failure).
#include <tesseract/baseapi.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

bool readLine(std::string &line) {
  line.clear();
  for (int c = std::getchar(); c != EOF; c = std::getchar()) {
    if (c == '\n') return true;
    line.push_back(static_cast<char>(c));
  }
  return false;
}

void answer(const char *status, const std::string &body) {
  std::printf("%s %zu\n", status, body.size());
  std::fwrite(body.data(), 1, body.size(), stdout);
  std::fflush(stdout);
}

// Loaded models by language, each loaded on first use.
std::map<std::string, std::unique_ptr<tesseract::TessBaseAPI>> models;

tesseract::TessBaseAPI *modelFor(const std::string &language) {
  auto found = models.find(language);
  if (found != models.end()) return found->second.get();
  auto api = std::make_unique<tesseract::TessBaseAPI>();
  if (api->Init(nullptr, language.c_str(), tesseract::OEM_DEFAULT) != 0) return nullptr;
  api->SetVariable("tessedit_create_hocr", "1");
  api->SetVariable("hocr_font_info", "0");
  api->SetVariable("hocr_char_boxes", "1");
  // The crops carry no resolution; stating one spares Tesseract a guess per image.
  api->SetVariable("user_defined_dpi", "300");
  return models.emplace(language, std::move(api)).first->second.get();
}

}  // namespace

int main() {
  std::string header;
  while (readLine(header)) {
    char language[32];
    char whitelist[256];
    int psm = 0;
    int count = 0;
    if (std::sscanf(header.c_str(), "%31s %d %255s %d", language, &psm, whitelist, &count) != 4 || count < 0)
      return 2;
    std::vector<std::vector<unsigned char>> images(count);
    std::vector<std::pair<int, int>> sizes(count);
    for (int i = 0; i < count; i++) {
      std::string size;
      int width = 0;
      int height = 0;
      if (!readLine(size) || std::sscanf(size.c_str(), "%d %d", &width, &height) != 2 || width <= 0 ||
          height <= 0 || width > 20000 || height > 20000)
        return 2;
      images[i].resize(static_cast<size_t>(width) * height);
      if (std::fread(images[i].data(), 1, images[i].size(), stdin) != images[i].size()) return 2;
      sizes[i] = {width, height};
    }
    tesseract::TessBaseAPI *api = modelFor(language);
    if (api == nullptr) {
      answer("error", std::string("cannot load the Tesseract model for ") + language);
      continue;
    }
    api->SetPageSegMode(static_cast<tesseract::PageSegMode>(psm));
    api->SetVariable("tessedit_char_whitelist", std::strcmp(whitelist, "-") == 0 ? "" : whitelist);
    std::string hocr;
    for (int i = 0; i < count; i++) {
      api->SetImage(images[i].data(), sizes[i].first, sizes[i].second, 1, sizes[i].first);
      std::unique_ptr<char[]> page(api->GetHOCRText(i));
      if (page) hocr += page.get();
      api->Clear();
    }
    answer("ok", hocr);
  }
  return 0;
}
