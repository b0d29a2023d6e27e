//===- Plan/Reduce.cpp - Reduction identities and combining ---------------===//
#include "Plan/Reduce.h"

#include <cstring>
#include <limits>
#include <type_traits>

namespace clustrix {
namespace rt {

namespace {

template <class T> void identityOf(ReduceOp Op, void *Dst) {
  T V{};
  switch (Op) {
  case ReduceOp::Add: case ReduceOp::BitOr: case ReduceOp::BitXor: V = T(0); break;
  case ReduceOp::Mul: V = T(1); break;
  case ReduceOp::Min:
    V = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                             : std::numeric_limits<T>::max();
    break;
  case ReduceOp::Max:
    V = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                             : std::numeric_limits<T>::lowest();
    break;
  case ReduceOp::BitAnd:
    if constexpr (std::is_integral<T>::value)
      V = static_cast<T>(~T(0));
    break;
  }
  std::memcpy(Dst, &V, sizeof(T));
}

template <class T> void combineAs(ReduceOp Op, void *AccP, const void *ValP) {
  T A, B;
  std::memcpy(&A, AccP, sizeof(T));
  std::memcpy(&B, ValP, sizeof(T));
  if constexpr (std::is_integral<T>::value) {
    // Wrapping arithmetic, computed in the unsigned type: the serial loop would have the same
    // bits for unsigned types, and signed overflow there is the user's undefined behaviour.
    using U = std::make_unsigned_t<T>;
    using W = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
    switch (Op) {
    case ReduceOp::Add: A = static_cast<T>(static_cast<U>(W(U(A)) + W(U(B)))); break;
    case ReduceOp::Mul: A = static_cast<T>(static_cast<U>(W(U(A)) * W(U(B)))); break;
    case ReduceOp::Min: A = B < A ? B : A; break;
    case ReduceOp::Max: A = A < B ? B : A; break;
    case ReduceOp::BitAnd: A = static_cast<T>(A & B); break;
    case ReduceOp::BitOr: A = static_cast<T>(A | B); break;
    case ReduceOp::BitXor: A = static_cast<T>(A ^ B); break;
    }
  } else {
    switch (Op) {
    case ReduceOp::Add: A = A + B; break;
    case ReduceOp::Mul: A = A * B; break;
    case ReduceOp::Min: A = B < A ? B : A; break;
    case ReduceOp::Max: A = A < B ? B : A; break;
    default: break; // rejected by reductionValid
    }
  }
  std::memcpy(AccP, &A, sizeof(T));
}

template <template <class> class F, class... Args>
void dispatch(ScalarKind K, Args &&...A) {
  switch (K) {
  case ScalarKind::I8: F<int8_t>()(A...); break;
  case ScalarKind::U8: F<uint8_t>()(A...); break;
  case ScalarKind::I16: F<int16_t>()(A...); break;
  case ScalarKind::U16: F<uint16_t>()(A...); break;
  case ScalarKind::I32: F<int32_t>()(A...); break;
  case ScalarKind::U32: F<uint32_t>()(A...); break;
  case ScalarKind::I64: F<int64_t>()(A...); break;
  case ScalarKind::U64: F<uint64_t>()(A...); break;
  case ScalarKind::F32: F<float>()(A...); break;
  case ScalarKind::F64: F<double>()(A...); break;
  }
}

template <class T> struct IdentityFn {
  void operator()(ReduceOp Op, void *Dst) const { identityOf<T>(Op, Dst); }
};
template <class T> struct CombineFn {
  void operator()(ReduceOp Op, void *Acc, const void *V) const { combineAs<T>(Op, Acc, V); }
};

} // namespace

size_t scalarSize(ScalarKind K) {
  switch (K) {
  case ScalarKind::I8: case ScalarKind::U8: return 1;
  case ScalarKind::I16: case ScalarKind::U16: return 2;
  case ScalarKind::I32: case ScalarKind::U32: case ScalarKind::F32: return 4;
  case ScalarKind::I64: case ScalarKind::U64: case ScalarKind::F64: return 8;
  }
  return 8;
}

bool reductionValid(ScalarKind K, ReduceOp Op) {
  bool Float = K == ScalarKind::F32 || K == ScalarKind::F64;
  bool Bitwise = Op == ReduceOp::BitAnd || Op == ReduceOp::BitOr || Op == ReduceOp::BitXor;
  return static_cast<uint8_t>(K) <= static_cast<uint8_t>(ScalarKind::F64) &&
         static_cast<uint8_t>(Op) <= static_cast<uint8_t>(ReduceOp::BitXor) && !(Float && Bitwise);
}

void setIdentity(ScalarKind K, ReduceOp Op, void *Dst) { dispatch<IdentityFn>(K, Op, Dst); }

void combine(ScalarKind K, ReduceOp Op, void *Acc, const void *Value) {
  dispatch<CombineFn>(K, Op, Acc, Value);
}

} // namespace rt
} // namespace clustrix
