//===- MPI/Wire.h - Messages between ranks as bytes -------------*- C++ -*-===//
//
// Ranks run the same program on the same kind of machine (one ABI, one byte order), so values are
// written as their bytes. A Reader that runs past the end of a message turns bad instead of
// reading out of bounds; the receiver then refuses the message.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_MPI_WIRE_H
#define CLUSTRIX_RT_MPI_WIRE_H

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace clustrix {
namespace rt {
namespace mpi {

/// Appends values to a message.
class Writer {
public:
  template <class T> void put(const T &V) {
    static_assert(std::is_trivially_copyable<T>::value, "only plain values go on the wire");
    const char *P = reinterpret_cast<const char *>(&V);
    Bytes.insert(Bytes.end(), P, P + sizeof(T));
  }
  void putString(const std::string &S) {
    put<uint64_t>(S.size());
    Bytes.insert(Bytes.end(), S.begin(), S.end());
  }
  /// Reserves N bytes and returns where they start, for data packed in place.
  char *reserve(size_t N) {
    put<uint64_t>(N);
    size_t At = Bytes.size();
    Bytes.resize(At + N);
    return Bytes.data() + At;
  }
  std::vector<char> Bytes;
};

/// Reads the values of a message back, in the order they were written.
class Reader {
public:
  Reader(const char *Data, size_t Size) : P(Data), End(Data + Size) {}
  template <class T> T get() {
    T V{};
    if (static_cast<size_t>(End - P) < sizeof(T)) {
      Bad = true;
      P = End;
      return V;
    }
    std::memcpy(&V, P, sizeof(T));
    P += sizeof(T);
    return V;
  }
  std::string getString() {
    size_t N = bytes();
    const char *S = take(N);
    return S ? std::string(S, N) : std::string();
  }
  /// A block written by reserve(): its size, then take() its bytes.
  size_t bytes() { return static_cast<size_t>(get<uint64_t>()); }
  const char *take(size_t N) {
    if (Bad || static_cast<size_t>(End - P) < N) {
      Bad = true;
      P = End;
      return nullptr;
    }
    const char *S = P;
    P += N;
    return S;
  }
  bool ok() const { return !Bad; }
  bool atEnd() const { return P == End; }

private:
  const char *P, *End;
  bool Bad = false;
};

} // namespace mpi
} // namespace rt
} // namespace clustrix

#endif
