//===- CInterface.cpp - The extern "C" entry points of clustrix/runtime_c.h ===//
//
// Code generated for a C translation unit calls these. The records of Descriptor.def are
// declared twice, in Runtime.h and in runtime_c.h; the checks below, generated from the same
// rows, prove that the two declarations have one layout, so the C records are handed to runLoop
// as they are. LoopArgs and the chunk context differ (C has no references, no appends, no
// templates) and are translated per call.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Runtime.h"
#include "clustrix/runtime_c.h"

#include <cstddef>
#include <vector>

namespace rt = clustrix::rt;

static_assert(CLUSTRIX_RT_C_ABI_VERSION == CLUSTRIX_RT_ABI_VERSION,
              "runtime_c.h and Runtime.h disagree on the ABI version");

// Every record: same size and alignment, every field at the same offset.
#define CLUSTRIX_RECORD(Record)                                                                    \
  static_assert(sizeof(clustrix_##Record) == sizeof(rt::Record) &&                                 \
                    alignof(clustrix_##Record) == alignof(rt::Record),                             \
                "runtime_c.h: " #Record " differs from Runtime.h");
#define CLUSTRIX_FIELD(Record, Type, Name, Extent)                                                 \
  static_assert(offsetof(clustrix_##Record, Name) == offsetof(rt::Record, Name) &&                 \
                    sizeof(clustrix_##Record::Name) == sizeof(rt::Record::Name),                   \
                "runtime_c.h: " #Record "::" #Name " differs from Runtime.h");
#include "clustrix/Descriptor.def"

// The loop site, kept by generated code and read by the runtime alone.
static_assert(sizeof(clustrix_LoopSite) == sizeof(rt::LoopSite) &&
                  alignof(clustrix_LoopSite) == alignof(rt::LoopSite) &&
                  offsetof(clustrix_LoopSite, State) == offsetof(rt::LoopSite, State) &&
                  offsetof(clustrix_LoopSite, SerialTrip) == offsetof(rt::LoopSite, SerialTrip) &&
                  offsetof(clustrix_LoopSite, SerialCalls) == offsetof(rt::LoopSite, SerialCalls) &&
                  offsetof(clustrix_LoopSite, SerialSettings) ==
                      offsetof(rt::LoopSite, SerialSettings),
              "runtime_c.h: LoopSite differs from Runtime.h");

// Every kind: the same value.
#define CLUSTRIX_SCHEDULE(Name, Value, Spelling)                                                   \
  static_assert(clustrix_Schedule_##Name == static_cast<int>(rt::Schedule::Name), #Name);
#define CLUSTRIX_REDUCE_OP(Name, Spelling)                                                         \
  static_assert(clustrix_ReduceOp_##Name == static_cast<int>(rt::ReduceOp::Name), #Name);
#define CLUSTRIX_CMP(Name, Spelling)                                                               \
  static_assert(clustrix_Cmp_##Name == static_cast<int>(rt::Cmp::Name), #Name);
#define CLUSTRIX_KERNEL_PARAM(Name)                                                                \
  static_assert(clustrix_KernelParamKind_##Name == static_cast<int>(rt::KernelParamKind::Name),   \
                #Name);
#include "clustrix/Descriptor.def"

#define CLUSTRIX_CHECK_SCALAR_KIND(Name)                                                           \
  static_assert(clustrix_ScalarKind_##Name == static_cast<int>(rt::ScalarKind::Name), #Name);
CLUSTRIX_CHECK_SCALAR_KIND(I8)
CLUSTRIX_CHECK_SCALAR_KIND(U8)
CLUSTRIX_CHECK_SCALAR_KIND(I16)
CLUSTRIX_CHECK_SCALAR_KIND(U16)
CLUSTRIX_CHECK_SCALAR_KIND(I32)
CLUSTRIX_CHECK_SCALAR_KIND(U32)
CLUSTRIX_CHECK_SCALAR_KIND(I64)
CLUSTRIX_CHECK_SCALAR_KIND(U64)
CLUSTRIX_CHECK_SCALAR_KIND(F32)
CLUSTRIX_CHECK_SCALAR_KIND(F64)
#undef CLUSTRIX_CHECK_SCALAR_KIND

namespace {

/// The C chunk function and its environment, behind the runtime's ChunkFn.
struct CChunk {
  clustrix_ChunkFn Fn;
  void *Env;
};

void runCChunk(void *Env, uint64_t Lo, uint64_t Hi, rt::ChunkContext &Ctx) {
  const CChunk &C = *static_cast<const CChunk *>(Env);
  clustrix_ChunkContext CCtx{Ctx.Partials, Ctx.Lo, Ctx.Hi, Ctx.Device};
  C.Fn(C.Env, Lo, Hi, &CCtx);
}

rt::Trip toRt(clustrix_Trip T) { return {T.Count, T.Ok}; }
clustrix_Trip toC(rt::Trip T) { return {T.Count, T.Ok}; }

/// tripCountMixed<T, C> on values given as their conversions to uint64_t.
template <class T, class C>
clustrix_Trip tripAs(uint64_t Init, uint64_t Bound, uint8_t Cmp, uint64_t StepMag, bool Up) {
  return toC(rt::tripCountMixed<T, C>(static_cast<T>(Init), static_cast<C>(Bound),
                                      static_cast<rt::Cmp>(Cmp),
                                      static_cast<std::make_unsigned_t<T>>(StepMag), Up));
}

/// The same, with the comparison's type chosen by its kind.
template <class T>
clustrix_Trip tripWithCmpKind(uint8_t CmpKind, uint64_t Init, uint64_t Bound, uint8_t Cmp,
                              uint64_t StepMag, bool Up) {
  switch (CmpKind) {
  case clustrix_ScalarKind_I8: return tripAs<T, int8_t>(Init, Bound, Cmp, StepMag, Up);
  case clustrix_ScalarKind_U8: return tripAs<T, uint8_t>(Init, Bound, Cmp, StepMag, Up);
  case clustrix_ScalarKind_I16: return tripAs<T, int16_t>(Init, Bound, Cmp, StepMag, Up);
  case clustrix_ScalarKind_U16: return tripAs<T, uint16_t>(Init, Bound, Cmp, StepMag, Up);
  case clustrix_ScalarKind_I32: return tripAs<T, int32_t>(Init, Bound, Cmp, StepMag, Up);
  case clustrix_ScalarKind_U32: return tripAs<T, uint32_t>(Init, Bound, Cmp, StepMag, Up);
  case clustrix_ScalarKind_I64: return tripAs<T, int64_t>(Init, Bound, Cmp, StepMag, Up);
  case clustrix_ScalarKind_U64: return tripAs<T, uint64_t>(Init, Bound, Cmp, StepMag, Up);
  default: return {0, false};
  }
}

} // namespace

extern "C" void clustrix_note_as_written(const clustrix_LoopInfo *Info) noexcept {
  rt::noteAsWritten(*reinterpret_cast<const rt::LoopInfo *>(Info));
}

extern "C" int clustrix_run_loop(const clustrix_LoopInfo *Info,
                                 const clustrix_LoopArgs *Args) noexcept {
  CChunk Chunk{Args->Host, Args->HostEnv};
  std::vector<rt::ReductionSlot> Reductions;
  Reductions.reserve(Args->NumReductions);
  for (uint32_t I = 0; I < Args->NumReductions; ++I) {
    const clustrix_ReductionSlot &S = Args->Reductions[I];
    Reductions.push_back({static_cast<rt::ScalarKind>(S.Kind), static_cast<rt::ReduceOp>(S.Op),
                          S.Target});
  }
  rt::LoopArgs A{};
  A.TripCount = Args->TripCount;
  A.Host = &runCChunk;
  A.HostEnv = &Chunk;
  if (Args->Boxes) {
    A.Boxes = &rt::programBoxes;
    A.WriteBoxes = &rt::programWriteBoxes;
    A.BoxEnv = const_cast<clustrix_ProgramBoxes *>(Args->Boxes);
  }
  A.Reductions = Reductions.data();
  A.NumReductions = Args->NumReductions;
  A.Scalars = Args->Scalars;
  A.NumScalars = Args->NumScalars;
  A.BoxAlign = Args->BoxAlign;
  A.MathErrors = Args->MathErrors;
  // The layouts are the same (checked above).
  const auto &RtInfo = *reinterpret_cast<const rt::LoopInfo *>(Info);
  return rt::runLoop(RtInfo, A) == rt::RunStatus::Done ? 1 : 0;
}

extern "C" clustrix_Trip clustrix_trip_count(uint8_t VarKind, uint8_t CmpKind, uint64_t Init,
                                             uint64_t Bound, uint8_t Cmp, uint64_t StepMag,
                                             bool Up) noexcept {
  auto As = [&](auto Zero) {
    return tripWithCmpKind<decltype(Zero)>(CmpKind, Init, Bound, Cmp, StepMag, Up);
  };
  switch (VarKind) {
  case clustrix_ScalarKind_I8: return As(int8_t{});
  case clustrix_ScalarKind_U8: return As(uint8_t{});
  case clustrix_ScalarKind_I16: return As(int16_t{});
  case clustrix_ScalarKind_U16: return As(uint16_t{});
  case clustrix_ScalarKind_I32: return As(int32_t{});
  case clustrix_ScalarKind_U32: return As(uint32_t{});
  case clustrix_ScalarKind_I64: return As(int64_t{});
  case clustrix_ScalarKind_U64: return As(uint64_t{});
  default: return {0, false};
  }
}

extern "C" int64_t clustrix_allocation_lo(const void *P, size_t ElemSize) noexcept {
  return rt::allocationLo(P, ElemSize);
}

extern "C" int64_t clustrix_allocation_hi(const void *P, size_t ElemSize) noexcept {
  return rt::allocationHi(P, ElemSize);
}

extern "C" void clustrix_enter_residency(void) noexcept { rt::enterResidency(); }

extern "C" void clustrix_leave_residency(void) noexcept { rt::leaveResidency(); }

extern "C" void clustrix_host_reads(const void *Element, size_t Bytes,
                                    const char *Where) noexcept {
  rt::hostReads(Element, Bytes, Where);
}

extern "C" void clustrix_host_writes(const void *Element, size_t Bytes,
                                     const char *Where) noexcept {
  rt::hostWrites(Element, Bytes, Where);
}

extern "C" clustrix_Trip clustrix_trip_product(clustrix_Trip A, clustrix_Trip B) noexcept {
  return toC(rt::tripProduct(toRt(A), toRt(B)));
}
