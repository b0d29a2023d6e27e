//===- clustrix/Runtime.h - Loop descriptor and entry point -----*- C++ -*-===//
//
// The one interface between code that clustrix-rewrite (or the plugin) generates and the runtime
// library libclustrix_rt. Generated code fills a static LoopInfo (what the compiler proved) and a
// LoopArgs (what only run time knows) and calls clustrix::rt::runLoop. docs/descriptor.md is the
// reference; keep the two in step, and bump CLUSTRIX_RT_ABI_VERSION on any layout change.
//
// This header is plain C++17 with no dependencies, so the rewritten source compiles with g++,
// clang++ and nvcc alike. The kinds and the records that generated code writes as brace
// initializers are declared from the rows of clustrix/Descriptor.def, which the compiler reads
// too: a field or a kind added there cannot be forgotten by the rewriter.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RUNTIME_H
#define CLUSTRIX_RUNTIME_H

#include <cstddef>
#include <cstdint>
#include <iterator> // std::size: generated code counts a range-for's range with it
#include <limits>
#include <new>
#include <type_traits>
#include <utility>

#define CLUSTRIX_RT_ABI_VERSION 6

namespace clustrix {
namespace rt {

/// How iterations are split into chunks. Default means "the configured default schedule".
enum class Schedule : uint8_t {
#define CLUSTRIX_SCHEDULE(Name, Value, Spelling) Name = Value,
#include "Descriptor.def"
};

/// Reduction operators the compiler recognizes.
enum class ReduceOp : uint8_t {
#define CLUSTRIX_REDUCE_OP(Name, Spelling) Name,
#include "Descriptor.def"
};

/// Scalar types a reduction or a kernel scalar parameter may have.
enum class ScalarKind : uint8_t { I8, U8, I16, U16, I32, U32, I64, U64, F32, F64 };

/// Access flags of a region.
enum : uint8_t { AccessRead = 1, AccessWrite = 2, AccessReadWrite = 3 };

/// What the compiler knows statically about one array (a "region") the loop touches: Name,
/// Access, Rank, FullWrite, MayAlias.
struct RegionInfo {
#define CLUSTRIX_REGION_INFO_FIELD(Type, Name, Extent) Type Name Extent;
#include "Descriptor.def"
};

/// A box of one region for one iteration range: per dimension the index range [Lo, Hi), row-major
/// with the given extents (Extent[Rank-1] is the innermost, contiguous dimension). Base is the
/// address of element (0, ..., 0). Extent[0] may be -1 when the outermost extent is unknown.
struct Box {
  void *Base;
  size_t ElemSize;
  int64_t Extent[3];
  int64_t Lo[3];
  int64_t Hi[3];
};

/// Per-chunk state handed to the host chunk function: the chunk's private reduction partials and
/// ordered-append buffers. The generated code reaches them through partial<T>() and appendBuffer.
struct ChunkContext {
  void **Partials;        ///< One pointer per reduction, to storage of that reduction's type.
  void **AppendBuffers;   ///< One pointer per ordered append, to a container of the target's type.
  uint64_t Lo, Hi;        ///< The chunk's iteration range, in normalized iterations.
  int Device;             ///< Index of the device running the chunk (in the loop's device list),
                          ///< or -1 when the caller runs the whole loop in place (runInPlace).
};

/// Runs normalized iterations [Lo, Hi) of the loop body on the host, in place.
using ChunkFn = void (*)(void *Env, uint64_t Lo, uint64_t Hi, ChunkContext &Ctx);
/// Fills one Box per region for normalized iterations [Lo, Hi).
using BoxFn = void (*)(void *Env, uint64_t Lo, uint64_t Hi, Box *Out);

/// A reduction variable: its kind, operator and the user's variable the result lands in.
struct ReductionSlot {
  ScalarKind Kind;
  ReduceOp Op;
  void *Target;
};

/// An ordered append target (a std::vector-like container). The runtime creates one buffer per
/// chunk and merges the buffers into Target in iteration order.
struct AppendSlot {
  void *Target;
  void *(*Create)();
  void (*Merge)(void *Target, void *Buffer);
  void (*Destroy)(void *Buffer);
};

/// Kind of one parameter of the generated CUDA kernel, in the kernel's parameter order: Lo, Hi
/// (the launch's range), Region, Scalar, Partial.
enum class KernelParamKind : uint8_t {
#define CLUSTRIX_KERNEL_PARAM(Name) Name,
#include "Descriptor.def"
};

/// One parameter of the generated CUDA kernel: Kind, Index (region, scalar or reduction index,
/// by kind), Size (bytes of a Scalar parameter).
struct KernelParam {
#define CLUSTRIX_KERNEL_PARAM_FIELD(Type, Name, Extent) Type Name Extent;
#include "Descriptor.def"
};

/// What the runtime remembers about one loop between its calls: how it decided (and measured)
/// serial against wide per class of trip counts, and its last plan. Generated code keeps one
/// per loop as a static, zero-initialized, and points LoopInfo::Site at it; only the runtime
/// reads or writes State (atomically), which it allocates on the loop's first call.
struct LoopSite {
  void *State;
  /// The runtime's last decision for this loop when it was serial, published for keepSerial: a
  /// call with trip count SerialTrip under the settings SerialSettings runs serially, SerialCalls
  /// more times (0: no such decision). Written by the runtime, read and counted down by
  /// keepSerial, all with atomic accesses.
  uint64_t SerialTrip;
  uint64_t SerialCalls;
  const void *SerialSettings;
};

/// The settings in force (the runtime's snapshot of them); null before their first use and after
/// resetConfiguration(). Compared by keepSerial with LoopSite::SerialSettings.
extern const void *ActiveSettings;

/// Nonzero while a device holds data for a residency scope (docs/data-movement.md#residency):
/// then no loop may run in place without runLoop, which first brings the data back.
extern uint64_t ResidentHeld;

/// A residency scope: between enterResidency() and the matching leaveResidency(), what annotated
/// loops write on GPUs stays there until the host needs it. The compiler opens one around a
/// group of annotated loops when it proves that no host code in between touches their memory;
/// leaving the outermost scope copies back whatever the devices hold. Scopes nest; only the
/// thread that opened the outermost one keeps data on devices.
void enterResidency();
void leaveResidency();
/// Host code in a scope that reads Bytes at Element (one element of an array the scope's loops
/// may keep on devices): a device's newer copy of exactly those bytes comes back first; the
/// devices keep theirs. Outside a scope, or with nothing on a device, it does nothing. Where
/// ("file:line" of the statement) names it in the error if a lost device held the bytes.
void hostReads(const void *Element, std::size_t Bytes, const char *Where);
/// Host code in a scope that writes Bytes at Element: the host's copy of those bytes is made
/// current (a compound assignment reads them too), and the devices' copies are dropped, so that
/// the next loop that reads them takes the host's.
void hostWrites(const void *Element, std::size_t Bytes, const char *Where);

/// What generated code declares: the scope ends however the block is left (a return, a break,
/// an exception).
class ResidencyScope {
public:
  ResidencyScope() { enterResidency(); }
  ~ResidencyScope() { leaveResidency(); }
  ResidencyScope(const ResidencyScope &) = delete;
  ResidencyScope &operator=(const ResidencyScope &) = delete;
};

/// What the compiler proved about the loop. Generated code keeps one per loop as a static.
/// Fields (docs/descriptor.md): AbiVersion, File, Line, Column, Sched, ChunkSize, MaxDevices,
/// MinItersPerDevice, Level, Score, WorkPerIter, ForceDisabled, Regions, NumRegions, KernelName,
/// KernelSource, KernelHash, Params, NumParams, GuardedHeader, Site.
struct LoopInfo {
#define CLUSTRIX_LOOP_INFO_FIELD(Type, Name, Extent) Type Name Extent;
#include "Descriptor.def"
};

/// What only the execution knows.
struct LoopArgs {
  uint64_t TripCount;
  ChunkFn Host;
  void *HostEnv;
  BoxFn Boxes;                ///< May be null when NumRegions is 0.
  void *BoxEnv;
  ReductionSlot *Reductions;
  uint32_t NumReductions;
  AppendSlot *Appends;
  uint32_t NumAppends;
  const void *const *Scalars; ///< Addresses of the kernel's scalar parameters.
  uint32_t NumScalars;
  /// When greater than 1, boxes are exact only for ranges that start and end on multiples of
  /// BoxAlign (a collapsed nest, where BoxAlign is the product of the inner trip counts): the
  /// planner then cuts chunks on such multiples, so that every chunk covers whole rows.
  uint64_t BoxAlign;
  /// The hulls of the writes alone (Env: BoxEnv); null: Boxes. Chunks that run in place in the
  /// host's memory must keep these apart; a device that copies boxes back writes whole boxes.
  BoxFn WriteBoxes;
  /// 1 when the last of Reductions (U64, Max) carries the errno of the kernel's math calls,
  /// where math errno is kept: a chunk run by a kernel leaves in it 0, or (k + 1) * 4 + E for
  /// its last error in iteration order, at normalized iteration k, E 1 for EDOM and 2 for
  /// ERANGE. The runtime makes errno of it as of a host chunk's (Execution::lastErrno).
  uint32_t MathErrors;
};

/// Result of runLoop.
enum class RunStatus : uint8_t {
  Done,      ///< All iterations ran (wide, or serially through the host chunk function).
  Serial,    ///< Nothing ran: the caller must run the loop serially (runInPlace).
  AsWritten, ///< Nothing ran: the loop writes what its header reads (LoopInfo::GuardedHeader
             ///< and the regions alias), so its trip count is not the one computed before it:
             ///< the caller must run the loop exactly as written.
};

/// Runs the loop: plans chunks over the configured devices, executes, merges reductions and
/// appends, and recovers from device faults. Returns Serial when the caller should run the
/// loop itself (too small, disabled, a failed runtime check before anything ran).
RunStatus runLoop(const LoopInfo &Info, const LoopArgs &Args);

/// Whether the runtime already decided that this call of the loop (its trip count, the current
/// settings) runs serially, as it decided its last call with that trip count: then generated code
/// runs the loop in place at once (runInPlace), without building LoopArgs or calling runLoop.
/// Counts the call, so that the runtime can look at the loop again now and then. False for a
/// loop without a LoopSite. Inline and a few loads: the whole cost of a loop kept serial. A read
/// torn by a concurrent publication can only run a call serially, which is always correct.
inline bool keepSerial(const LoopInfo &Info, uint64_t TripCount) {
  LoopSite *S = Info.Site;
  if (!S || __atomic_load_n(&S->SerialTrip, __ATOMIC_RELAXED) != TripCount ||
      __atomic_load_n(&ResidentHeld, __ATOMIC_RELAXED))
    return false;
  uint64_t N = __atomic_load_n(&S->SerialCalls, __ATOMIC_ACQUIRE);
  const void *Settings = __atomic_load_n(&S->SerialSettings, __ATOMIC_RELAXED);
  if (N == 0 || !Settings || Settings != __atomic_load_n(&ActiveSettings, __ATOMIC_RELAXED))
    return false;
  __atomic_store_n(&S->SerialCalls, N - 1, __ATOMIC_RELAXED);
  return true;
}

/// Logs (at info level) that the loop runs exactly as written, serially: generated code calls it
/// when the loop's trip count cannot be represented (a zero step, a wrap-around, a `!=` bound
/// never met), where runLoop is not called at all.
void noteAsWritten(const LoopInfo &Info);

/// Registers an ahead-of-time compiled image (cubin or fatbin) for a kernel, so that the runtime
/// needs no NVRTC for it. Called from static initializers that nvcc-compiled sources contain.
void registerKernelImage(const char *KernelName, uint64_t KernelHash, const void *Image,
                         size_t Size);

/// Registers a kernel that nvcc compiled into the program: Getter returns its
/// context-independent handle (a cudaKernel_t from cudaGetKernel), or null when the CUDA runtime
/// cannot give one. It is called only when the kernel is first needed, so that programs that
/// never reach a GPU never initialize CUDA. Preferred to images and to NVRTC.
void registerKernelGetter(const char *KernelName, uint64_t KernelHash, void *(*Getter)());

/// The extent of the heap block that holds P, in elements of ElemSize bytes relative to P, for
/// reads through a pointer whose extent the source does not give (docs/data-movement.md,
/// "Extents of heap blocks"). For a live block of Size requested bytes at Start, with
/// Start <= P < Start + Size: allocationLo is -((P - Start) / ElemSize), so that element Lo of P
/// is the first whole element in the block, and allocationHi is (Start + Size - P) / ElemSize, so
/// that P[0..Hi) lies wholly in it. Unknown (P null, ElemSize 0, P in no recorded block: a block
/// under 256 bytes, stack or static memory, or the runtime's malloc is not the program's): Lo is
/// 0 and Hi is -1, and the caller runs the loop serially.
int64_t allocationLo(const void *P, size_t ElemSize) noexcept;
int64_t allocationHi(const void *P, size_t ElemSize) noexcept;

//===----------------------------------------------------------------------===//
// Box programs: the per-dimension index hulls of a loop's accesses as data, evaluated by the
// runtime with interval arithmetic (generated code stays small and cheap to compile).
//===----------------------------------------------------------------------===//

/// One term of a subscript polynomial: Coef times the product of NumFactors variables
/// Factor[0..NumFactors). A variable index is < NumNest for the nest's normalized iteration
/// variables, then come the inner loops' variables, then the symbols (loop-invariant values).
struct BoxTerm {
#define CLUSTRIX_BOX_TERM_FIELD(Type, Name, Extent) Type Name Extent;
#include "Descriptor.def"
};

/// A polynomial: Terms[First, First + Count).
struct BoxExpr {
#define CLUSTRIX_BOX_EXPR_FIELD(Type, Name, Extent) Type Name Extent;
#include "Descriptor.def"
};

/// One access of region Region: the expression of each of its Rank dimensions,
/// Exprs[First, First + Rank).
struct BoxAccess {
#define CLUSTRIX_BOX_ACCESS_FIELD(Type, Name, Extent) Type Name Extent;
#include "Descriptor.def"
};

/// The box program of a loop: NumNest collapsed levels, NumInner inner loop variables,
/// NumSymbols symbols, the Terms and Exprs tables, InnerRange, the Accesses and every region's
/// Rank. Inner variable I ranges over [Exprs[InnerRange[2I]].Lo, Exprs[InnerRange[2I+1]].Hi]
/// (its bounds may mention enclosing variables).
struct BoxProgram {
#define CLUSTRIX_BOX_PROGRAM_FIELD(Type, Name, Extent) Type Name Extent;
#include "Descriptor.def"
};

/// Evaluates the hull of every region's accesses for normalized iterations [Lo, Hi) of a nest
/// whose levels have trip counts Trips[0..NumNest): Out[R].Lo/Hi[D] for D < Rank[R] (Hi
/// exclusive; Lo = Hi = 0 when no access of R happens, e.g. all under empty inner loops). Base,
/// ElemSize and Extent are left to the caller. With WritesOnly, the hulls of the writing
/// accesses alone.
void evalBoxHulls(const BoxProgram &P, const uint64_t *Trips, const int64_t *Symbols, uint64_t Lo,
                  uint64_t Hi, Box *Out, bool WritesOnly = false);

/// What a region's box takes from the loop besides its hull, evaluated once before runLoop: the
/// address of element (0, ..., 0) (Base), the element size and the extents (-1: unknown). A
/// region without affine subscripts is read whole: its box is [WholeLo, WholeHi) in dimension 0
/// (an extent clause: [0, count); the heap block that holds Base: allocationLo/Hi). A WholeHi
/// below 0 says the extent is unknown: the loop runs serially.
struct BoxFrame {
#define CLUSTRIX_BOX_FRAME_FIELD(Type, Name, Extent) Type Name Extent;
#include "Descriptor.def"
};

/// The environment of programBoxes: a loop's box Program with its Trips, Symbols (null when it
/// has none) and one of the Frames per region.
struct ProgramBoxes {
#define CLUSTRIX_PROGRAM_BOXES_FIELD(Type, Name, Extent) Type Name Extent;
#include "Descriptor.def"
};

/// The BoxFn of generated code (Env: a ProgramBoxes): the hulls of evalBoxHulls, completed with
/// each region's frame. Generated code then needs no function of its own for boxes.
void programBoxes(void *Env, uint64_t Lo, uint64_t Hi, Box *Out);
/// The same over the writing accesses alone: a region the loop does not write gets an empty box.
void programWriteBoxes(void *Env, uint64_t Lo, uint64_t Hi, Box *Out);

//===----------------------------------------------------------------------===//
// Helpers used by generated code. Header-only so that they inline into the chunk functions.
//===----------------------------------------------------------------------===//

/// Comparison of a canonical loop's condition, with the induction variable on the left.
enum class Cmp : uint8_t {
#define CLUSTRIX_CMP(Name, Spelling) Name,
#include "Descriptor.def"
};

/// Trip count of a canonical loop (Count), or Ok=false when it cannot be represented (zero
/// step, a step whose direction never reaches the bound, an inexact `!=` on a signed type, or
/// more than 2^64-1 iterations). The caller then runs the loop serially, exactly as written.
struct Trip {
#define CLUSTRIX_TRIP_FIELD(Type, Name, Extent) Type Name Extent;
#include "Descriptor.def"
};

/// Trip count of `for (T i = Init; i CMP Bound; i += Step)` where Step is given as a magnitude
/// and a direction (Up: i increases). Computed without overflow in the unsigned type of T.
template <class T>
constexpr Trip tripCount(T Init, T Bound, Cmp C, std::make_unsigned_t<T> StepMag, bool Up) {
  static_assert(std::is_integral<T>::value, "induction variable must be an integer");
  using U = std::make_unsigned_t<T>;
  if (StepMag == 0)
    return {0, false};
  if (C == Cmp::NE) {
    if (Init == Bound)
      return {0, true};
    if (std::is_signed<T>::value && (Up ? !(Init < Bound) : !(Init > Bound)))
      return {0, false}; // reaching the bound would need signed overflow
    U Dist = Up ? static_cast<U>(static_cast<U>(Bound) - static_cast<U>(Init))
                : static_cast<U>(static_cast<U>(Init) - static_cast<U>(Bound));
    if (Dist % StepMag != 0)
      return {0, false}; // never equal: the serial loop does not end normally
    return {static_cast<uint64_t>(Dist / StepMag), true};
  }
  bool Less = C == Cmp::LT || C == Cmp::LE;
  bool Strict = C == Cmp::LT || C == Cmp::GT;
  bool Enters = Less ? (Strict ? Init < Bound : Init <= Bound)
                     : (Strict ? Init > Bound : Init >= Bound);
  if (!Enters)
    return {0, true};
  if (Up != Less)
    return {0, false}; // moves away from the bound: overflow or wrap-around, never a clean exit
  // Span is exact because Init is on the entering side of Bound.
  U Span = Less ? static_cast<U>(static_cast<U>(Bound) - static_cast<U>(Init))
                : static_cast<U>(static_cast<U>(Init) - static_cast<U>(Bound));
  // Index of the last iteration.
  U Last = Strict ? static_cast<U>((Span - 1) / StepMag) : static_cast<U>(Span / StepMag);
  // After the last iteration, i += step must leave the range without wrapping past the type's
  // end (a wrap would make an unsigned loop go on, and is undefined for a signed one).
  U Room = Less ? static_cast<U>(static_cast<U>(std::numeric_limits<T>::max()) -
                                 static_cast<U>(Init))
                : static_cast<U>(static_cast<U>(Init) -
                                 static_cast<U>(std::numeric_limits<T>::min()));
  if (static_cast<U>(Room - static_cast<U>(Last * StepMag)) < StepMag)
    return {0, false};
  if (static_cast<uint64_t>(Last) == std::numeric_limits<uint64_t>::max())
    return {0, false};
  return {static_cast<uint64_t>(Last) + 1, true};
}

/// Trip count when the condition compares in a type C other than the induction variable's type
/// T (e.g. `int i; i < v.size()`). Besides tripCount in C, every visited value must be
/// representable in T without wrapping and convert to C unchanged; otherwise the serial loop's
/// behaviour is not a plain count and the caller runs it as written.
template <class T, class C>
constexpr Trip tripCountMixed(T Init, C Bound, Cmp Op, std::make_unsigned_t<T> StepMag, bool Up) {
  if constexpr (std::is_same<T, C>::value) {
    return tripCount<T>(Init, Bound, Op, StepMag, Up);
  } else {
    using UT = std::make_unsigned_t<T>;
    using UC = std::make_unsigned_t<C>;
    if (StepMag == 0 || static_cast<UC>(StepMag) != StepMag)
      return {0, false};
    Trip R = tripCount<C>(static_cast<C>(Init), Bound, Op, static_cast<UC>(StepMag), Up);
    if (!R.Ok || R.Count == 0)
      return R;
    // The exit value Init +/- Count*Step must be representable in T.
    UT Room = Up ? static_cast<UT>(static_cast<UT>(std::numeric_limits<T>::max()) -
                                   static_cast<UT>(Init))
                 : static_cast<UT>(static_cast<UT>(Init) -
                                   static_cast<UT>(std::numeric_limits<T>::min()));
    if (static_cast<uint64_t>(Room / StepMag) < R.Count)
      return {0, false};
    // Signed T compared in unsigned C: every visited value must be non-negative.
    if (std::is_signed<T>::value && !std::is_signed<C>::value) {
      if (Init < 0)
        return {0, false};
      if (!Up && static_cast<uint64_t>(static_cast<UT>(Init) / StepMag) < R.Count)
        return {0, false};
    }
    return R;
  }
}

/// Product of collapsed trip counts, or Ok=false on overflow.
constexpr Trip tripProduct(Trip A, Trip B) {
  if (!A.Ok || !B.Ok)
    return {0, false};
  if (A.Count != 0 && B.Count > std::numeric_limits<uint64_t>::max() / A.Count)
    return {0, false};
  return {A.Count * B.Count, true};
}

/// Advances a collapsed multi-index Idx (outermost first) with extents Ext by one.
inline void advanceIndex(uint64_t *Idx, const uint64_t *Ext, unsigned N) {
  for (unsigned D = N; D-- > 0;) {
    if (++Idx[D] < Ext[D] || D == 0)
      return;
    Idx[D] = 0;
  }
}

/// A closed integer interval, for the box arithmetic of generated code. Empty when Lo > Hi.
struct Ival {
  int64_t Lo, Hi;
};
constexpr Ival ivalOf(int64_t V) { return {V, V}; }
constexpr Ival ivalAdd(Ival A, Ival B) { return {A.Lo + B.Lo, A.Hi + B.Hi}; }
constexpr Ival ivalMul(Ival A, Ival B) {
  int64_t P[4] = {A.Lo * B.Lo, A.Lo * B.Hi, A.Hi * B.Lo, A.Hi * B.Hi};
  Ival R{P[0], P[0]};
  for (int I = 1; I < 4; ++I) {
    R.Lo = P[I] < R.Lo ? P[I] : R.Lo;
    R.Hi = P[I] > R.Hi ? P[I] : R.Hi;
  }
  return R;
}
constexpr Ival ivalHull(Ival A, Ival B) {
  return {A.Lo < B.Lo ? A.Lo : B.Lo, A.Hi > B.Hi ? A.Hi : B.Hi};
}

/// Value of the induction variable at normalized iteration K.
template <class T>
constexpr T inductionValue(T Init, std::make_unsigned_t<T> StepMag, bool Up, uint64_t K) {
  using U = std::make_unsigned_t<T>;
  U Off = static_cast<U>(static_cast<U>(K) * StepMag);
  return static_cast<T>(Up ? static_cast<U>(static_cast<U>(Init) + Off)
                           : static_cast<U>(static_cast<U>(Init) - Off));
}

/// Magnitude of a possibly negative step, in the unsigned type of T.
template <class T, class S>
constexpr std::make_unsigned_t<T> stepMagnitude(S Step) {
  using U = std::make_unsigned_t<T>;
  if constexpr (std::is_signed<S>::value)
    return Step < 0 ? static_cast<U>(0 - static_cast<U>(Step)) : static_cast<U>(Step);
  else
    return static_cast<U>(Step);
}

/// Whether a step is an increase; unsigned steps always are, except where written as `-=`.
template <class S> constexpr bool stepUp(S Step) {
  if constexpr (std::is_signed<S>::value)
    return Step >= 0;
  else
    return true;
}

template <class T> constexpr ScalarKind scalarKindOf() {
  if constexpr (std::is_same<T, float>::value) return ScalarKind::F32;
  else if constexpr (std::is_same<T, double>::value) return ScalarKind::F64;
  else {
    static_assert(std::is_integral<T>::value, "reduction type must be arithmetic");
    if constexpr (sizeof(T) == 1) return std::is_signed<T>::value ? ScalarKind::I8 : ScalarKind::U8;
    else if constexpr (sizeof(T) == 2) return std::is_signed<T>::value ? ScalarKind::I16 : ScalarKind::U16;
    else if constexpr (sizeof(T) == 4) return std::is_signed<T>::value ? ScalarKind::I32 : ScalarKind::U32;
    else return std::is_signed<T>::value ? ScalarKind::I64 : ScalarKind::U64;
  }
}

/// A chunk's private partial of reduction I, as the reduction's type.
template <class T> T &partial(ChunkContext &Ctx, unsigned I) {
  return *static_cast<T *>(Ctx.Partials[I]);
}

/// A chunk's private buffer of ordered append I, of the target's container type.
template <class C> C &appendBuffer(ChunkContext &Ctx, unsigned I) {
  return *static_cast<C *>(Ctx.AppendBuffers[I]);
}

/// The address of a loop's own reduction or append variable, whatever operator& it has.
template <class T> void *ownAddress(T &X) {
#if defined(__GNUC__) || defined(__clang__)
  return const_cast<void *>(static_cast<const volatile void *>(__builtin_addressof(X)));
#else
  return const_cast<void *>(static_cast<const volatile void *>(
      &reinterpret_cast<const volatile char &>(X)));
#endif
}

/// An AppendSlot for a std::vector-like container (push_back/emplace_back, insert at end). Its
/// Target is the container's own address (the runtime also runs the loop in place on it).
template <class C> AppendSlot appendSlot(C &Target) {
  AppendSlot S;
  S.Target = ownAddress(Target);
  S.Create = []() -> void * { return new C(); };
  S.Merge = [](void *T, void *B) {
    C &Dst = *static_cast<C *>(T);
    C &Src = *static_cast<C *>(B);
    Dst.reserve(Dst.size() + Src.size());
    for (auto &E : Src)
      Dst.push_back(std::move(E));
  };
  S.Destroy = [](void *B) { delete static_cast<C *>(B); };
  return S;
}

template <class T> ReductionSlot reductionSlot(T &Target, ReduceOp Op) {
  return ReductionSlot{scalarKindOf<T>(), Op, ownAddress(Target)};
}

/// Keeps a function out of line.
#if defined(__GNUC__) || defined(__clang__)
#define CLUSTRIX_RT_NOINLINE __attribute__((noinline))
#else
#define CLUSTRIX_RT_NOINLINE
#endif
/// Marks the lambda holding a loop exactly as written, which generated code runs only when the
/// loop's trip count cannot be represented (a zero step, a wrap-around, a `!=` never met): kept
/// out of line and, under Clang, not optimized, so that the copy costs little to compile.
#if defined(__clang__)
#define CLUSTRIX_RT_AS_WRITTEN __attribute__((noinline, cold, optnone))
#elif defined(__GNUC__)
#define CLUSTRIX_RT_AS_WRITTEN __attribute__((noinline, cold))
#else
#define CLUSTRIX_RT_AS_WRITTEN
#endif
/// Marks the loop as written of a loop whose header reads a guard region (RunStatus::AsWritten):
/// it runs whenever the loop's writes reach what its header reads, so it is optimized as the
/// loop itself would be.
#define CLUSTRIX_RT_AS_WRITTEN_GUARDED CLUSTRIX_RT_NOINLINE

/// Runs all Trips normalized iterations of a loop through its host chunk function, serially, in
/// order, on the calling thread, with every reduction and append working directly on the loop's
/// own variables (Own: the reductions' addresses, then the appends'): the same operations in the
/// same order as the loop as written. Generated code calls it when runLoop returns Serial.
template <class F> void runInPlace(F &Chunk, uint64_t Trips, void **Own, uint32_t NumReductions);

/// Adapts a callable to ChunkFn / BoxFn. The chunk function is kept out of line, so that the
/// runtime's calls and runInPlace share one compiled copy of the loop body. It runs a copy of
/// the closure made on its own frame: nothing the body writes can then change the captures (the
/// addresses of the variables captured by reference, the values of those captured by copy), so
/// the optimizer keeps them in registers as it does in the loop as written.
template <class F>
CLUSTRIX_RT_NOINLINE void chunkThunk(void *Env, uint64_t Lo, uint64_t Hi, ChunkContext &Ctx) {
  F Local(*static_cast<F *>(Env));
  Local(Lo, Hi, Ctx);
}

/// Stores a chunk's local copy of a reduction variable (Value) back to its partial (Home) when
/// the chunk function returns or throws: the body then accumulates in a local the optimizer can
/// keep in a register, and the partial, which may be the loop's own variable, ends as the serial
/// loop leaves it.
template <class T> struct StoreBack {
  T &Home;
  const T &Value;
  ~StoreBack() { Home = Value; }
};

template <class F> void runInPlace(F &Chunk, uint64_t Trips, void **Own, uint32_t NumReductions) {
  ChunkContext Ctx{Own, Own ? Own + NumReductions : nullptr, 0, Trips, -1};
  chunkThunk<F>(&Chunk, 0, Trips, Ctx);
}
template <class F> void boxThunk(void *Env, uint64_t Lo, uint64_t Hi, Box *Out) {
  (*static_cast<F *>(Env))(Lo, Hi, Out);
}

} // namespace rt
} // namespace clustrix

#endif // CLUSTRIX_RUNTIME_H
