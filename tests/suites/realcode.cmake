# Real code: scripts adapted from PyTorch's tutorials, recipes and examples (tests/realcode/*.py, synthetic data,
# fewer epochs; each header says where from and what changed). Each runs under `devicescope run` and checks
# its own results; the CPU-only ones (header `# reference: real`) also run under Debian's real PyTorch and
# must pass there too. Slowdown against real PyTorch: tests/tools/run_realcode.py --times BIN tests/realcode
# Included from tests/CMakeLists.txt, so CMAKE_CURRENT_SOURCE_DIR is tests/.
if(TARGET devicescope)
  set(DS_REALCODE_PYTHON /usr/bin/python3)
  if(NOT EXISTS ${DS_REALCODE_PYTHON})
    set(DS_REALCODE_PYTHON ${Python_EXECUTABLE})
  endif()
  file(GLOB DS_REALCODE_SCRIPTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/realcode/*.py)
  foreach(script ${DS_REALCODE_SCRIPTS})
    get_filename_component(name ${script} NAME_WE)
    add_test(NAME realcode_${name}
             COMMAND ${DS_REALCODE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tools/run_realcode.py
                     $<TARGET_FILE:devicescope> ${script})
    set_tests_properties(realcode_${name} PROPERTIES TIMEOUT 600 LABELS "realcode;python")
  endforeach()
endif()

# Checkpoints written by DeviceScope load in real PyTorch and the other way round (PyTorch's zip format).
if(TARGET devicescope)
  add_test(NAME realcode_checkpoint_interop
           COMMAND ${DS_REALCODE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_checkpoint_interop.py
                   $<TARGET_FILE:devicescope>)
  set_tests_properties(realcode_checkpoint_interop PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77 LABELS "realcode;python")
endif()

# The corpus's speed against real PyTorch, net of start-up (README, Performance): tests/bench/realcode_speed.py
# run on two scripts, twice each (--repeat: the sides alternate), so the README's command is exercised (cuda_semantics is not `# reference: real`, so it is
# left out: the filter is exercised too); it prints figures and asserts no time.
if(TARGET devicescope)
  add_test(NAME realcode_speed_runs
           COMMAND ${DS_REALCODE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/bench/realcode_speed.py --min-work 0.2 --repeat 2
                   $<TARGET_FILE:devicescope> ${CMAKE_CURRENT_SOURCE_DIR}/realcode/quickstart.py
                   ${CMAKE_CURRENT_SOURCE_DIR}/realcode/mnist_cnn.py
                   ${CMAKE_CURRENT_SOURCE_DIR}/realcode/cuda_semantics.py)
  set_tests_properties(realcode_speed_runs PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 LABELS "realcode;python;bench")
endif()
