# devicescope estimate (issue 25, tests/estimate): the estimate of a small training script equals its real run's
# peak to the byte, its module x category rows add up, out of memory is shown with PyTorch's message, bad scripts
# and flags give clear errors; DDP's bucket assignment equals real torch 1.13's.
# Included from tests/CMakeLists.txt, so CMAKE_CURRENT_SOURCE_DIR is tests/.
if(TARGET ds_python)
  set(DS_ESTIMATE_PYTHON /usr/bin/python3)
  if(NOT EXISTS ${DS_ESTIMATE_PYTHON})
    set(DS_ESTIMATE_PYTHON ${Python_EXECUTABLE})
  endif()
  add_test(NAME estimate_cli
           COMMAND ${DS_ESTIMATE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/estimate/check_estimate.py $<TARGET_FILE:devicescope>)
  set_tests_properties(estimate_cli PROPERTIES TIMEOUT 600 LABELS "cli;python")
endif()
if(TARGET ds_python)
  # DDP's buckets (reducer.cpp compute_bucket_assignment_by_size, DistributedDataParallel's layout before and
  # after the rebuild) equal Debian's torch 1.13's for the same parameters; skipped (77) without it.
  add_test(NAME estimate_ddp_buckets
           COMMAND ${DS_ESTIMATE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/estimate/check_ddp_buckets.py $<TARGET_FILE:devicescope>)
  set_tests_properties(estimate_ddp_buckets PROPERTIES TIMEOUT 600 LABELS "conformance;python" SKIP_RETURN_CODE 77)
endif()
