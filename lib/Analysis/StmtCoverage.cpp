//===- StmtCoverage.cpp - The closed world of the body walk -----------------===//
#include "clustrix/Analysis/StmtCoverage.h"

using namespace clang;

clustrix::StmtCoverage clustrix::stmtCoverage(Stmt::StmtClass C) {
  switch (C) {
#define CLUSTRIX_STMT(Name, Method)                                                              \
  case Stmt::Name##Class:                                                                       \
    return {StmtCoverage::Modelled, RejectKind::UnsupportedConstruct, nullptr};
#define CLUSTRIX_EXPR(Name, Method)                                                              \
  case Stmt::Name##Class:                                                                       \
    return {StmtCoverage::Modelled, RejectKind::UnsupportedConstruct, nullptr};
#define CLUSTRIX_REFUSE(Name, Kind, What)                                                        \
  case Stmt::Name##Class:                                                                       \
    return {StmtCoverage::Refused, RejectKind::Kind, What};
#include "StmtCoverage.def"
  default:
    return {};
  }
}
