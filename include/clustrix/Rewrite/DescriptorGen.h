//===- clustrix/Rewrite/DescriptorGen.h - The loop descriptor's text -*- C++ -*-===//
//
// Generated code hands the runtime its records (clustrix/Runtime.h) as brace initializers, in
// field order. Here every record of clustrix/Descriptor.def has a twin whose members are the
// initializer texts, one type per field: a record is built by naming each field in order,
//
//   namespace F = descriptor::RegionInfoField;
//   descriptor::RegionInfo{F::Name(...), F::Access(...), F::Rank(...), ...}
//
// so the compiler rejects a field left out, doubled or out of order, and a field added to the
// table cannot be forgotten here. init() writes the initializer. emitDescriptor() writes the
// loop's static descriptor: its regions, kernel text and parameters, and its LoopInfo.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_REWRITE_DESCRIPTORGEN_H
#define CLUSTRIX_REWRITE_DESCRIPTORGEN_H

#include "clustrix/Analysis/LoopAnalysis.h"
#include "clustrix/Rewrite/KernelEmitter.h"
#include "clustrix/Rewrite/RuntimeDialect.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <type_traits>

namespace clustrix {
namespace descriptor {

/// The initializer text of one field. Integers are written in decimal; anything else is given as
/// text (a bool field takes "true"/"false", not an integer, as its brace initializer shows it).
class FieldText {
public:
  explicit FieldText(std::string Text) : Text(std::move(Text)) {}
  explicit FieldText(const char *Text) : Text(Text) {}
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  explicit FieldText(T Value) : Text(std::to_string(Value)) {}
  const std::string &text() const { return Text; }

private:
  std::string Text;
};

// One type per field: <Record>Field::<Name>.
#define CLUSTRIX_FIELD(Record, Type, Name, Extent)                                               \
  namespace Record##Field {                                                                       \
  struct Name : FieldText {                                                                       \
    using FieldText::FieldText;                                                                   \
  };                                                                                              \
  }
#include "clustrix/Descriptor.def"

// The records: one member per field, of the field's own type, in the runtime's order.
#define CLUSTRIX_RECORD(Record) struct Record {
#define CLUSTRIX_FIELD(Record, Type, Name, Extent) Record##Field::Name Name;
#define CLUSTRIX_RECORD_END(Record) };
#include "clustrix/Descriptor.def"

// init(R): the brace initializer "{field, field, ...}".
#define CLUSTRIX_RECORD(Record) std::string init(const Record &R);
#include "clustrix/Descriptor.def"

} // namespace descriptor

/// The rt::Cmp enumerator of a loop condition ("LT").
llvm::StringRef runtimeName(LoopCmp C);
/// The rt::KernelParamKind enumerator of a kernel parameter ("Region").
llvm::StringRef runtimeName(KernelArg::Kind K);

/// What the static descriptor of one loop is made of.
struct DescriptorInput {
  const LoopResult &R;
  const LoopClauses &C;
  const Kernel &K;
  std::string File; ///< The presumed file name.
  unsigned Line = 0, Column = 0;
  /// The loop's header reads a guard region (see HostCodeGen::GuardedHeader).
  bool GuardedHeader = false;
};

/// Writes the static descriptor of a loop: `__clx_regions` (RegionInfo), `__clx_kernel_src` and
/// `__clx_params` (KernelParam) when the loop has a GPU form, `__clx_site` (the LoopSite the
/// runtime keeps its state of the loop in) and `__clx_info` (LoopInfo), in the C++ of
/// clustrix/Runtime.h or the C of clustrix/runtime_c.h.
void emitDescriptor(llvm::raw_ostream &OS, const DescriptorInput &In,
                    const RuntimeDialect &D = RuntimeDialect::cxx());

} // namespace clustrix

#endif // CLUSTRIX_REWRITE_DESCRIPTORGEN_H
