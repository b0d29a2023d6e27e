//===- Diagnostics.cpp - Emitting Clustrix diagnostics ---------------------===//
#include "clustrix/Decide/Diagnostics.h"

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
