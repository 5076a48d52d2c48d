# Golden memory references (issue 21): what real PyTorch 2.x allocates on an sm_90 CUDA device for each program in
# tests/goldens/programs, derived from a real PyTorch's op trace plus the CUDA/2.x differences from PyTorch's source
# (tests/goldens/make_goldens.py; no GPU was available to capture them). Included from tests/CMakeLists.txt.

# The committed goldens are what the reference gives today (Debian's torch, tests/goldens/trace_real_ops.py).
add_test(NAME golden_references_current
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/goldens/make_goldens.py --check)
set_tests_properties(golden_references_current PROPERTIES TIMEOUT 600 LABELS "goldens;python")
