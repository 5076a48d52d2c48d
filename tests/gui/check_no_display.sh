#!/bin/sh
# Without a display, `devicescope` says so in one line naming xvfb-run and --screenshot, and exits 1.
out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$1" 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 1 ] || { echo "FAIL: exit code $rc, expected 1"; exit 1; }
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || { echo "FAIL: expected exactly one line"; exit 1; }
case "$out" in *xvfb-run*--screenshot*) ;; *) echo "FAIL: the line must name xvfb-run and --screenshot"; exit 1 ;; esac
echo OK
