//===- SkippedText.cpp - Branches the preprocessor skipped -----------------===//
#include "clustrix/AST/SkippedText.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include <memory>
#include <mutex>

using namespace clang;
using namespace clustrix;

namespace {

/// The records, one per watched preprocessor. A watcher's destruction (with its
/// preprocessor's) removes its record, so that a later preprocessor at the same address
/// starts anew.
struct Registry {
  std::mutex Lock;
  llvm::DenseMap<const Preprocessor *, std::unique_ptr<SkippedText>> Records;
};

Registry &registry() {
  static Registry R;
  return R;
}

class Watcher : public PPCallbacks {
public:
  Watcher(const Preprocessor &PP, SkippedText &Record) : PP(PP), Record(Record) {}
  ~Watcher() override {
    Registry &R = registry();
    std::lock_guard<std::mutex> G(R.Lock);
    R.Records.erase(&PP);
  }

  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    const SourceManager &SM = PP.getSourceManager();
    auto [File, Begin] = SM.getDecomposedLoc(Range.getBegin());
    auto [EndFile, End] = SM.getDecomposedLoc(Range.getEnd());
    if (File.isValid() && File == EndFile && Begin <= End)
      Record.skipped(File, Begin, End);
  }

private:
  const Preprocessor &PP;
  SkippedText &Record;
};

} // namespace

SkippedText &SkippedText::watch(Preprocessor &PP) {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  std::unique_ptr<SkippedText> &Slot = R.Records[&PP];
  if (!Slot) {
    Slot = std::make_unique<SkippedText>();
    // Before the main file is entered nothing has been lexed.
    Slot->Complete = PP.getCurrentLexer() == nullptr && PP.getCurrentFileLexer() == nullptr;
    PP.addPPCallbacks(std::make_unique<Watcher>(PP, *Slot));
  }
  return *Slot;
}

const SkippedText *SkippedText::of(const Preprocessor &PP) {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  auto It = R.Records.find(&PP);
  return It == R.Records.end() ? nullptr : It->second.get();
}

std::optional<unsigned> SkippedText::skippedFrom(FileID File, unsigned Offset) const {
  auto It = Ranges.find(File);
  if (It == Ranges.end())
    return std::nullopt;
  auto R = It->second.find(Offset);
  if (R == It->second.end())
    return std::nullopt;
  return R->second;
}
