//===- Report.cpp - JSON report of loop decisions ---------------------------===//
//
// Renders loop records with llvm::json and merges them into the report file: one file serves
// every translation unit of a build, each compile replacing its own records.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Decide/Report.h"
#include "clustrix/AST/Spelling.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace clustrix;

namespace {

/// Every record of the translation unit \p U as a JSON object.
llvm::json::Array loopObjects(const ReportUnit &U) {
  const std::vector<LoopRecord> &Records = U.Records;
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
      Regions.push_back(llvm::json::Object{{"name", displayMemberNames(G.Name)},
                                           {"access", Access},
                                           {"rank", G.Rank},
                                           {"full_write", G.FullWrite},
                                           {"may_alias", G.MayAlias},
                                           {"guard", G.Scalar},
                                           {"affine", G.Affine},
                                           {"extent", G.Extent == ExtentKind::Allocation
                                                          ? std::string("allocation")
                                                          : G.ExtentText},
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
                                       {"privates", std::move(Privs)},
                                       {"unit", U.File}});
    if (!R.Instantiation.empty())
      (*Loops.back().getAsObject())["instantiation"] = R.Instantiation;
    if (!R.OpenMP.Directive.empty()) {
      llvm::json::Object Omp{{"directive", R.OpenMP.Directive}};
      if (R.OpenMP.DirectiveLine)
        Omp["directive_line"] = R.OpenMP.DirectiveLine;
      if (R.OpenMP.RegionLine)
        Omp["region_line"] = R.OpenMP.RegionLine;
      if (R.OpenMP.Trusted)
        Omp["trusted"] = true;
      if (!R.OpenMP.Verdict.empty()) {
        llvm::json::Array Accesses;
        for (auto [Line, Column] : R.OpenMP.Accesses)
          Accesses.push_back(llvm::json::Object{{"line", Line}, {"column", Column}});
        Omp["verdict"] = R.OpenMP.Verdict;
        Omp["message"] = R.OpenMP.Message;
        Omp["accesses"] = std::move(Accesses);
      }
      (*Loops.back().getAsObject())["openmp"] = std::move(Omp);
    }
  }
  return Loops;
}

/// The report document for \p Files (in this order) and their loop objects.
std::string renderDocument(const std::vector<std::string> &Files,
                           llvm::StringMap<llvm::json::Array> &LoopsOf) {
  llvm::json::Array FileList, Loops;
  for (const std::string &F : Files) {
    FileList.push_back(F);
    for (llvm::json::Value &L : LoopsOf[F])
      Loops.push_back(std::move(L));
  }
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"clustrix_report", 1},
                                   {"files", std::move(FileList)},
                                   {"loops", std::move(Loops)}}));
  OS << "\n";
  return S;
}

/// Reads an existing report into \p Files and \p LoopsOf (by the translation unit that wrote
/// each loop); a file that is not a version 1 report (empty, garbage, another format)
/// contributes nothing and is overwritten.
void readExisting(llvm::StringRef Text, std::vector<std::string> &Files,
                  llvm::StringMap<llvm::json::Array> &LoopsOf) {
  llvm::Expected<llvm::json::Value> Doc = llvm::json::parse(Text);
  if (!Doc) {
    llvm::consumeError(Doc.takeError());
    return;
  }
  const llvm::json::Object *O = Doc->getAsObject();
  if (!O || O->getInteger("clustrix_report") != 1 || !O->getArray("loops"))
    return;
  auto Note = [&](llvm::StringRef F) {
    if (!LoopsOf.count(F)) {
      LoopsOf[F];
      Files.push_back(F.str());
    }
  };
  if (const llvm::json::Array *FileList = O->getArray("files"))
    for (const llvm::json::Value &F : *FileList)
      if (std::optional<llvm::StringRef> Name = F.getAsString())
        Note(*Name);
  for (const llvm::json::Value &L : *O->getArray("loops")) {
    const llvm::json::Object *Loop = L.getAsObject();
    std::optional<llvm::StringRef> Unit = Loop ? Loop->getString("unit") : std::nullopt;
    if (!Unit)
      continue;
    Note(*Unit);
    LoopsOf[*Unit].push_back(L);
  }
}

} // namespace

llvm::Error clustrix::writeReport(llvm::StringRef Path, const std::vector<ReportUnit> &Units) {
  auto Fail = [&](std::error_code EC) {
    return llvm::createStringError(EC, "cannot write report '%s': %s", Path.str().c_str(),
                                   EC.message().c_str());
  };
  // Compiles of one build may write the same report at once (make -j): the lock makes each
  // read-merge-write whole.
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::openFileForReadWrite(
          Path, FD, llvm::sys::fs::CD_OpenAlways, llvm::sys::fs::OF_None))
    return Fail(EC);
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  if (std::error_code EC = llvm::sys::fs::lockFile(FD))
    return Fail(EC);
  llvm::SmallString<4096> Old;
  if (llvm::Error E = llvm::sys::fs::readNativeFileToEOF(
          llvm::sys::fs::convertFDToNativeFile(FD), Old))
    return Fail(llvm::errorToErrorCode(std::move(E)));
  std::vector<std::string> Files;
  llvm::StringMap<llvm::json::Array> LoopsOf;
  readExisting(Old, Files, LoopsOf);
  for (const ReportUnit &U : Units) {
    if (!LoopsOf.count(U.File))
      Files.push_back(U.File);
    LoopsOf[U.File] = loopObjects(U);
  }
  std::string Text = renderDocument(Files, LoopsOf);
  if (std::error_code EC = llvm::sys::fs::resize_file(FD, 0))
    return Fail(EC);
  OS.seek(0);
  OS << Text;
  OS.flush();
  if (OS.has_error())
    return Fail(OS.error());
  llvm::sys::fs::unlockFile(FD);
  return llvm::Error::success();
}
