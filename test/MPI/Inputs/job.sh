#!/bin/bash
# The batch script of docs/multi-node.md on one node: three tasks, one CPU lane each.
#SBATCH --job-name=clustrix-test
#SBATCH --nodes=1
#SBATCH --ntasks=3
#SBATCH --overcommit
#SBATCH --time=00:05:00
export CLUSTRIX_DEVICES=cpu:1
export CLUSTRIX_LOG=info
srun --mpi=pmix "$@"
