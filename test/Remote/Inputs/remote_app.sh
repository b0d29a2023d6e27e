#!/bin/sh
# The program the clustrix-run tests copy to the fixture's host; the first argument picks what it
# does there.
mode=$1
shift
case "$mode" in
args) for a in "$@"; do printf '[%s]\n' "$a"; done ;;
env) printf 'CLUSTRIX_LOG=%s\nCLUSTRIX_CONFIG=%s\nFAKE_SMI_MODE=%s\npwd=%s\n' \
       "${CLUSTRIX_LOG-unset}" "${CLUSTRIX_CONFIG-unset}" "${FAKE_SMI_MODE-unset}" "$(pwd)" ;;
exit) echo "to stdout"; echo "to stderr" >&2; exit "$1" ;;
signal) kill -s "$1" $$ ;;
stream) echo first; sleep 2; echo second ;;
wait) echo $$ > "$1"; sleep 60 & echo $! > "$2"; echo ready; wait ;;
drop) echo before; sleep 0.2; kill -9 $PPID; sleep 5; echo after ;;
hang) sleep 60 ;;
catch) trap 'echo caught; exit 7' INT; echo ready; sleep 60 & wait ;;
secret) printf '%s %s\n' "${SECRET_ENV-unset}" "${CLUSTRIX_SECRET-unset}" > "$1"; echo ready; sleep 60 ;;
*) echo "remote_app.sh: unknown mode '$mode'" >&2; exit 64 ;;
esac
