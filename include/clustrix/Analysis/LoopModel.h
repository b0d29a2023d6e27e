//===- clustrix/Analysis/LoopModel.h - What the analysis finds ---*- C++ -*-===//
//
// The data model of one analyzed loop, apart from the analyzer: the canonical nest, the regions
// (arrays) it touches with their subscripts, its reductions and ordered appends, the functions
// and types its body needs, the complexity, and the reasons for a refusal. Decide and Rewrite
// read it; only lib/Analysis writes it.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_ANALYSIS_LOOPMODEL_H
#define CLUSTRIX_ANALYSIS_LOOPMODEL_H

#include "clustrix/Analysis/Polynomial.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"

#include <string>
#include <utility>
#include <vector>

namespace clustrix {

/// Why a loop was refused. Each kind has one entry in RejectKinds.def, one section in
/// docs/diagnostics.md and tests of its messages.
enum class RejectKind {
#define CLUSTRIX_REJECT_KIND(Enumerator, Name, Summary) Enumerator,
#include "clustrix/Analysis/RejectKinds.def"
};

/// A reason for refusal, with the offending expression's location for a note.
struct RejectReason {
  RejectKind Kind;
  std::string Message;       ///< Follows "loop not parallelized: ".
  clang::SourceLocation Loc; ///< Where the note points.
  std::string Note;          ///< The note's text; empty for no note.
  std::string Suggestion;    ///< A clause to add, e.g. "reduce(+: sum)"; empty for none.
  /// For an array dependence that certainly happens: two iterations that the exact test found
  /// touching one element, through two accesses that every point of the nest makes (no branch
  /// or early exit guards them). The OpenMP race check reports these, and only these, as races.
  struct RaceWitness {
    bool Certain = false;
    std::string Iterations;               ///< "iterations 0 and 1 (with n = 2)"
    /// The symbols the witness gives values (by key: the variable), with those values.
    std::vector<std::pair<const void *, int64_t>> Symbols;
    clang::SourceLocation First, Second;  ///< The write, and the other access.
    bool BothWrite = false;
  };
  RaceWitness Race = {};
  /// The refusal is of a call that threads may make at once, whose arguments the walk read:
  /// one that only writes values to a stdio stream (`fprintf(f, "%d\n", a[i])`; stdio locks
  /// each stream), or a query of the OpenMP runtime (`omp_get_thread_num()`). The OpenMP race
  /// check does not count it.
  bool ThreadSafeCall = false;
  /// A further note, where one tells why the refused object is not the iteration's own (a
  /// scratch array that privatization could not take, and what stopped it); empty for none.
  clang::SourceLocation DetailLoc = {};
  std::string Detail = {};
};

/// Stable name of a reject kind, for the report and the docs anchor.
const char *rejectKindName(RejectKind K);
/// What a reject kind covers, in a few words.
const char *rejectKindSummary(RejectKind K);

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

/// How the whole extent of an array is known. Allocation: a pointer read through subscripts
/// that are not affine, with no extent in the source: at run time, the heap block that holds it
/// (clustrix::rt::allocationLo/Hi), or serial when the runtime knows no such block.
enum class ExtentKind { Unknown, ConstantArray, Container, Clause, Allocation };

/// One array (or single object) the loop touches.
struct Region {
  std::string Name;          ///< Spelled base, e.g. "a", "this->data", "s.v".
  unsigned Access = 0;       ///< RegionRead | RegionWrite.
  unsigned Rank = 1;
  bool FullWrite = true;     ///< Every written element of a chunk's box is written by the chunk.
  /// Reached through a pointer, a reference, `this` or a view: it may overlap other regions,
  /// so the runtime compares its address range with theirs before going wide.
  bool MayAlias = false;
  /// Reached through a `restrict`-qualified pointer: by C's rules no other pointer of the block
  /// reaches an element the loop modifies through it.
  bool Restrict = false;
  /// The variable the region is reached through, when it is one (a pointer, array or object).
  const clang::ValueDecl *Base = nullptr;
  bool IsContainer = false;  ///< std::vector / std::array / std::span: Name.data() is the base.
  /// One scalar object (Name is the object, its box the single element at &Name). Such a region
  /// is read only: it is there for the runtime's alias check of the regions written through
  /// pointers, and kernels take the scalar by value, not as a region.
  bool Scalar = false;
  ExtentKind Extent = ExtentKind::Unknown;
  std::string ExtentText;    ///< Element count expression, when known.
  /// A pointer (not a container, not an array): its extent may be the heap block's.
  bool Pointer = false;
  /// A pointer to rows of variable length (`double (*in)[n]`, C's VLA types): the number of
  /// array levels of its pointee. The rows' extents are the type's, read with sizeof at run time
  /// (a VLA's size is fixed when its type is declared, whatever `n` is since).
  unsigned VariableRowLevels = 0;
  std::string ElemType;      ///< Spelled element type.
  std::vector<int64_t> ConstDims; ///< Extents of a C array's dimensions, outermost first.
  /// Extents of the dimensions after the first, for row-major subscripts split by
  /// delinearization (symbols such as `m` in `a[i*m + j]`).
  std::vector<Polynomial> DimExtents;
  /// Extents of the dimensions after the first, from the base's type: a C array's constant
  /// ones, and a variable length array's (or a pointer to such rows') where its size names an
  /// integer variable of the function that nothing changes, so that it still holds the
  /// extent at the loop. Invalid where the type does not tell; empty for a flat base.
  std::vector<Polynomial> RowExtents;
  /// Per access: delinearized subscripts (outermost first), as polynomials over the loop
  /// variables and invariant symbols.
  std::vector<std::vector<Polynomial>> Subscripts;
  /// Per access, parallel to Subscripts: whether it writes. A chunk's write box is the hull of
  /// the writes alone.
  std::vector<bool> Writes;
  /// Per access: whether only some points of the nest make it (Access::Guarded), and where it
  /// is. The OpenMP race check reads them for a witness of its own.
  std::vector<bool> Guarded;
  std::vector<std::vector<Polynomial>> Conds; ///< Access::Conds
  std::vector<clang::SourceLocation> Locs;
  bool Affine = true;        ///< All subscripts are affine; else the box is the whole object.
};

/// A recognized reduction.
struct Reduction {
  const clang::VarDecl *Var = nullptr;
  std::string Name;
  std::string Op; ///< "+", "*", "min", "max", "&", "|", "^"
  bool IsFloat = false;
  bool FromClause = false;
  /// A floating-point min or max without a clause: exact only when partials are combined in
  /// iteration order (the first of equal values wins), which CPU chunks do and a GPU's
  /// interleaved threads do not; such a loop has no GPU form.
  bool OrderedMinMax = false;
};

/// The largest array a chunk makes its own copy of (on its stack).
constexpr int64_t MaxPrivateArrayBytes = 64 * 1024;
/// The largest private array a GPU thread holds; a loop with a larger one runs on CPU devices.
constexpr int64_t MaxDevicePrivateArrayBytes = 1024;

/// A scalar (or a small one-dimensional array) of the enclosing function that every iteration
/// writes (fills) before reading it: each chunk has its own, and the chunk that runs the last
/// iteration leaves its value in the variable.
/// A variable declared before the loop that privatization considered and did not take, with
/// the first thing that stopped it (Privatize.cpp): a note for the refusal it then meets.
struct PrivateMiss {
  const clang::VarDecl *Var = nullptr;
  clang::SourceLocation Loc;
  std::string Why;
};

struct Private {
  const clang::VarDecl *Var = nullptr;
  std::string Name;
  /// The function may read the variable after the loop: the chunk that runs the last iteration
  /// hands its value back. False when every path from the loop's exit writes it first (or never
  /// reads it): then each chunk's copy is dropped, and a GPU thread may own it too.
  bool LiveOut = true;
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
  std::vector<Private> Privates;
  std::vector<PrivateMiss> PrivateMisses; ///< Arrays privatization did not take, and why.
  /// Variables declared outside the loop (or global) that the body or its callees write, as
  /// scalars; Privates are not among them.
  std::vector<const clang::VarDecl *> WrittenScalars;
  std::vector<const clang::FunctionDecl *> Callees; ///< Closure of called functions, callees
                                                    ///< first.
  std::vector<const clang::RecordDecl *> Records;   ///< Record types the body uses.
  std::vector<std::string> MathCalls;               ///< Standard math functions used.
  /// How generated code at the loop names the declarations outside the loop that the body
  /// reaches, as the analysis checked them (clustrix/AST/Spelling.h), by canonical declaration.
  std::map<const clang::Decl *, std::string> Spellings;
  /// Members the loop's function may not name, reached through pointer-to-member constants
  /// that the rewriter declares before that function (clustrix/AST/Spelling.h).
  std::vector<const clang::FieldDecl *> PrivateMembers;
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

/// Complexity level (1..5) of a score; the thresholds are documented in docs/score.md.
unsigned complexityLevel(unsigned Score);

} // namespace clustrix

#endif // CLUSTRIX_ANALYSIS_LOOPMODEL_H
