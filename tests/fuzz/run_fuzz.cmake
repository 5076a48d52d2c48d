# Runs one fuzz target briefly and deterministically (ctest): cmake -DBIN=... -DCORPUS=... -DWORK=... -DRUNS=N
# [-DMAX_LEN=N] -P run_fuzz.cmake. New inputs go to WORK/corpus (emptied first), never into the checked-in
# seed corpus; a crash leaves WORK/crash-<sha1>, which reproduces with `BIN WORK/crash-<sha1>`.
foreach(var BIN CORPUS WORK RUNS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_fuzz.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT DEFINED MAX_LEN)
  set(MAX_LEN 16384)
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus)
execute_process(
  COMMAND ${BIN} -runs=${RUNS} -seed=1 -max_len=${MAX_LEN} -timeout=30 -print_final_stats=1
          -artifact_prefix=${WORK}/ ${WORK}/corpus ${CORPUS}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB found ${WORK}/crash-* ${WORK}/timeout-* ${WORK}/oom-* ${WORK}/leak-*)
  message(FATAL_ERROR "${BIN} failed (exit ${rc}); reproduce with: ${BIN} ${found}")
endif()
