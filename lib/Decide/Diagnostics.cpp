//===- Diagnostics.cpp - Emitting Clustrix diagnostics ---------------------===//
#include "clustrix/Decide/Diagnostics.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>

using namespace clang;
using namespace clustrix;

static void emitOne(DiagnosticsEngine &DE, const PendingDiag &D, LocationMap Map) {
  // Custom IDs are keyed by level and format string; the message is passed as an argument so
  // that any text (with % signs) is safe.
  unsigned ID = DE.getCustomDiagID(D.Level, "%0");
  SourceLocation L = D.Loc.isValid() ? Map(D.Loc) : SourceLocation();
  DiagnosticBuilder B = DE.Report(L, ID);
  B << D.Message;
  for (const PendingFixIt &F : D.FixIts) {
    SourceLocation FL = Map(F.Loc);
    if (FL.isInvalid() || FL.isMacroID())
      continue;
    if (F.RemoveLength)
      B << FixItHint::CreateReplacement(
          CharSourceRange::getCharRange(FL, FL.getLocWithOffset(F.RemoveLength)), F.Text);
    else
      B << FixItHint::CreateInsertion(FL, F.Text);
  }
}

void clustrix::emitDiagnostics(DiagnosticsEngine &DE, const std::vector<PendingDiag> &Diags,
                               LocationMap Map) {
  for (const PendingDiag &D : Diags) {
    emitOne(DE, D, Map);
    for (const PendingDiag &N : D.Notes)
      emitOne(DE, N, Map);
  }
}

void clustrix::sortDiagnostics(std::vector<PendingDiag> &Diags, const SourceManager &SM) {
  std::stable_sort(Diags.begin(), Diags.end(), [&](const PendingDiag &A, const PendingDiag &B) {
    if (A.Loc.isInvalid() || B.Loc.isInvalid())
      return A.Loc.isValid() && B.Loc.isInvalid();
    return SM.isBeforeInTranslationUnit(SM.getFileLoc(A.Loc), SM.getFileLoc(B.Loc));
  });
}

unsigned clustrix::countErrors(const std::vector<PendingDiag> &Diags) {
  return unsigned(std::count_if(Diags.begin(), Diags.end(), [](const PendingDiag &D) {
    return D.Level == DiagnosticsEngine::Error;
  }));
}
