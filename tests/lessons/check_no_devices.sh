#!/bin/sh
# `devicescope --sim-devices 0 lessons --check`: with no device at all, a lesson whose `# requires:` (a GPU) is
# unmet says so and is checked on simulated devices instead; none fails for want of CUDA and the run passes.
# Usage: check_no_devices.sh DEVICESCOPE_BINARY
out=$("$1" --sim-devices 0 lessons --check 2>&1)
code=$?
echo "$out"
[ "$code" -eq 0 ] || { echo "FAIL: exit $code"; exit 1; }
echo "$out" | grep -q '^note: UNMET 000_model_to_vs_reassign: torch.cuda.is_available() - checking it on simulated devices instead$' ||
  { echo "FAIL: lesson 000 does not say its requirement is unmet"; exit 1; }
echo "$out" | grep -q '^PASS 000_model_to_vs_reassign' || { echo "FAIL: lesson 000 did not pass on simulated devices"; exit 1; }
if echo "$out" | grep -q '^FAIL'; then echo "FAIL: a lesson failed"; exit 1; fi
echo "ok"
