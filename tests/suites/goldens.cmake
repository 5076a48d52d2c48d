# Golden memory references (issue 21): what real PyTorch 2.x allocates on an sm_90 CUDA device for each program in
# tests/goldens/programs, derived from a real PyTorch's op trace plus the CUDA/2.x differences from PyTorch's source
# (tests/goldens/make_goldens.py; no GPU was available to capture them). Included from tests/CMakeLists.txt.

# The committed goldens are what the reference gives today (Debian's torch, tests/goldens/trace_real_ops.py).
add_test(NAME golden_references_current
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/goldens/make_goldens.py --check)
set_tests_properties(golden_references_current PROPERTIES TIMEOUT 600 LABELS "goldens;python")

# DeviceScope's own snapshot of each golden program on a simulated sm_90 device (--link pcie5-x16), held to the
# golden references: allocated and peak within 1%, reserved within 5%, allocation count within 5%, allocation
# sizes in order within an edit distance of 5% ("partial" goldens are printed, not held).
add_test(NAME golden_allocations
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/goldens/compare_goldens.py $<TARGET_FILE:devicescope>)
set_tests_properties(golden_allocations PROPERTIES TIMEOUT 900 LABELS "goldens;python")
