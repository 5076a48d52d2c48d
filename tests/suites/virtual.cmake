# Virtual steps (issue 25): a training step on virtual tensors (devicescope.virtual_mode(): no bytes, no values)
# makes exactly the allocations of the same step on real tensors. Included from tests/CMakeLists.txt.

# Every golden program (tests/goldens/programs) and the Llama-shaped ones (tests/virtual/programs: AdamW
# foreach and for-loop, autocast bf16 / fp16, activation checkpointing) run real and virtual on a simulated
# sm_90 device: the allocator's event logs, the figures after every optimizer step and the final segments agree.
file(GLOB DS_VIRTUAL_PROGRAMS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/goldens/programs/[a-z]*.py
     ${CMAKE_CURRENT_SOURCE_DIR}/virtual/programs/*.py)
add_test(NAME virtual_step_agreement
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/virtual/compare_virtual.py $<TARGET_FILE:devicescope>
                 ${DS_VIRTUAL_PROGRAMS})
set_tests_properties(virtual_step_agreement PROPERTIES TIMEOUT 900 LABELS "virtual;python")

# The benchmark's Llama step (tests/bench/virtual_step.py) at a size whose real run is quick: real and virtual
# give the same peak, allocated and reserved after every backward and optimizer step.
add_test(NAME virtual_step_bench_agreement
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/bench/virtual_step_agreement.py $<TARGET_FILE:devicescope>
                 --model 1b --layers 1 --vocab 4096 --seq 64 --steps 2)
set_tests_properties(virtual_step_bench_agreement PROPERTIES TIMEOUT 900 LABELS "virtual;python")

# The 70B step runs virtually (the benchmark prints its figures; no time is asserted).
add_test(NAME virtual_step_70b
         COMMAND $<TARGET_FILE:devicescope> --backend sim --sim-devices 1 --sim-memory 4TiB --link pcie5-x16
                 run ${CMAKE_CURRENT_SOURCE_DIR}/bench/virtual_step.py -- --model 70b --checkpoint)
set_tests_properties(virtual_step_70b PROPERTIES TIMEOUT 600 LABELS "virtual;python;bench")

# The shape-only values' rules against numpy on real arrays (shapes and dtypes of every operation the ops use
# on a virtual tensor's values; value reads refused).
add_test(NAME virtual_shape_rules
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/virtual/check_shape_rules.py)
set_tests_properties(virtual_shape_rules PROPERTIES TIMEOUT 120 LABELS "virtual;python")
