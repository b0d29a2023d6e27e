#!/bin/bash
# Starts a one-node SLURM cluster on this machine (munged, slurmctld and slurmd from Debian, on
# free ports, everything under DIR), runs COMMAND with SLURM_CONF pointing at it, and stops the
# daemons again, whatever COMMAND did. The exit status is COMMAND's.
#
#   slurm-single-node.sh DIR COMMAND [ARGS...]
set -u
export PATH="$PATH:/usr/sbin:/sbin"
dir=$1
shift
rm -rf "$dir" && mkdir -p "$dir/state" "$dir/spool" "$dir/munge" || exit 1
chmod 700 "$dir/munge"
pids=()
stop() {
  for f in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/pid"; do
    [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
  done
}
trap stop EXIT
head -c 1024 /dev/urandom > "$dir/munge/key" && chmod 400 "$dir/munge/key"
munged --force --key-file="$dir/munge/key" --socket="$dir/munge/sock" \
  --pid-file="$dir/munge/pid" --log-file="$dir/munge/log" --seed-file="$dir/munge/seed" ||
  { echo "slurm-single-node: munged did not start"; exit 1; }
ports=$(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1", 0)) for x in s]
print(*[x.getsockname()[1] for x in s])')
read -r ctld_port d_port <<<"$ports"
host=$(hostname -s)
user=$(id -un)
cpus=$(nproc)
cat > "$dir/slurm.conf" <<CONF
ClusterName=clustrixtest
SlurmctldHost=$host
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
AuthInfo=socket=$dir/munge/sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
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
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" || { echo "slurm-single-node: slurmctld did not start"; exit 1; }
slurmd -f "$SLURM_CONF" || { echo "slurm-single-node: slurmd did not start"; exit 1; }
for _ in $(seq 100); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 0.2
done
sinfo -h -o %t | grep -q idle ||
  { echo "slurm-single-node: the node never became idle"; cat "$dir/slurmd.log"; exit 1; }
"$@"
