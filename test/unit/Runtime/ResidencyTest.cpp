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
    delete[] Arena;
  }
  std::string name() const override { return Name; }
  bool allocate(size_t Bytes, uint64_t &Ptr, std::string &Err) override {
    if (ArenaStep) {
      // Allocations ArenaStep bytes apart in one block, as a driver may place them.
      if (!Arena)
        Arena = new char[ArenaStep * 8];
      if (Bytes > ArenaStep || ArenaUsed == 8) {
        Err = "arena full";
        return false;
      }
      Ptr = reinterpret_cast<uint64_t>(Arena + ArenaStep * ArenaUsed++);
      Sizes[Ptr] = Bytes;
      return true;
    }
    char *B = new char[Bytes];
    std::memset(B, 0xCD, Bytes); // poisoned, as the emulated driver's memory
    Ptr = reinterpret_cast<uint64_t>(B);
    Blocks[Ptr] = B;
    Sizes[Ptr] = Bytes;
    return true;
  }
  void free(uint64_t Ptr, size_t) override {
    Sizes.erase(Ptr);
    if (ArenaStep)
      return;
    delete[] Blocks[Ptr];
    Blocks.erase(Ptr);
  }
  /// Whether [P, P + Bytes) lies in one allocation, as the driver requires of a copy's source.
  bool inOneAllocation(uint64_t P, size_t Bytes) const {
    auto It = Sizes.upper_bound(P);
    if (It == Sizes.begin())
      return false;
    --It;
    return P + Bytes <= It->first + It->second;
  }
  bool toDevice(uint64_t Dst, const void *Src, size_t Bytes, std::string &,
                trace::Span *) override {
    In += Bytes;
    ++InCalls;
    std::memcpy(reinterpret_cast<void *>(Dst), Src, Bytes);
    return true;
  }
  bool toHost(void *Dst, uint64_t Src, size_t Bytes, std::string &Err) override {
    if (Lost) {
      Err = "lost";
      return false;
    }
    Out += Bytes;
    ++OutCalls;
    std::memcpy(Dst, reinterpret_cast<const void *>(Src), Bytes);
    return true;
  }
  // One call each, as a strided copy of the driver.
  bool toDevice2D(uint64_t Dst, const void *Src, size_t Width, size_t Rows, size_t Pitch,
                  std::string &, trace::Span *) override {
    In += Width * Rows;
    ++InCalls;
    for (size_t R = 0; R < Rows; ++R)
      std::memcpy(reinterpret_cast<char *>(Dst) + R * Pitch,
                  static_cast<const char *>(Src) + R * Pitch, Width);
    return true;
  }
  bool toHost2D(void *Dst, uint64_t Src, size_t Width, size_t Rows, size_t Pitch,
                std::string &Err) override {
    if (Lost) {
      Err = "lost";
      return false;
    }
    if (!inOneAllocation(Src, (Rows - 1) * Pitch + Width)) {
      Err = "the strided copy's source is not inside one allocation";
      return false;
    }
    Out += Width * Rows;
    ++OutCalls;
    for (size_t R = 0; R < Rows; ++R)
      std::memcpy(static_cast<char *>(Dst) + R * Pitch,
                  reinterpret_cast<const char *>(Src) + R * Pitch, Width);
    return true;
  }
  bool within(uint64_t Dst, uint64_t Src, size_t Bytes, std::string &, trace::Span *) override {
    std::memmove(reinterpret_cast<void *>(Dst), reinterpret_cast<const void *>(Src), Bytes);
    return true;
  }
  bool canPeer(const DeviceMemory &) const override { return Peer; }
  bool fromPeer(DeviceMemory &, uint64_t Dst, uint64_t Src, size_t Bytes, std::string &,
                trace::Span *) override {
    FromPeers += Bytes;
    std::memcpy(reinterpret_cast<void *>(Dst), reinterpret_cast<const void *>(Src), Bytes);
    return true;
  }
  bool lost() const override { return Lost; }

  std::string Name;
  bool Peer;
  bool Lost = false;
  size_t In = 0, Out = 0, FromPeers = 0;
  size_t InCalls = 0, OutCalls = 0;
  std::map<uint64_t, char *> Blocks;
  std::map<uint64_t, size_t> Sizes;
  size_t ArenaStep = 0, ArenaUsed = 0; // allocations ArenaStep bytes apart in Arena
  char *Arena = nullptr;
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

TEST(ResidencyTest, EdgeColumnsAndRowsWithoutThemAreOneStridedCopyEach) {
  // A stencil's output: the device writes the interior of a 16 x 16 grid (rows stale on the
  // host one by one), then reads the whole grid.
  FakeMemory G("gpu0", true);
  std::vector<double> B(16 * 16);
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = double(I);
  std::string Err;
  uint64_t E0 = 0;
  Box Inner = rows(B, 16, 1, 15, 1, 15);
  ASSERT_TRUE(Table::get().acquire(G, Inner, 2, false, "B", E0, Err)) << Err;
  kernelWrites(E0, Inner, -1.0);
  Table::get().wrote(G, Inner, 2, "B");
  Box All = rows(B, 16, 0, 16, 0, 16);
  uint64_t E1 = 0;
  ASSERT_TRUE(Table::get().acquire(G, All, 2, true, "B", E1, Err)) << Err;
  // Row 0 with row 1's first element, the 13 pairs of edge elements between the interior's
  // rows in one strided copy, and row 14's last element with row 15: three copies, not 15.
  EXPECT_EQ(G.In, (256u - 196u) * 8);
  EXPECT_EQ(G.InCalls, 3u);
  for (int64_t R = 0; R < 16; ++R) {
    for (int64_t C = 0; C < 16; ++C) {
      bool Edge = R == 0 || R == 15 || C == 0 || C == 15;
      EXPECT_EQ(kernelReads(E1, R * 16 + C), Edge ? double(R * 16 + C) : -1.0) << R << "," << C;
    }
  }
  // The 14 stale rows, 16 elements apart: one strided copy back.
  Traffic Moved;
  ASSERT_TRUE(release(Moved, Err)) << Err;
  EXPECT_EQ(G.OutCalls, 1u);
  EXPECT_EQ(Moved.ToHost, 196u * 8);
  for (int64_t R = 0; R < 16; ++R) {
    for (int64_t C = 0; C < 16; ++C) {
      bool Edge = R == 0 || R == 15 || C == 0 || C == 15;
      EXPECT_EQ(B[R * 16 + C], Edge ? double(R * 16 + C) : -1.0) << R << "," << C;
    }
  }
}

TEST(ResidencyTest, EquallySpacedPiecesAnotherDeviceWroteDoNotComeFromTheHost) {
  // gpu0 holds the interior of a 16 x 16 grid; gpu1 wrote column 0 of rows 1 to 14. What gpu0
  // misses of the whole grid are pieces of one width, equally spaced (column 15 of one row and
  // column 0 of the next): the shape of a strided copy from the host, but half of each piece
  // is gpu1's.
  for (bool Peer : {true, false}) {
    SCOPED_TRACE(Peer ? "peer to peer" : "through the host");
    FakeMemory G0("gpu0", Peer), G1("gpu1", Peer);
    std::vector<double> A(16 * 16, 0.0);
    std::string Err;
    uint64_t E0 = 0, E1 = 0;
    Box Inner = rows(A, 16, 1, 15, 1, 15), Column = rows(A, 16, 1, 15, 0, 1);
    ASSERT_TRUE(Table::get().acquire(G0, Inner, 2, false, "A", E0, Err)) << Err;
    kernelWrites(E0, Inner, -1.0);
    Table::get().wrote(G0, Inner, 2, "A");
    ASSERT_TRUE(Table::get().acquire(G1, Column, 2, false, "A", E1, Err)) << Err;
    kernelWrites(E1, Column, 9.0);
    Table::get().wrote(G1, Column, 2, "A");
    Box All = rows(A, 16, 0, 16, 0, 16);
    ASSERT_TRUE(Table::get().acquire(G0, All, 2, true, "A", E0, Err)) << Err;
    auto Expected = [](int64_t R, int64_t C) {
      return R >= 1 && R <= 14 ? (C == 0 ? 9.0 : C == 15 ? 0.0 : -1.0) : 0.0;
    };
    for (int64_t R = 0; R < 16; ++R) {
      for (int64_t C = 0; C < 16; ++C)
        EXPECT_EQ(kernelReads(E0, R * 16 + C), Expected(R, C)) << R << "," << C;
    }
    if (Peer) {
      EXPECT_EQ(G0.FromPeers, 14u * 8);
    }
    Traffic Moved;
    ASSERT_TRUE(release(Moved, Err)) << Err;
    for (int64_t R = 0; R < 16; ++R) {
      for (int64_t C = 0; C < 16; ++C)
        EXPECT_EQ(A[R * 16 + C], Expected(R, C)) << R << "," << C;
    }
  }
}

TEST(ResidencyTest, EquallySpacedStaleRangesOfTwoDevicesComeBackEachFromItsOwn) {
  // gpu0 wrote column 3 and gpu1 column 11 of a 16 x 16 grid: the stale ranges are one width
  // and equally spaced (8 elements apart), alternating between the devices, and gpu0's mirror
  // (the hull of its column) spans gpu1's elements too.
  FakeMemory G0("gpu0", true), G1("gpu1", true);
  std::vector<double> A(16 * 16, 0.0);
  std::string Err;
  uint64_t E0 = 0, E1 = 0;
  Box C3 = rows(A, 16, 0, 16, 3, 4), C11 = rows(A, 16, 0, 16, 11, 12);
  ASSERT_TRUE(Table::get().acquire(G0, C3, 2, false, "A", E0, Err)) << Err;
  ASSERT_TRUE(Table::get().acquire(G1, C11, 2, false, "A", E1, Err)) << Err;
  kernelWrites(E0, C3, 3.0);
  kernelWrites(E1, C11, 11.0);
  Table::get().wrote(G0, C3, 2, "A");
  Table::get().wrote(G1, C11, 2, "A");
  Traffic Moved;
  ASSERT_TRUE(release(Moved, Err)) << Err;
  EXPECT_EQ(G0.OutCalls, 1u);
  EXPECT_EQ(G1.OutCalls, 1u);
  for (int64_t R = 0; R < 16; ++R) {
    for (int64_t C = 0; C < 16; ++C)
      EXPECT_EQ(A[R * 16 + C], C == 3 ? 3.0 : C == 11 ? 11.0 : 0.0) << R << "," << C;
  }
}

TEST(ResidencyTest, ArraysWhoseMirrorsLieAsFarApartComeBackEachInItsOwnCopy) {
  // Three arrays of one size, 64 doubles apart on the host (a program's temporaries allocated
  // one after the other), mirrored 64 doubles apart on the device: their stale ranges are one
  // width and equally spaced on both sides, but three allocations, which one strided copy
  // cannot read (LULESH on two emulated GPUs stopped so at the end of a residency scope).
  FakeMemory G0("gpu0", true);
  G0.ArenaStep = 64 * sizeof(double);
  std::vector<double> Slab(3 * 64, 0.0);
  std::string Err;
  for (int K = 0; K < 3; ++K) {
    Box B{Slab.data() + 64 * K, sizeof(double), {48, 0, 0}, {0, 0, 0}, {48, 0, 0}};
    uint64_t E = 0;
    ASSERT_TRUE(Table::get().acquire(G0, B, 1, false, "T", E, Err)) << Err;
    for (int I = 0; I < 48; ++I)
      reinterpret_cast<double *>(E)[I] = K + 1;
    Table::get().wrote(G0, B, 1, "T");
  }
  ASSERT_EQ(G0.ArenaUsed, 3u);
  Traffic Moved;
  ASSERT_TRUE(release(Moved, Err)) << Err;
  EXPECT_EQ(G0.OutCalls, 3u);
  for (int K = 0; K < 3; ++K)
    for (int I = 0; I < 64; ++I)
      EXPECT_EQ(Slab[64 * K + I], I < 48 ? K + 1.0 : 0.0) << K << "," << I;
}

TEST(ResidencyTest, AHostReadBringsBackItsElementOnlyAndTheDeviceKeepsTheArray) {
  FakeMemory G("gpu0", true);
  std::vector<double> A(64, 1.0);
  std::string Err;
  uint64_t E0 = 0;
  Box All{A.data(), sizeof(double), {64, 0, 0}, {0, 0, 0}, {64, 0, 0}};
  ASSERT_TRUE(Table::get().acquire(G, All, 1, false, "A", E0, Err)) << Err;
  for (int I = 0; I < 64; ++I)
    reinterpret_cast<double *>(E0)[I] = 2.0 + I;
  Table::get().wrote(G, All, 1, "A");
  ASSERT_TRUE(Table::get().syncToHost(reinterpret_cast<uintptr_t>(&A[5]),
                                      reinterpret_cast<uintptr_t>(&A[6]), Err))
      << Err;
  EXPECT_EQ(G.Out, 8u);
  EXPECT_EQ(A[5], 7.0);
  EXPECT_EQ(A[4], 1.0); // still stale on the host, current on the device
  // Read again on the device: nothing moves in.
  uint64_t E1 = 0;
  ASSERT_TRUE(Table::get().acquire(G, All, 1, true, "A", E1, Err)) << Err;
  EXPECT_EQ(G.In, 0u);
  // The element is current on both sides now: the release brings back the rest only.
  Traffic Moved;
  ASSERT_TRUE(release(Moved, Err)) << Err;
  EXPECT_EQ(Moved.ToHost, 63u * 8 + 8u); // the element, then the two ranges around it
  for (int I = 0; I < 64; ++I)
    EXPECT_EQ(A[I], 2.0 + I) << I;
}

TEST(ResidencyTest, AHostWriteDropsTheDevicesCopiesOfItsElement) {
  FakeMemory G("gpu0", true);
  std::vector<double> A(64, 1.0);
  std::string Err;
  uint64_t E0 = 0;
  Box All{A.data(), sizeof(double), {64, 0, 0}, {0, 0, 0}, {64, 0, 0}};
  ASSERT_TRUE(Table::get().acquire(G, All, 1, false, "A", E0, Err)) << Err;
  for (int I = 0; I < 64; ++I)
    reinterpret_cast<double *>(E0)[I] = 2.0 + I;
  Table::get().wrote(G, All, 1, "A");
  // The host is about to write A[5] (a compound assignment reads it first).
  ASSERT_TRUE(Table::get().syncToHost(reinterpret_cast<uintptr_t>(&A[5]),
                                      reinterpret_cast<uintptr_t>(&A[6]), Err, /*Drop=*/true))
      << Err;
  EXPECT_EQ(A[5], 7.0);
  A[5] += 100.0;
  // The next read on the device takes the element from the host, and only it.
  uint64_t E1 = 0;
  ASSERT_TRUE(Table::get().acquire(G, All, 1, true, "A", E1, Err)) << Err;
  EXPECT_EQ(G.In, 8u);
  EXPECT_EQ(kernelReads(E1, 5), 107.0);
  Traffic Moved;
  ASSERT_TRUE(release(Moved, Err)) << Err;
  for (int I = 0; I < 64; ++I)
    EXPECT_EQ(A[I], I == 5 ? 107.0 : 2.0 + I) << I;
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

// A resident loop reports the same write box at every call, and the table skips what does not
// change (a range stale already with the same owner, a valid range added again). What does
// change must still be recorded: another device writing the range, or part of it, takes it over.
TEST(ResidencyTest, RepeatedWritesKeepTheLatestWriterOfEachByte) {
  FakeMemory G0("gpu0", true), G1("gpu1", true);
  std::vector<double> A(8 * 4, 0.0);
  std::string Err;
  uint64_t E0 = 0, E1 = 0;
  Box All = rows(A, 4, 0, 8, 0, 4), Middle = rows(A, 4, 2, 6, 0, 4);
  for (int Call = 0; Call < 3; ++Call) { // gpu0's loop, called three times
    ASSERT_TRUE(Table::get().acquire(G0, All, 2, false, "A", E0, Err)) << Err;
    kernelWrites(E0, All, 1.0 + Call);
    Table::get().wrote(G0, All, 2, "A");
  }
  EXPECT_EQ(G0.In, 0u);
  // gpu1 writes the middle rows twice, reading them first: they come from gpu0, once.
  for (int Call = 0; Call < 2; ++Call) {
    ASSERT_TRUE(Table::get().acquire(G1, Middle, 2, true, "A", E1, Err)) << Err;
    kernelWrites(E1, Middle, 7.0 + Call);
    Table::get().wrote(G1, Middle, 2, "A");
  }
  EXPECT_EQ(G1.FromPeers, 16u * 8);
  // gpu0 reads everything again: the middle comes from gpu1, the rest is its own.
  ASSERT_TRUE(Table::get().acquire(G0, All, 2, true, "A", E0, Err)) << Err;
  EXPECT_EQ(G0.FromPeers, 16u * 8);
  EXPECT_EQ(kernelReads(E0, 2 * 4), 8.0);
  EXPECT_EQ(kernelReads(E0, 0), 3.0);
  // Each device's last writes come back from it: gpu1 lost, so its rows cannot.
  G1.Lost = true;
  Traffic Moved;
  EXPECT_FALSE(release(Moved, Err));
  EXPECT_NE(Err.find("gpu1"), std::string::npos) << Err;
  EXPECT_EQ(Err.find("gpu0"), std::string::npos) << Err;
}

// The generation counts the table's changes (CudaBackend.cpp replays a resident chunk while it
// stands still): a call that finds everything in place leaves it, each call that changes the
// table moves it by one, and so does anything that brings data back or drops it.
TEST(ResidencyTest, TheGenerationMovesOncePerChangeAndNeverWithout) {
  FakeMemory G0("gpu0", true), G1("gpu1", true);
  std::vector<double> A(8 * 4, 1.0), Bv(8 * 4, 2.0);
  std::string Err;
  uint64_t E = 0;
  Table &T = Table::get();
  Box All = rows(A, 4, 0, 8, 0, 4), Inner = rows(Bv, 4, 1, 7, 1, 3), Top = rows(A, 4, 0, 2, 0, 4);
  bool Changed = false;
  uint64_t G = T.generation();
  ASSERT_TRUE(T.acquire(G0, All, 2, true, "A", E, Err, &Changed)) << Err; // a mirror, a copy
  EXPECT_TRUE(Changed);
  EXPECT_EQ(T.generation(), G + 1);
  ASSERT_TRUE(T.acquire(G0, Inner, 2, false, "B", E, Err, &Changed)) << Err; // a mirror
  EXPECT_TRUE(Changed);
  T.wrote(G0, Inner, 2, "B", &Changed);
  EXPECT_TRUE(Changed);
  G = T.generation();
  // The same calls again: everything in place, nothing recorded anew.
  for (int Call = 0; Call < 3; ++Call) {
    ASSERT_TRUE(T.acquire(G0, All, 2, true, "A", E, Err, &Changed)) << Err;
    EXPECT_FALSE(Changed);
    ASSERT_TRUE(T.acquire(G0, Inner, 2, false, "B", E, Err, &Changed)) << Err;
    EXPECT_FALSE(Changed);
    T.wrote(G0, Inner, 2, "B", &Changed);
    EXPECT_FALSE(Changed);
  }
  EXPECT_EQ(T.generation(), G);
  // Another device reading what gpu0 holds changes nothing of gpu0's, but the table changes.
  ASSERT_TRUE(T.acquire(G1, Top, 2, true, "A", E, Err, &Changed)) << Err;
  EXPECT_TRUE(Changed);
  EXPECT_EQ(T.generation(), G + 1);
  // It writes rows gpu0 holds: gpu0's copy of them is no longer current.
  T.wrote(G1, Top, 2, "A", &Changed);
  EXPECT_TRUE(Changed);
  EXPECT_EQ(T.generation(), G + 2);
  ASSERT_TRUE(T.acquire(G0, All, 2, true, "A", E, Err, &Changed)) << Err; // from gpu1
  EXPECT_TRUE(Changed);
  EXPECT_EQ(G0.FromPeers, 2u * 4 * 8);
  G = T.generation();
  ASSERT_TRUE(T.syncToHost(reinterpret_cast<uintptr_t>(Bv.data()),
                           reinterpret_cast<uintptr_t>(Bv.data() + 8), Err))
      << Err;
  EXPECT_EQ(T.generation(), G + 1);
  Traffic Moved;
  ASSERT_TRUE(release(Moved, Err)) << Err;
  EXPECT_EQ(T.generation(), G + 2);
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
