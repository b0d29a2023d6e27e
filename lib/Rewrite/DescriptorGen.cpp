//===- DescriptorGen.cpp - The loop descriptor's text ----------------------===//
//
// Every initializer is built field by field through the record twins of DescriptorGen.h, so its
// order is the runtime's.
//
//===----------------------------------------------------------------------===//
#include "clustrix/Rewrite/DescriptorGen.h"
#include "clustrix/Rewrite/BoxCodeGen.h"
#include "clustrix/Support/Text.h"

#include <algorithm>
#include <cstdio>

using namespace clustrix;

#define CLUSTRIX_RECORD(Record)                                                                   \
  std::string descriptor::init(const Record &R) {                                                \
    std::string S;
#define CLUSTRIX_FIELD(Record, Type, Name, Extent) S += (S.empty() ? "" : ", ") + R.Name.text();
#define CLUSTRIX_RECORD_END(Record)                                                               \
  return "{" + S + "}";                                                                          \
  }
#include "clustrix/Descriptor.def"

llvm::StringRef clustrix::runtimeName(LoopCmp C) {
  switch (C) {
#define CLUSTRIX_CMP(Name, Spelling)                                                              \
  case LoopCmp::Name:                                                                             \
    return #Name;
#include "clustrix/Descriptor.def"
  }
  return "LT";
}

llvm::StringRef clustrix::runtimeName(KernelArg::Kind K) {
  switch (K) {
#define CLUSTRIX_KERNEL_PARAM(Name)                                                               \
  case KernelArg::Name:                                                                           \
    return #Name;
#include "clustrix/Descriptor.def"
  }
  return "Lo";
}

namespace {

void emitRegions(llvm::raw_ostream &OS, const LoopResult &R, const RuntimeDialect &D) {
  namespace F = descriptor::RegionInfoField;
  OS << "  static const " << D.record("RegionInfo") << " __clx_regions[] = {";
  for (size_t I = 0; I < R.Regions.size(); ++I) {
    const Region &Reg = R.Regions[I];
    unsigned Acc = ((Reg.Access & RegionRead) ? 1 : 0) | ((Reg.Access & RegionWrite) ? 2 : 0);
    OS << (I ? ", " : "")
       << descriptor::init(descriptor::RegionInfo{
              F::Name(cStringLiteral(Reg.Name)), F::Access(Acc),
              F::Rank(std::min<unsigned>(3, Reg.Rank)), F::FullWrite(boxFullWrite(Reg, R) ? 1 : 0),
              F::MayAlias(Reg.MayAlias ? 1 : 0)});
  }
  OS << "};\n";
}

void emitKernelTable(llvm::raw_ostream &OS, const Kernel &K, const RuntimeDialect &D) {
  namespace F = descriptor::KernelParamField;
  OS << "  static const char __clx_kernel_src[] = " << cStringLiteral(K.Source) << ";\n"
     << "  static const " << D.record("KernelParam") << " __clx_params[] = {";
  for (size_t I = 0; I < K.Args.size(); ++I) {
    const KernelArg &A = K.Args[I];
    OS << (I ? ", " : "")
       << descriptor::init(descriptor::KernelParam{
              F::Kind(D.enumerator("KernelParamKind", runtimeName(A.K))),
              F::Index(A.Index), F::Size(A.Size)});
  }
  OS << "};\n";
}

} // namespace

void clustrix::emitDescriptor(llvm::raw_ostream &OS, const DescriptorInput &In,
                              const RuntimeDialect &D) {
  const LoopResult &R = In.R;
  const LoopClauses &C = In.C;
  const Kernel &K = In.K;
  if (!R.Regions.empty())
    emitRegions(OS, R, D);
  if (K.Ok)
    emitKernelTable(OS, K, D);
  bool Disabled = C.Enable && !*C.Enable;
  char Work[32];
  snprintf(Work, sizeof Work, "%.1f", R.WorkPerIter);
  namespace F = descriptor::LoopInfoField;
  descriptor::LoopInfo Info{
      F::AbiVersion("CLUSTRIX_RT_ABI_VERSION"),
      F::File(cStringLiteral(In.File)),
      F::Line(In.Line),
      F::Column(In.Column),
      F::Sched(D.enumerator("Schedule", runtimeName(C.Schedule))),
      F::ChunkSize(C.ChunkSize),
      F::MaxDevices(C.MaxDevices ? *C.MaxDevices : 0),
      F::MinItersPerDevice(C.MinIters ? *C.MinIters : 0),
      F::Level(R.Level),
      F::Score(R.Score),
      F::WorkPerIter(Work),
      F::ForceDisabled(Disabled ? 1 : 0),
      F::Regions(R.Regions.empty() ? D.null() : "__clx_regions"),
      F::NumRegions(R.Regions.size()),
      F::KernelName(K.Ok ? cStringLiteral(K.Name) : D.null()),
      F::KernelSource(K.Ok ? "__clx_kernel_src" : D.null()),
      F::KernelHash(K.Ok ? std::to_string(fnv1a64(K.Source)) + "ull" : "0"),
      F::Params(K.Ok ? "__clx_params" : D.null()),
      F::NumParams(K.Ok ? K.Args.size() : 0),
      F::GuardedHeader(In.GuardedHeader ? 1 : 0),
      F::Site("&__clx_site"),
  };
  OS << "  static " << D.record("LoopSite") << " __clx_site;\n"
     << "  static const " << D.record("LoopInfo") << " __clx_info = " << descriptor::init(Info)
     << ";\n";
}
