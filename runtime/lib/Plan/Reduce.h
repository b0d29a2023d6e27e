//===- Plan/Reduce.h - Reduction identities and combining ------*- C++ -*-===//
//
// Reductions arrive type-erased (ScalarKind + ReduceOp + pointer); these functions give every
// chunk's partial its identity and fold partials into the user's variable in chunk order.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_PLAN_REDUCE_H
#define CLUSTRIX_RT_PLAN_REDUCE_H

#include "clustrix/Runtime.h"

#include <cstddef>

namespace clustrix {
namespace rt {

/// Storage for one partial of any ScalarKind, aligned for all of them.
union PartialCell {
  int64_t I;
  uint64_t U;
  double D;
  unsigned char Bytes[8];
};

/// Size in bytes of a value of kind K.
size_t scalarSize(ScalarKind K);
/// Whether Op applies to K (bitwise operators need an integer kind).
bool reductionValid(ScalarKind K, ReduceOp Op);
/// Stores Op's identity for kind K at Dst (0 for +, 1 for *, the largest value for min...).
void setIdentity(ScalarKind K, ReduceOp Op, void *Dst);
/// Acc = Acc Op Value, in the arithmetic of kind K (integers wrap like the serial loop's
/// unsigned arithmetic; signed types through their unsigned counterpart to avoid UB).
void combine(ScalarKind K, ReduceOp Op, void *Acc, const void *Value);

} // namespace rt
} // namespace clustrix

#endif
