//===- ResidencyTest.cpp - Tests of the device data table -----------------===//
//
// The table (Data/Residency.h) against fake devices whose memory is host memory, so that the
// tests can play the kernels (writing through the device addresses the table hands out) and
// count every byte the table moves.
//
//===----------------------------------------------------------------------===//
#include "Data/Residency.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <vector>

using namespace clustrix::rt;
using namespace clustrix::rt::data;

namespace {

class FakeMemory final : public DeviceMemory {
public:
  FakeMemory(std::string Name, bool Peer) : Name(std::move(Name)), Peer(Peer) {}
  ~FakeMemory() override {
    for (auto &[P, B] : Blocks)
      delete[] B;
  }
  std::string name() const override { return Name; }
  bool allocate(size_t Bytes, uint64_t &Ptr, std::string &) override {
    char *B = new char[Bytes];
    std::memset(B, 0xCD, Bytes); // poisoned, as the emulated driver's memory
    Ptr = reinterpret_cast<uint64_t>(B);
    Blocks[Ptr] = B;
    return true;
  }
  void free(uint64_t Ptr, size_t) override {
    delete[] Blocks[Ptr];
    Blocks.erase(Ptr);
  }
  bool toDevice(uint64_t Dst, const void *Src, size_t Bytes, std::string &) override {
    In += Bytes;
    std::memcpy(reinterpret_cast<void *>(Dst), Src, Bytes);
    return true;
  }
  bool toHost(void *Dst, uint64_t Src, size_t Bytes, std::string &Err) override {
    if (Lost) {
      Err = "lost";
      return false;
    }
    Out += Bytes;
    std::memcpy(Dst, reinterpret_cast<const void *>(Src), Bytes);
    return true;
  }
  bool within(uint64_t Dst, uint64_t Src, size_t Bytes, std::string &) override {
    std::memmove(reinterpret_cast<void *>(Dst), reinterpret_cast<const void *>(Src), Bytes);
    return true;
  }
  bool canPeer(const DeviceMemory &) const override { return Peer; }
  bool fromPeer(DeviceMemory &, uint64_t Dst, uint64_t Src, size_t Bytes, std::string &) override {
    FromPeers += Bytes;
    std::memcpy(reinterpret_cast<void *>(Dst), reinterpret_cast<const void *>(Src), Bytes);
    return true;
  }
  bool lost() const override { return Lost; }

  std::string Name;
  bool Peer;
  bool Lost = false;
  size_t In = 0, Out = 0, FromPeers = 0;
  std::map<uint64_t, char *> Blocks;
};

/// Rows [R0, R1) and columns [C0, C1) of a Rows x Cols array of doubles.
Box rows(std::vector<double> &A, int64_t Cols, int64_t R0, int64_t R1, int64_t C0, int64_t C1) {
  return Box{A.data(), sizeof(double), {int64_t(A.size()) / Cols, Cols, 0}, {R0, C0, 0},
             {R1, C1, 0}};
}

/// Plays a kernel: writes V into box B through the device address of element 0.
void kernelWrites(uint64_t Elem0, const Box &B, double V) {
  auto *D = reinterpret_cast<double *>(Elem0);
  for (int64_t R = B.Lo[0]; R < B.Hi[0]; ++R)
    for (int64_t C = B.Lo[1]; C < B.Hi[1]; ++C)
      D[R * B.Extent[1] + C] = V;
}

double kernelReads(uint64_t Elem0, int64_t Index) {
  return reinterpret_cast<const double *>(Elem0)[Index];
}

bool release(Traffic &Moved, std::string &Err) { return Table::get().releaseAll(Err, Moved); }

TEST(ResidencyTest, IntervalSetMergesSplitsAndFindsGaps) {
  IntervalSet S;
  S.add(10, 20);
  S.add(20, 30); // touching: one interval
  EXPECT_EQ(S.intervals().size(), 1u);
  EXPECT_TRUE(S.covers(12, 30));
  S.remove(15, 18);
  EXPECT_EQ(S.intervals().size(), 2u);
  EXPECT_FALSE(S.covers(12, 20));
  std::vector<std::pair<uintptr_t, uintptr_t>> Gaps;
  S.missing(5, 40, Gaps);
  ASSERT_EQ(Gaps.size(), 3u);
  EXPECT_EQ(Gaps[0], (std::pair<uintptr_t, uintptr_t>(5, 10)));
  EXPECT_EQ(Gaps[1], (std::pair<uintptr_t, uintptr_t>(15, 18)));
  EXPECT_EQ(Gaps[2], (std::pair<uintptr_t, uintptr_t>(30, 40)));
  S.add(0, 100);
  EXPECT_EQ(S.intervals().size(), 1u);
  S.remove(0, 100);
  EXPECT_TRUE(S.empty());
}

TEST(ResidencyTest, WhatIsOnTheDeviceIsNotCopiedAgainAndComesBackOnRelease) {
  FakeMemory G("gpu0", true);
  std::vector<double> A(8 * 8, 1.0);
  std::string Err;
  uint64_t E0 = 0;
  Box Read = rows(A, 8, 0, 8, 0, 8);
  ASSERT_TRUE(Table::get().acquire(G, Read, 2, true, "A", E0, Err)) << Err;
  EXPECT_EQ(G.In, A.size() * 8);
  EXPECT_EQ(ResidentHeld, 1u);
  // The kernel writes the interior; the host's copy is stale, not changed.
  Box Inner = rows(A, 8, 1, 7, 1, 7);
  kernelWrites(E0, Inner, 5.0);
  Table::get().wrote(G, Inner, 2, "A");
  EXPECT_EQ(A[9], 1.0);
  // Read again: everything is current on the device, nothing moves.
  uint64_t E1 = 0;
  ASSERT_TRUE(Table::get().acquire(G, Read, 2, true, "A", E1, Err)) << Err;
  EXPECT_EQ(E1, E0);
  EXPECT_EQ(G.In, A.size() * 8);
  Traffic Moved;
  ASSERT_TRUE(release(Moved, Err)) << Err;
  EXPECT_EQ(A[9], 5.0);  // written on the device, now on the host
  EXPECT_EQ(A[0], 1.0);  // the edge, never written
  EXPECT_EQ(Moved.ToDevice, A.size() * 8);
  // The written box's hull (elements 9 to 54): the device's copy of the edge elements between
  // its rows is current too, so one range comes back rather than six rows; not rows 0 and 7.
  EXPECT_EQ(Moved.ToHost, 46u * 8);
  EXPECT_EQ(ResidentHeld, 0u);
  EXPECT_TRUE(G.Blocks.empty());
}

TEST(ResidencyTest, AWriteBoxWithGapsLeavesTheGapsToTheHost) {
  FakeMemory G("gpu0", true);
  std::vector<double> B(8 * 8, 2.0);
  std::string Err;
  uint64_t E0 = 0;
  Box Inner = rows(B, 8, 1, 7, 1, 7);
  // Written in full, not read: nothing is copied in.
  ASSERT_TRUE(Table::get().acquire(G, Inner, 2, false, "B", E0, Err)) << Err;
  EXPECT_EQ(G.In, 0u);
  kernelWrites(E0, Inner, 7.0);
  Table::get().wrote(G, Inner, 2, "B");
  // Reading whole rows: the edge columns and rows come from the host, the interior stays.
  Box All = rows(B, 8, 0, 8, 0, 8);
  uint64_t E1 = 0;
  ASSERT_TRUE(Table::get().acquire(G, All, 2, true, "B", E1, Err)) << Err;
  EXPECT_EQ(G.In, (64u - 36u) * 8);
  EXPECT_EQ(kernelReads(E1, 0), 2.0);
  EXPECT_EQ(kernelReads(E1, 9), 7.0);
  EXPECT_EQ(kernelReads(E1, 8 * 7 + 7), 2.0);
  Traffic Moved;
  ASSERT_TRUE(release(Moved, Err)) << Err;
  EXPECT_EQ(B[9], 7.0);
  EXPECT_EQ(B[8], 2.0);
}

TEST(ResidencyTest, HaloRowsComeFromTheDeviceThatWroteThem) {
  for (bool Peer : {true, false}) {
    SCOPED_TRACE(Peer ? "peer to peer" : "through the host");
    FakeMemory G0("gpu0", Peer), G1("gpu1", Peer);
    std::vector<double> A(8 * 4, 0.0);
    std::string Err;
    uint64_t E0 = 0, E1 = 0;
    Box Top = rows(A, 4, 0, 4, 0, 4), Bottom = rows(A, 4, 4, 8, 0, 4);
    ASSERT_TRUE(Table::get().acquire(G0, Top, 2, false, "A", E0, Err)) << Err;
    ASSERT_TRUE(Table::get().acquire(G1, Bottom, 2, false, "A", E1, Err)) << Err;
    kernelWrites(E0, Top, 1.0);
    kernelWrites(E1, Bottom, 2.0);
    Table::get().wrote(G0, Top, 2, "A");
    Table::get().wrote(G1, Bottom, 2, "A");
    // gpu0 reads one row beyond its own: it comes from gpu1, nothing from the host.
    Box TopHalo = rows(A, 4, 0, 5, 0, 4);
    ASSERT_TRUE(Table::get().acquire(G0, TopHalo, 2, true, "A", E0, Err)) << Err;
    EXPECT_EQ(kernelReads(E0, 4 * 4), 2.0);
    EXPECT_EQ(kernelReads(E0, 0), 1.0);
    if (Peer) {
      EXPECT_EQ(G0.FromPeers, 4u * 8);
      EXPECT_EQ(G0.In, 0u);
    } else {
      EXPECT_EQ(G1.Out, 4u * 8); // to the host, which is then current
      EXPECT_EQ(G0.In, 4u * 8);
      EXPECT_EQ(A[16], 2.0);
    }
    Traffic Moved;
    ASSERT_TRUE(release(Moved, Err)) << Err;
    for (int I = 0; I < 32; ++I)
      EXPECT_EQ(A[I], I < 16 ? 1.0 : 2.0) << I;
  }
}

TEST(ResidencyTest, ALostDeviceWithTheOnlyCopyIsAnErrorNamingTheArray) {
  FakeMemory G("gpu0", true);
  std::vector<double> X(16, 3.0), Y(16, 4.0);
  std::string Err;
  uint64_t E0 = 0, E1 = 0;
  Box BX{X.data(), sizeof(double), {16, 0, 0}, {0, 0, 0}, {16, 0, 0}};
  Box BY{Y.data(), sizeof(double), {16, 0, 0}, {0, 0, 0}, {16, 0, 0}};
  ASSERT_TRUE(Table::get().acquire(G, BX, 1, false, "x", E0, Err)) << Err;
  ASSERT_TRUE(Table::get().acquire(G, BY, 1, true, "y", E1, Err)) << Err;
  Table::get().wrote(G, BX, 1, "x");
  G.Lost = true;
  Traffic Moved;
  EXPECT_FALSE(release(Moved, Err));
  EXPECT_NE(Err.find("'x'"), std::string::npos) << Err;
  EXPECT_EQ(Err.find("'y'"), std::string::npos) << Err; // only read: the host's copy is current
  EXPECT_NE(Err.find("gpu0"), std::string::npos) << Err;
  EXPECT_EQ(X[0], 3.0); // never half-written
  EXPECT_EQ(ResidentHeld, 0u);
}

} // namespace
