# shellcheck shell=bash disable=SC2154
# Sourced by start-distributed.sh and stop-distributed.sh (expects $state_dir): which recorded pids
# are still this topology's processes.

# A zombie (exited, not yet reaped) still answers kill -0: treat it as gone.
alive() { [[ -e /proc/$1 ]] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }

# Pid of this topology's process of a role if it is alive: pids get reused, so the
# process must run cli.js with that role and carry this state dir in its environment.
running_pid() {
  local pid
  pid=$(cat "$state_dir/pids/$1.pid" 2>/dev/null) || return 0
  [[ $pid =~ ^[0-9]+$ ]] && alive "$pid" || return 0
  # Read whole, then matched: `tr … | grep -q` under pipefail fails at random when grep stops reading
  # early and tr dies of SIGPIPE, and the process would then be taken for somebody else's.
  local cmdline environ
  cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 0
  [[ $cmdline == *"cli.js $1 "* ]] || return 0
  environ=$(tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null) || return 0
  [[ $'\n'$environ$'\n' == *$'\n'"PAYOUTS_TOPOLOGY_DIR=$state_dir"$'\n'* ]] || return 0
  echo "$pid"
}
