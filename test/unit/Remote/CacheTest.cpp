//===- CacheTest.cpp - The probe cache ------------------------------------===//
//
// Round trip, time-to-live, invalidation by configuration, and the private directory.
//
//===----------------------------------------------------------------------===//
#include "clustrix/remote/Cache.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace clustrix::remote;

namespace {

/// A fresh temporary directory, removed afterwards.
class CacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    char Template[] = "/tmp/clustrix-cache-test-XXXXXX";
    ASSERT_NE(::mkdtemp(Template), nullptr);
    Root = Template;
  }
  void TearDown() override {
    std::string Command = "rm -rf '" + Root + "'";
    EXPECT_EQ(std::system(Command.c_str()), 0);
  }
  HostConfig host() const {
    HostConfig H;
    H.Name = "tensor01";
    H.Hostname = "tensor01.example.org";
    H.CacheTtl = 600;
    return H;
  }
  std::string Root;
};

} // namespace

TEST(Sha256, KnownDigests) {
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256File("/nonexistent/file"), "");
}

TEST_F(CacheTest, RoundTripInAPrivateDirectory) {
  ProbeCache Cache(Root + "/a/b");
  ProbeOutput Out{"line 1\nline 2 with \0 byte", "err", 0};
  Out.Stdout += std::string("\0tail", 5);
  ASSERT_TRUE(Cache.store(host(), Out));
  struct stat St;
  ASSERT_EQ(::stat((Root + "/a/b").c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0700u);
  double Age = -1;
  std::optional<ProbeOutput> Back = Cache.lookup(host(), Age);
  ASSERT_TRUE(Back.has_value());
  EXPECT_EQ(Back->Stdout, Out.Stdout);
  EXPECT_EQ(Back->Stderr, "err");
  EXPECT_EQ(Back->ExitStatus, 0);
  EXPECT_GE(Age, 0);
  EXPECT_LT(Age, 60);
}

TEST_F(CacheTest, ChangedSettingsOrExpiryMiss) {
  ProbeCache Cache(Root);
  ASSERT_EQ(::chmod(Root.c_str(), 0700), 0);
  ASSERT_TRUE(Cache.store(host(), ProbeOutput{"x", "", 0}));
  double Age;
  HostConfig Changed = host();
  Changed.Env = {{"CUDA_VISIBLE_DEVICES", "0"}};
  EXPECT_FALSE(Cache.lookup(Changed, Age).has_value());
  HostConfig Expired = host();
  Expired.CacheTtl = 1e-9;
  EXPECT_FALSE(Cache.lookup(Expired, Age).has_value());
  HostConfig Disabled = host();
  Disabled.CacheTtl = 0;
  EXPECT_FALSE(Cache.lookup(Disabled, Age).has_value());
  EXPECT_FALSE(Cache.store(Disabled, ProbeOutput{"x", "", 0}));
  EXPECT_TRUE(Cache.lookup(host(), Age).has_value());
}

TEST_F(CacheTest, OpenDirectoryIsNotTrusted) {
  ProbeCache Cache(Root);
  ASSERT_TRUE(Cache.store(host(), ProbeOutput{"x", "", 0}));
  // Someone made the directory group-writable: its contents could be anyone's.
  ASSERT_EQ(::chmod(Root.c_str(), 0770), 0);
  double Age;
  EXPECT_FALSE(Cache.lookup(host(), Age).has_value());
  // Storing makes it private again.
  ASSERT_TRUE(Cache.store(host(), ProbeOutput{"x", "", 0}));
  EXPECT_TRUE(Cache.lookup(host(), Age).has_value());
}

TEST_F(CacheTest, KeyCoversEverySettingThatChangesTheAnswer) {
  HostConfig A = host(), B = host();
  EXPECT_EQ(ProbeCache::keyOf(A), ProbeCache::keyOf(B));
  B.Setup = {"module load cuda"};
  EXPECT_NE(ProbeCache::keyOf(A), ProbeCache::keyOf(B));
  B = host();
  B.Probe = "other";
  EXPECT_NE(ProbeCache::keyOf(A), ProbeCache::keyOf(B));
  B = host();
  B.Port = 2222;
  EXPECT_NE(ProbeCache::keyOf(A), ProbeCache::keyOf(B));
}
