//===- clustrix/Analysis/LoopAnalysis.h - Analyze one loop ------*- C++ -*-===//
//
// Decides whether an annotated loop may run split across devices, and computes everything the
// rewriter needs: the canonical loop form, the accessed regions, reductions, ordered appends, the
// functions and types the body needs, and the complexity score. A wrong acceptance silently
// corrupts results, so every doubt is a refusal with a typed reason.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_ANALYSIS_LOOPANALYSIS_H
#define CLUSTRIX_ANALYSIS_LOOPANALYSIS_H

#include "clustrix/Analysis/Polynomial.h"
#include "clustrix/Detect/Annotation.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <string>
#include <vector>

namespace clustrix {

/// Why a loop was refused. Each kind has one message family, one test and one entry in
/// docs/diagnostics.md.
enum class RejectKind {
  NotCanonical,        ///< Init, condition or increment is not of the canonical form.
  NonIntegerInduction, ///< The induction variable is not an integer.
  BoundNotInvariant,   ///< A bound or the step may change during the loop.
  InductionModified,   ///< The body writes the induction variable.
  EarlyExit,           ///< break, return, goto, co_return leave the loop.
  Exceptions,          ///< throw or try in the body.
  CarriedScalar,       ///< A scalar carries a value from one iteration to the next.
  FloatReduction,      ///< A floating-point reduction without a reduce clause.
  ReduceClause,        ///< A reduce clause that does not match the body.
  ArrayDependence,     ///< Two iterations touch the same array element.
  NonAffineWrite,      ///< A write through a subscript the analysis cannot follow.
  UnboundedAccess,     ///< An access with no known extent (needs extent()).
  UnsupportedCall,     ///< A call that cannot run on a device.
  UnsupportedConstruct,///< Allocation, I/O, statics, atomics, asm, volatile.
  AppendMisuse,        ///< A vector is appended to and otherwise used.
  Escape,              ///< The address of a shared object escapes.
  Template,            ///< The loop is in a template (dependent code).
  Macro,               ///< The loop is written inside a macro expansion.
  NotInMainFile,       ///< The loop is in an included file, which is not rewritten.
  Collapse,            ///< collapse(n) on a nest that is not perfect and rectangular.
  TooComplex,          ///< The complexity level is above the configured maximum.
  Disabled,            ///< gpu_parallel(disable): kept serial on request.
  Nested,              ///< Inside another loop that is parallelized.
};

/// A reason for refusal, with the offending expression's location for a note.
struct RejectReason {
  RejectKind Kind;
  std::string Message;       ///< Follows "loop not parallelized: ".
  clang::SourceLocation Loc; ///< Where the note points.
  std::string Note;          ///< The note's text; empty for no note.
  std::string Suggestion;    ///< A clause to add, e.g. "reduce(+: sum)"; empty for none.
};

/// Stable name of a reject kind, for the report.
const char *rejectKindName(RejectKind K);

/// Comparison of the canonical loop condition, induction variable on the left.
enum class LoopCmp { LT, LE, GT, GE, NE };

/// One level of the (possibly collapsed) loop nest in canonical form.
struct CanonicalLoop {
  const clang::Stmt *Loop = nullptr;     ///< ForStmt or CXXForRangeStmt.
  const clang::VarDecl *Var = nullptr;   ///< The induction variable (or the range variable).
  bool DeclaredInLoop = true;
  std::string VarName;
  std::string VarType;     ///< Spelled type of the induction variable.
  std::string CmpType;     ///< Type the comparison is done in.
  std::string InitText, BoundText, StepText;  ///< Spelled expressions (StepText: the magnitude
                                              ///< expression, signed for `+=`).
  bool StepNegated = false; ///< `-=`, `--`: the step expression counts down.
  LoopCmp Cmp = LoopCmp::LT;
  // Range-based for: iterate over RangeText with element variable Var.
  bool RangeFor = false;
  std::string RangeText;
  std::string ElemDeclText; ///< e.g. "auto &x"
  Polynomial InitPoly, StepPoly; ///< Step: signed step (negative for -=); invalid if unknown.
  /// Exact values of the initial value and the bound (no wrapping conversion or arithmetic);
  /// invalid when not known exactly. They bound the iteration range for the dependence test.
  Polynomial InitValue, BoundValue;
};

/// Access classification of a region.
enum RegionAccess : unsigned { RegionRead = 1, RegionWrite = 2 };

/// How the whole extent of an array is known.
enum class ExtentKind { Unknown, ConstantArray, Container, Clause };

/// One array the loop touches.
struct Region {
  std::string Name;          ///< Spelled base, e.g. "a", "this->data", "s.v".
  unsigned Access = 0;       ///< RegionRead | RegionWrite.
  unsigned Rank = 1;
  bool FullWrite = true;     ///< Every written element of a chunk's box is written by the chunk.
  bool MayAlias = false;     ///< A pointer or reference that may alias other regions.
  bool IsContainer = false;  ///< std::vector / std::array / std::span: Name.data() is the base.
  ExtentKind Extent = ExtentKind::Unknown;
  std::string ExtentText;    ///< Element count expression, when known.
  std::string ElemType;      ///< Spelled element type.
  std::vector<int64_t> ConstDims; ///< Extents of a C array's dimensions, outermost first.
  /// Extents of the dimensions after the first, for row-major subscripts split by
  /// delinearization (symbols such as `m` in `a[i*m + j]`).
  std::vector<Polynomial> DimExtents;
  /// Per access: delinearized subscripts (outermost first), as polynomials over the loop
  /// variables and invariant symbols.
  std::vector<std::vector<Polynomial>> Subscripts;
  bool Affine = true;        ///< All subscripts are affine; else the box is the whole object.
};

/// A recognized reduction.
struct Reduction {
  const clang::VarDecl *Var = nullptr;
  std::string Name;
  std::string Op; ///< "+", "*", "min", "max", "&", "|", "^"
  bool IsFloat = false;
  bool FromClause = false;
};

/// An ordered append target.
struct Append {
  const clang::VarDecl *Var = nullptr;
  std::string Name;
};

/// Result of analyzing one annotated loop.
struct LoopResult {
  bool Accepted = false;
  std::vector<RejectReason> Reasons;
  std::vector<CanonicalLoop> Nest;   ///< One entry, or collapse(n) entries.
  std::vector<Region> Regions;
  std::vector<Reduction> Reductions;
  std::vector<Append> Appends;
  std::vector<const clang::FunctionDecl *> Callees; ///< Closure of called functions, callees
                                                    ///< first.
  std::vector<const clang::RecordDecl *> Records;   ///< Record types the body uses.
  std::vector<std::string> MathCalls;               ///< Standard math functions used.
  /// Loop variables of inner loops, with their inclusive ranges as polynomials.
  std::vector<std::pair<PolyVar, PolyRange>> InnerRanges;
  PolyVar Outer; ///< The normalized iteration variable of the parallel loop.
  unsigned Score = 0;
  unsigned Level = 1;
  double WorkPerIter = 1.0;
};

/// Most variables one term of a subscript may multiply: the capacity of a term of the box
/// program the rewriter emits (clustrix::rt::BoxTerm::Factor in clustrix/Runtime.h). A
/// subscript beyond it is treated as not affine.
constexpr unsigned MaxBoxFactors = 4;

/// The key of the normalized iteration variable of nest level L (0 to 2) in every polynomial
/// the analysis produces: the same for all loops, so that it survives copies of the result.
const void *normalizedVarKey(unsigned Level);

/// Whether every term of P fits a box-program term.
bool fitsBoxProgram(const Polynomial &P);

/// Analysis options.
struct AnalysisOptions {
  unsigned MaxLevel = 5; ///< Loops above this complexity level are refused.
};

/// Analyzes loops of one translation unit.
class LoopAnalyzer {
public:
  LoopAnalyzer(clang::ASTContext &Ctx, AnalysisOptions Opts) : Ctx(Ctx), Opts(Opts) {}
  /// Analyzes Loop (a ForStmt or CXXForRangeStmt) under the given clauses. Enclosing is the
  /// function the loop is in.
  LoopResult analyze(const clang::Stmt *Loop, const LoopClauses &Clauses,
                     const clang::FunctionDecl *Enclosing);

private:
  clang::ASTContext &Ctx;
  AnalysisOptions Opts;
};

/// Complexity level (1..5) of a score; the thresholds are documented in docs/score.md.
unsigned complexityLevel(unsigned Score);

} // namespace clustrix

#endif // CLUSTRIX_ANALYSIS_LOOPANALYSIS_H
