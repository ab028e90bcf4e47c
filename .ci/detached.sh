# Shared by the server set-up scripts (source it after setting LOG): run commands as root and
# detached from the caller's descriptors. A daemon that holds the caller's pipe open would keep
# `$(...)` or a CI log reader waiting for ever, so what these start gets no inherited
# descriptors but /dev/null and the log file.
# shellcheck shell=bash

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi; }
close_inherited_descriptors() {
    local fd
    for fd in $(ls /proc/$BASHPID/fd); do
        case $fd in 0 | 1 | 2) ;; *) eval "exec $fd>&-" 2>/dev/null || true ;; esac
    done
}
# Run "$@" detached from our descriptors; print its log if it fails.
detached() {
    if ! (close_inherited_descriptors; "$@") </dev/null >>"$LOG" 2>&1; then
        echo "failed: $*" >&2
        tail -n 40 "$LOG" >&2
        return 1
    fi
}
