#!/bin/bash
# Starts a one-node SLURM cluster on this machine (munged, slurmctld and slurmd from Debian, on
# free ports), runs COMMAND with SLURM_CONF pointing at it, and stops the daemons again, whatever
# COMMAND did. The exit status is COMMAND's.
#
#   slurm-single-node.sh DIR COMMAND [ARGS...]
#
# DIR (recreated) gets what a test may want to read: the daemons' logs and a copy of slurm.conf.
# Everything that holds a UNIX socket, or may (munged's socket, slurmd's spool with the sockets of
# slurmstepd and of its PMIx server, slurmctld's state, TmpFS where the PMIx clients' directories
# go, and the TMPDIR of COMMAND and its tasks, where Open MPI keeps its session directory), lives
# in a short directory of its own under /tmp instead, removed again on exit: a socket's path has
# at most 107 bytes, and DIR is under the build directory, whose path may be of any length. The
# configuration and the pid files are there too: two runs with the same DIR (the same test run
# twice at once in one build tree) then never stop each other's daemons.
set -u
export PATH="$PATH:/usr/sbin:/sbin"
dir=$1
shift
rm -rf "$dir" && mkdir -p "$dir" || exit 1
dir=$(cd "$dir" && pwd) || exit 1
run=$(mktemp -d /tmp/clx-slurm.XXXXXX) || exit 1
mkdir -p "$run/state" "$run/spool" "$run/munge" "$run/tmp" || { rm -rf "$run"; exit 1; }
chmod 700 "$run/munge"
chmod 1777 "$run/tmp"
# The slurmstepd processes of this cluster (they have its SLURM_CONF), by id.
stepds() {
  local p
  for p in /proc/[0-9]*; do
    [ "$(cat "$p/comm" 2>/dev/null)" = slurmstepd ] &&
      tr '\0' '\n' 2>/dev/null <"$p/environ" | grep -qxF "SLURM_CONF=$run/slurm.conf" &&
      echo "${p#/proc/}"
  done
}
stop() {
  local pids=() f pid
  # First the jobs end: a slurmstepd reports its step's end to slurmd and slurmctld, and one whose
  # daemons are gone retries for ever. 30 s at most.
  if [ -n "$started" ]; then
    for _ in $(seq 150); do
      [ -z "$(squeue -h -o %i 2>/dev/null)" ] && [ -z "$(stepds)" ] && break
      sleep 0.2
    done
  fi
  for f in "$run/slurmd.pid" "$run/slurmctld.pid" "$run/munged.pid"; do
    [ -s "$f" ] && pid=$(cat "$f") && kill "$pid" 2>/dev/null && pids+=("$pid")
  done
  for pid in $(stepds); do
    kill -KILL "$pid" 2>/dev/null && pids+=("$pid")
  done
  # The daemons write into $run until they are gone: wait for them (10 s at most) before removing it.
  for _ in $(seq 100); do
    for pid in "${pids[@]}"; do
      kill -0 "$pid" 2>/dev/null && { sleep 0.1; continue 2; }
    done
    break
  done
  rm -rf "$run"
}
started=
trap stop EXIT
# A signal ends the script through exit, so that the daemons stop and $run goes here too.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
head -c 1024 /dev/urandom > "$run/munge/key" && chmod 400 "$run/munge/key"
munged --force --key-file="$run/munge/key" --socket="$run/munge/sock" \
  --pid-file="$run/munged.pid" --log-file="$dir/munged.log" --seed-file="$run/munge/seed" ||
  { echo "slurm-single-node: munged did not start"; cat "$dir/munged.log" 2>/dev/null; exit 1; }
ports=$(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1", 0)) for x in s]
print(*[x.getsockname()[1] for x in s])')
read -r ctld_port d_port <<<"$ports"
host=$(hostname -s)
user=$(id -un)
cpus=$(nproc)
cat > "$run/slurm.conf" <<CONF
ClusterName=clustrixtest
SlurmctldHost=$host
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
AuthInfo=socket=$run/munge/sock
CredType=cred/munge
StateSaveLocation=$run/state
SlurmdSpoolDir=$run/spool
TmpFS=$run/tmp
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
cp "$run/slurm.conf" "$dir/slurm.conf"
export SLURM_CONF=$run/slurm.conf
started=1
slurmctld -f "$SLURM_CONF" ||
  { echo "slurm-single-node: slurmctld did not start"; cat "$dir/slurmctld.log" 2>/dev/null; exit 1; }
slurmd -f "$SLURM_CONF" ||
  { echo "slurm-single-node: slurmd did not start"; cat "$dir/slurmd.log" 2>/dev/null; exit 1; }
for _ in $(seq 100); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 0.2
done
sinfo -h -o %t | grep -q idle ||
  { echo "slurm-single-node: the node never became idle"; cat "$dir/slurmd.log"; exit 1; }
# srun and sbatch pass TMPDIR on to the tasks.
TMPDIR=$run/tmp "$@"
