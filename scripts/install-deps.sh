#!/usr/bin/env bash
# Installs every Debian 12 package Clustrix needs to build and test. Idempotent, and quiet when
# everything is already present. Used by both README commands and by CI.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build git python3 pkg-config
  clang-19 libclang-19-dev llvm-19-dev llvm-19-tools libclang-rt-19-dev libomp-19-dev
  libyaml-cpp-dev libssh-dev libssl-dev libgtest-dev libgmock-dev libisl-dev
  nlohmann-json3-dev libcli11-dev
  openssh-server openssh-client procps
  openmpi-bin libopenmpi-dev slurmctld slurmd slurm-client munge
  hyperfine gnuplot-nox
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
