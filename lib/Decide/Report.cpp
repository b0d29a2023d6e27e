//===- Report.cpp - JSON report of loop decisions ---------------------------===//
#include "clustrix/Decide/Report.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace clustrix;

std::string clustrix::renderReport(const std::vector<LoopRecord> &Records) {
  llvm::json::Array Loops;
  for (const LoopRecord &R : Records) {
    llvm::json::Array Reasons;
    for (const ReportReason &X : R.Reasons) {
      llvm::json::Object O{{"kind", X.Kind}, {"message", X.Message}};
      if (X.Line)
        O["line"] = X.Line, O["column"] = X.Column;
      if (!X.Suggestion.empty())
        O["suggestion"] = X.Suggestion;
      Reasons.push_back(std::move(O));
    }
    llvm::json::Array Regions;
    for (const Region &G : R.Regions) {
      std::string Access = std::string((G.Access & RegionRead) ? "read" : "") +
                           ((G.Access & RegionRead) && (G.Access & RegionWrite) ? "-" : "") +
                           ((G.Access & RegionWrite) ? "write" : "");
      llvm::json::Array Subs;
      for (const auto &S : G.Subscripts) {
        llvm::json::Array Dims;
        for (const Polynomial &P : S)
          Dims.push_back(P.str());
        Subs.push_back(std::move(Dims));
      }
      Regions.push_back(llvm::json::Object{{"name", G.Name},
                                           {"access", Access},
                                           {"rank", G.Rank},
                                           {"full_write", G.FullWrite},
                                           {"may_alias", G.MayAlias},
                                           {"guard", G.Scalar},
                                           {"affine", G.Affine},
                                           {"extent", G.ExtentText},
                                           {"subscripts", std::move(Subs)}});
    }
    llvm::json::Array Reds, Apps, Privs;
    for (const Reduction &X : R.Reductions)
      Reds.push_back(llvm::json::Object{{"var", X.Name}, {"op", X.Op}, {"clause", X.FromClause}});
    for (const Append &X : R.Appends)
      Apps.push_back(X.Name);
    for (const Private &X : R.Privates)
      Privs.push_back(X.Name);
    Loops.push_back(llvm::json::Object{{"file", R.File},
                                       {"line", R.Line},
                                       {"column", R.Column},
                                       {"function", R.Function},
                                       {"automatic", R.Automatic},
                                       {"decision", R.Accepted ? "accepted" : "refused"},
                                       {"reasons", std::move(Reasons)},
                                       {"schedule", R.Schedule},
                                       {"collapse", R.Collapse},
                                       {"score", R.Score},
                                       {"level", R.Level},
                                       {"work_per_iteration", R.WorkPerIter},
                                       {"gpu", R.GPU},
                                       {"gpu_reason", R.GPUReason},
                                       {"regions", std::move(Regions)},
                                       {"reductions", std::move(Reds)},
                                       {"appends", std::move(Apps)},
                                       {"privates", std::move(Privs)}});
  }
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"clustrix_report", 1}, {"loops", std::move(Loops)}}));
  OS << "\n";
  return S;
}

llvm::Error clustrix::writeReport(llvm::StringRef Path, const std::vector<LoopRecord> &Records) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC)
    return llvm::createStringError(EC, "cannot write report '%s': %s", Path.str().c_str(),
                                   EC.message().c_str());
  OS << renderReport(Records);
  return llvm::Error::success();
}
