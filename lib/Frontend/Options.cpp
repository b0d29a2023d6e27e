//===- Options.cpp - Options of the front doors ----------------------------===//
#include "clustrix/Frontend/Options.h"

using namespace clustrix;

std::string clustrix::applyOption(llvm::StringRef Arg, PipelineOptions &Opts,
                                  std::string &ReportFile, std::string &EmitRewritten) {
  auto [Name, Value] = Arg.split('=');
  if (Name == "report") {
    if (Value.empty())
      return "'report=' needs a file name";
    ReportFile = Value.str();
    return "";
  }
  if (Name == "emit-rewritten") {
    if (Value.empty())
      return "'emit-rewritten=' needs a file name";
    EmitRewritten = Value.str();
    return "";
  }
  if (Name == "remarks") {
    if (Value == "on")
      Opts.Diags.Remarks = true;
    else if (Value == "off")
      Opts.Diags.Remarks = false;
    else
      return "'remarks=' takes 'on' or 'off', not '" + Value.str() + "'";
    return "";
  }
  if (Name == "refusals") {
    if (Value == "warning")
      Opts.Diags.Refusals = RefusalSeverity::Warning;
    else if (Value == "error")
      Opts.Diags.Refusals = RefusalSeverity::Error;
    else if (Value == "remark")
      Opts.Diags.Refusals = RefusalSeverity::Remark;
    else if (Value == "ignore")
      Opts.Diags.Refusals = RefusalSeverity::Ignore;
    else
      return "'refusals=' takes 'warning', 'error', 'remark' or 'ignore', not '" + Value.str() +
             "'";
    return "";
  }
  if (Name == "max-level") {
    unsigned L;
    if (Value.getAsInteger(10, L) || L < 1 || L > 5)
      return "'max-level=' takes a level from 1 to 5, not '" + Value.str() + "'";
    Opts.Analysis.MaxLevel = L;
    return "";
  }
  if (Name == "project-root") {
    if (Value.empty())
      return "'project-root=' needs a directory";
    Opts.Analysis.ProjectRoot = Value.str();
    return "";
  }
  if (Name == "openmp") {
    if (Value == "on")
      Opts.OpenMP = OpenMPMode::On;
    else if (Value == "check")
      Opts.OpenMP = OpenMPMode::Check;
    else if (Value == "trust")
      Opts.OpenMP = OpenMPMode::Trust;
    else if (Value == "off")
      Opts.OpenMP = OpenMPMode::Off;
    else
      return "'openmp=' takes 'on', 'trust', 'check' or 'off', not '" + Value.str() + "'";
    return "";
  }
  if (Name == "whole-program") {
    if (Value == "on")
      Opts.WholeProgram = true;
    else if (Value == "off")
      Opts.WholeProgram = false;
    else
      return "'whole-program=' takes 'on' or 'off', not '" + Value.str() + "'";
    return "";
  }
  if (Name == "parse") {
    if (Value == "once")
      Opts.ParseOnce = true;
    else if (Value == "twice")
      Opts.ParseOnce = false;
    else
      return "'parse=' takes 'once' or 'twice', not '" + Value.str() + "'";
    return "";
  }
  return "unknown option '" + Arg.str() +
         "'; expected report=FILE, emit-rewritten=FILE, remarks=on|off, "
         "refusals=warning|error|remark|ignore, max-level=N, project-root=DIR, parse=once|twice, "
         "whole-program=on|off or openmp=on|trust|check|off";
}
