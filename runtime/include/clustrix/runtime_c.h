/*===- clustrix/runtime_c.h - The C interface of libclustrix_rt -*- C -*-===*\
 *
 * What the code that Clustrix generates for a C translation unit includes in place of
 * clustrix/Runtime.h (which is C++). The records the compiler writes as brace initializers
 * (LoopInfo, RegionInfo, the box program, ...) are declared from the same rows of
 * clustrix/Descriptor.def, with the same layout, under the names clustrix_<Record>; the kinds
 * are enumerators clustrix_<Kind>_<Name>. LoopArgs, the chunk context and the reduction slot
 * have C forms of their own, which clustrix_run_loop translates. The helpers that are
 * templates in Runtime.h are out-of-line functions here, dispatched on the integer kinds.
 * docs/descriptor.md ("The C interface") is the reference.
 *
 * Plain C99 (also valid C++), with no dependency beyond <stddef.h> and <stdint.h>: it defines
 * no macro a user's program could meet (not even `bool`), and every name begins with
 * `clustrix_` or `CLUSTRIX_`.
 *
\*===----------------------------------------------------------------------===*/
#ifndef CLUSTRIX_RUNTIME_C_H
#define CLUSTRIX_RUNTIME_C_H

#include <stddef.h>
#include <stdint.h>

/* The ABI version of the records below; equal to CLUSTRIX_RT_ABI_VERSION of Runtime.h (the
 * runtime's C interface does not compile otherwise). */
#define CLUSTRIX_RT_C_ABI_VERSION 6
#ifndef CLUSTRIX_RT_ABI_VERSION
#define CLUSTRIX_RT_ABI_VERSION CLUSTRIX_RT_C_ABI_VERSION
#endif

#ifdef __cplusplus
extern "C" {
#define CLUSTRIX_C_BOOL bool
#define CLUSTRIX_C_NOEXCEPT noexcept
#else
#define CLUSTRIX_C_BOOL _Bool
#define CLUSTRIX_C_NOEXCEPT
#endif

/*===----------------------------------------------------------------------===*
 * Kinds: clustrix_Schedule_Block, clustrix_ReduceOp_Add, clustrix_Cmp_LT, ...
 *===----------------------------------------------------------------------===*/

enum {
#define CLUSTRIX_SCHEDULE(Name, Value, Spelling) clustrix_Schedule_##Name = Value,
#include "Descriptor.def"
  clustrix_Schedule_End_
};
enum {
#define CLUSTRIX_REDUCE_OP(Name, Spelling) clustrix_ReduceOp_##Name,
#include "Descriptor.def"
  clustrix_ReduceOp_End_
};
enum {
#define CLUSTRIX_CMP(Name, Spelling) clustrix_Cmp_##Name,
#include "Descriptor.def"
  clustrix_Cmp_End_
};
enum {
#define CLUSTRIX_KERNEL_PARAM(Name) clustrix_KernelParamKind_##Name,
#include "Descriptor.def"
  clustrix_KernelParamKind_End_
};

/* The scalar kinds of Runtime.h's ScalarKind, in its order: a reduction's type, and the
 * integer types of an induction variable and of its comparison. */
enum {
  clustrix_ScalarKind_I8,
  clustrix_ScalarKind_U8,
  clustrix_ScalarKind_I16,
  clustrix_ScalarKind_U16,
  clustrix_ScalarKind_I32,
  clustrix_ScalarKind_U32,
  clustrix_ScalarKind_I64,
  clustrix_ScalarKind_U64,
  clustrix_ScalarKind_F32,
  clustrix_ScalarKind_F64
};

/* The enumerations are stored in one byte, as Runtime.h's `enum class ... : uint8_t`. */
typedef uint8_t clustrix_Schedule;
typedef uint8_t clustrix_KernelParamKind;

/*===----------------------------------------------------------------------===*
 * The records of Descriptor.def: clustrix_Trip, clustrix_RegionInfo, clustrix_LoopInfo, ...
 * Field types that name a kind or another record are renamed while the rows expand.
 *===----------------------------------------------------------------------===*/

/* Runtime.h's LoopSite: where the runtime keeps its state of one loop. Generated code keeps one
 * per loop, zero-initialized, and only the runtime reads or writes it. */
typedef struct clustrix_LoopSite {
  void *State;
  uint64_t SerialTrip;
  uint64_t SerialCalls;
  const void *SerialSettings;
} clustrix_LoopSite;

#define Schedule clustrix_Schedule
#define LoopSite clustrix_LoopSite
#define KernelParamKind clustrix_KernelParamKind
#define RegionInfo clustrix_RegionInfo
#define KernelParam clustrix_KernelParam
#define BoxTerm clustrix_BoxTerm
#define BoxExpr clustrix_BoxExpr
#define BoxAccess clustrix_BoxAccess
#define BoxProgram clustrix_BoxProgram
#define BoxFrame clustrix_BoxFrame
#if !defined(__cplusplus) && !defined(bool)
#define bool _Bool
#define CLUSTRIX_C_UNDEF_BOOL
#endif
#define CLUSTRIX_RECORD(Record) typedef struct clustrix_##Record {
#define CLUSTRIX_FIELD(Record, Type, Name, Extent) Type Name Extent;
#define CLUSTRIX_RECORD_END(Record) } clustrix_##Record;
#include "Descriptor.def"
#ifdef CLUSTRIX_C_UNDEF_BOOL
#undef bool
#undef CLUSTRIX_C_UNDEF_BOOL
#endif
#undef Schedule
#undef LoopSite
#undef KernelParamKind
#undef RegionInfo
#undef KernelParam
#undef BoxTerm
#undef BoxExpr
#undef BoxAccess
#undef BoxProgram
#undef BoxFrame

/*===----------------------------------------------------------------------===*
 * What only the execution knows
 *===----------------------------------------------------------------------===*/

/* Per-chunk state handed to the chunk function: Partials[R] points at the chunk's private
 * partial of reduction R (already the operator's identity); Lo and Hi are the chunk's range;
 * Device is the lane's position in the loop's device list, or -1 when the host runs the range
 * (after every device failed, or the whole loop in place after clustrix_run_loop returned 0). */
typedef struct clustrix_ChunkContext {
  void **Partials;
  uint64_t Lo, Hi;
  int Device;
} clustrix_ChunkContext;

/* Runs normalized iterations [Lo, Hi) of the loop's body on the calling thread, in place. */
typedef void (*clustrix_ChunkFn)(void *Env, uint64_t Lo, uint64_t Hi, clustrix_ChunkContext *Ctx);

/* A reduction: its kind (clustrix_ScalarKind_*), operator (clustrix_ReduceOp_*) and the user's
 * variable the result lands in. */
typedef struct clustrix_ReductionSlot {
  uint8_t Kind;
  uint8_t Op;
  void *Target;
} clustrix_ReductionSlot;

/* Runtime.h's LoopArgs for C: the box function is always the runtime's programBoxes, so only
 * its environment is given (null when the loop has no regions), and C has no ordered appends. */
typedef struct clustrix_LoopArgs {
  uint64_t TripCount;
  clustrix_ChunkFn Host;
  void *HostEnv;
  const clustrix_ProgramBoxes *Boxes;
  const clustrix_ReductionSlot *Reductions;
  uint32_t NumReductions;
  const void *const *Scalars; /* addresses of the kernel's scalar parameters */
  uint32_t NumScalars;
  uint64_t BoxAlign;
  uint32_t MathErrors; /* Runtime.h's LoopArgs::MathErrors */
} clustrix_LoopArgs;

/* Runtime.h's runLoop: 1 when every iteration ran, 0 when nothing ran and the caller must run
 * the loop itself (through its chunk function, with its own reduction variables as the
 * partials). */
int clustrix_run_loop(const clustrix_LoopInfo *Info,
                      const clustrix_LoopArgs *Args) CLUSTRIX_C_NOEXCEPT;

/* Runtime.h's noteAsWritten: logs (at info level) that the loop runs exactly as written. */
void clustrix_note_as_written(const clustrix_LoopInfo *Info) CLUSTRIX_C_NOEXCEPT;

/* Runtime.h's allocationLo and allocationHi: the extent, in elements of elem_size bytes relative
 * to p, of the heap block that holds p: elements [lo, hi) of p lie wholly in it. Unknown gives
 * lo 0 and hi -1 (the loop then runs serially). */
int64_t clustrix_allocation_lo(const void *p, size_t elem_size) CLUSTRIX_C_NOEXCEPT;
int64_t clustrix_allocation_hi(const void *p, size_t elem_size) CLUSTRIX_C_NOEXCEPT;

/* Runtime.h's enterResidency, leaveResidency, hostReads and hostWrites: a residency scope,
 * which generated C code opens and closes around statements that nothing leaves but their end,
 * and a host read or write of one element inside it. */
void clustrix_enter_residency(void) CLUSTRIX_C_NOEXCEPT;
void clustrix_leave_residency(void) CLUSTRIX_C_NOEXCEPT;
void clustrix_host_reads(const void *element, size_t bytes, const char *where) CLUSTRIX_C_NOEXCEPT;
void clustrix_host_writes(const void *element, size_t bytes,
                          const char *where) CLUSTRIX_C_NOEXCEPT;

/*===----------------------------------------------------------------------===*
 * Helpers of generated code (Runtime.h's templates, for C)
 *===----------------------------------------------------------------------===*/

/* tripCountMixed<T, C>: the trip count of `for (T i = Init; i CMP Bound; i += step)` compared
 * in type C, where VarKind and CmpKind are the integer kinds (clustrix_ScalarKind_I8 to _U64) of
 * T and C, Init and Bound the values converted to uint64_t, StepMag the step's magnitude in the
 * unsigned type of T, and Up its direction. Ok = 0 when the count cannot be represented; an
 * unknown kind gives Ok = 0 too. */
clustrix_Trip clustrix_trip_count(uint8_t VarKind, uint8_t CmpKind, uint64_t Init, uint64_t Bound,
                                  uint8_t Cmp, uint64_t StepMag,
                                  CLUSTRIX_C_BOOL Up) CLUSTRIX_C_NOEXCEPT;

/* tripProduct: the product of two trip counts, Ok = 0 on overflow. */
clustrix_Trip clustrix_trip_product(clustrix_Trip A, clustrix_Trip B) CLUSTRIX_C_NOEXCEPT;

/* inductionValue, before its conversion to the induction variable's type: Init plus or minus
 * K steps, modulo 2^64 (the conversion to the type then wraps as the serial loop's type would). */
static inline uint64_t clustrix_induction(uint64_t Init, uint64_t StepMag, CLUSTRIX_C_BOOL Up,
                                          uint64_t K) {
  uint64_t Off = K * StepMag;
  return Up ? Init + Off : Init - Off;
}

/* advanceIndex: advances the multi-index Idx (outermost first) of a collapsed nest with extents
 * Ext by one. */
static inline void clustrix_advance_index(uint64_t *Idx, const uint64_t *Ext, unsigned N) {
  unsigned D;
  for (D = N; D-- > 0;) {
    if (++Idx[D] < Ext[D] || D == 0)
      return;
    Idx[D] = 0;
  }
}

#undef CLUSTRIX_C_BOOL
#undef CLUSTRIX_C_NOEXCEPT

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CLUSTRIX_RUNTIME_C_H */
