#!/usr/bin/env bash
# A one-machine Slurm for tests (sourced): munged, slurmctld and slurmd on localhost, every file in a
# folder of its own (a minimal slurm.conf written here), no systemd. Runs as root (as CI does).
#   slurm_start DIR   start the daemons with state in DIR; returns 1 (and says why) if Slurm cannot start
#   slurm_stop        stop every daemon started (by its pid file), bounded waits
# After slurm_start, SLURM_CONF is exported so that sbatch, squeue and scontrol talk to this Slurm.

slurm_log() { echo "slurm-local: $*" >&2; }

# Waits up to $2 tenths of a second (of wall time: each try of the command $1 is cut at 5 s, since sinfo and
# scontrol retry for long against a controller that is not there) for the command $1 to succeed.
slurm_wait_for() {
  local deadline=$(($(date +%s%N) / 100000000 + $2))
  while (($(date +%s%N) / 100000000 < deadline)); do
    timeout 5 bash -c "$1" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

# A TCP port nothing listens on, below the kernel's range of ephemeral ports (an outgoing connection of another
# process can hold a port of that range as its own, and slurmctld then fails to bind it: "Address already in use").
slurm_free_port() {
  local p low
  low=$(awk '{ print $1 }' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  ((low > 12000)) || { slurm_log "the ephemeral ports start at $low: no range below them for Slurm"; return 1; }
  for ((i = 0; i < 50; i++)); do
    p=$((10000 + RANDOM % (low - 10000)))
    if ! (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; then echo "$p"; return 0; fi
  done
  return 1
}

slurm_start() {
  SLURM_DIR=$1
  local d=$SLURM_DIR
  for prog in munged slurmctld slurmd sbatch squeue scontrol; do
    command -v "$prog" >/dev/null || { slurm_log "cannot start: $prog is not installed (Debian slurm-wlm, munge)"; return 1; }
  done
  [ "$(id -u)" = 0 ] || { slurm_log "cannot start: slurmd needs root (running as $(id -un))"; return 1; }
  mkdir -p "$d/munge" "$d/state" "$d/spool" "$d/log"
  chmod 700 "$d" "$d/munge"
  dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 status=none && chmod 400 "$d/munge/munge.key"
  munged --force --key-file="$d/munge/munge.key" --socket="$d/munge/socket" --pid-file="$d/munge/munged.pid" \
    --log-file="$d/log/munged.log" --seed-file="$d/munge/seed" 2>>"$d/log/munged.err" ||
    { slurm_log "cannot start munged:"; cat "$d/log/munged.err" "$d/log/munged.log" >&2; return 1; }
  local ctld_port slurmd_port cpus mem
  ctld_port=$(slurm_free_port) && slurmd_port=$(slurm_free_port) || { slurm_log "no free port"; return 1; }
  cpus=$(nproc)
  mem=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
  cat >"$d/slurm.conf" <<CONF
ClusterName=tit-sweep-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/socket
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MaxArraySize=1001
MinJobAge=300
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$d/slurm.conf
  slurmctld -f "$SLURM_CONF" -i 2>>"$d/log/slurmctld.err" ||
    { slurm_log "cannot start slurmctld:"; cat "$d/log/slurmctld.err" "$d/log/slurmctld.log" >&2 2>/dev/null; return 1; }
  slurmd -f "$SLURM_CONF" -N localhost 2>>"$d/log/slurmd.err" ||
    { slurm_log "cannot start slurmd:"; cat "$d/log/slurmd.err" "$d/log/slurmd.log" >&2 2>/dev/null; return 1; }
  if ! slurm_wait_for "sinfo -h -N -o %t | grep -qE '^(idle|mix|alloc)'" 300; then
    slurm_log "the node did not become idle within 30 s:"
    sinfo -N 2>&1 >&2; tail -20 "$d/log/slurmctld.log" "$d/log/slurmd.log" >&2 2>/dev/null
    return 1
  fi
  slurm_log "Slurm $(slurmctld -V | awk '{ print $2 }') up on localhost ($cpus CPUs, ports $ctld_port/$slurmd_port, in $d)"
}

slurm_stop() {
  local d=${SLURM_DIR:-}
  [ -n "$d" ] || return 0
  local f pid
  for f in "$d/slurmd.pid" "$d/slurmctld.pid" "$d/munge/munged.pid"; do
    [ -s "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null || continue
    slurm_wait_for "! kill -0 $pid" 100 || kill -9 "$pid" 2>/dev/null
  done
}
