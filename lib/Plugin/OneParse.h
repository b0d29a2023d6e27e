//===- OneParse.h - The plugin's analysis inside the compile's own parse -*- C++ -*-===//
//
// The plugin's default compile (`parse=once`). A translation unit spends most of its parse in
// the headers its first lines include, and the analysis needs the unit's own code, which comes
// after them. So the compile itself parses those headers once; where the last of the main
// file's leading `#include` lines ends (the split), the process forks:
//
//   - the child goes on parsing the file as written, runs the analysis at the end of the
//     translation unit (lib/Frontend/AnalysisAction.h), sends its diagnostics and the rewritten
//     text through a pipe, and exits without generating code;
//   - the parent writes the rewritten text after the split, into the main file's buffer, which
//     its lexer has not reached yet, and compiles it.
//
// The main file's buffer is the user's text, a pragma with a name of its own that ends the file
// (the lexer skips to the buffer's end), and room for the rewritten text, which is written in
// place, so that every location stays in the main file. Where there is no split (the file
// starts with code, or its includes may hold annotations), or `parse=twice` is asked for,
// ClustrixPlugin.cpp parses the file once more before the compile instead. Where fork cannot
// be used (other threads in the process, fork failing), the analysis runs at the split in a
// parse of its own, as `parse=twice` does.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_PLUGIN_ONEPARSE_H
#define CLUSTRIX_PLUGIN_ONEPARSE_H

#include "clustrix/Frontend/AnalysisAction.h"
#include "clustrix/Frontend/Options.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clustrix {

/// Where the main file's leading directives end: the last `#include` line (outside any
/// conditional) of the directives, comments and blank lines that start the file.
struct SplitPoint {
  unsigned HashOffset = 0; ///< The `#` of that `#include`.
  unsigned End = 0;        ///< Just after the line, its newline included.
};

/// Finds the split of Text. IncludeOk tells whether the file an `#include` names (Name, and
/// whether in angle brackets) holds no annotation, with all the project's files it includes;
/// the leading directives end before the first include for which it says no, before any
/// include spelled through a macro, and before any directive that would change how the
/// runtime's header, included at the split, compiles or is numbered (`#pragma pack`, `#line`).
std::optional<SplitPoint>
findSplit(llvm::StringRef Text, const std::function<bool(llvm::StringRef, bool)> &IncludeOk);

/// What the plugin passes on to the one-parse compile.
struct OneParseSettings {
  PipelineOptions Opts;
  std::string ReportFile, EmitRewritten;
};

/// Sets up the one-parse compile of CI's main file (whose text is Text, split at Split) and
/// returns the consumer to add before the compile's own; nullptr when it cannot be set up (the
/// caller then analyses the file in a parse of its own).
std::unique_ptr<clang::ASTConsumer> setUpOneParse(clang::CompilerInstance &CI,
                                                  clang::FileEntryRef Main, std::string Text,
                                                  SplitPoint Split, OneParseSettings Settings);

/// Writes the report and the rewritten file that the options ask for; each failure is returned
/// as a message. Text is the main file as written, used when nothing was rewritten.
std::vector<std::string> writeOutputs(const OneParseSettings &S, llvm::StringRef MainName,
                                      llvm::StringRef Text, const PipelineOutput &Out);

/// Replaces the project's included files that the analysis rewrote ((path, text) pairs), before
/// the compile opens them: an error for one that cannot be found, a warning (and the file as
/// written) for one the compile has already read.
void replaceHeaders(clang::CompilerInstance &CI,
                    const std::vector<std::pair<std::string, std::string>> &Headers);

/// Analyses CI's main file as written (read from its file, not CI's SourceManager) in a parse
/// of its own, with Opts: `parse=twice`, and the one-parse compile where it cannot fork. The
/// diagnostics' locations are mapped to copies of their files in CI's SourceManager. Returns
/// false when that parse could not run.
bool analyseInOwnParse(clang::CompilerInstance &CI, const PipelineOptions &Opts,
                       PipelineOutput &Out);

/// With CLUSTRIX_PLUGIN_LOG set in the environment, writes Message to standard error: which
/// way a compile went, for the tests.
void pluginLog(const std::string &Message);

/// Set while such a parse runs: clang instantiates every registered AddBeforeMainAction plugin
/// for it too, and that instance must do nothing.
extern bool InOwnParse;

} // namespace clustrix

#endif // CLUSTRIX_PLUGIN_ONEPARSE_H
