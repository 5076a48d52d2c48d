# Script suites: one ctest test per scenario (tests/scenarios/*.py, run through `devicescope run` and compared
# with its .expected file) and per conformance script (tests/conformance/*.py, compared with real PyTorch).
# Included from tests/CMakeLists.txt, so CMAKE_CURRENT_SOURCE_DIR is tests/.
set(DS_SCRIPT_PYTHON /usr/bin/python3)
if(NOT EXISTS ${DS_SCRIPT_PYTHON})
  set(DS_SCRIPT_PYTHON ${Python_EXECUTABLE})
endif()

file(GLOB DS_SCENARIO_SCRIPTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/*.py)
foreach(script ${DS_SCENARIO_SCRIPTS})
  get_filename_component(name ${script} NAME_WE)
  add_test(NAME scenario_${name}
           COMMAND ${DS_SCRIPT_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tools/run_scenarios.py
                   $<TARGET_FILE:devicescope> ${script})
  set_tests_properties(scenario_${name} PROPERTIES TIMEOUT 300 LABELS "scenario;python")
endforeach()

# Exit code 77 = real PyTorch missing outside CI: shown as skipped. With CI set the runner fails instead.
file(GLOB DS_CONFORMANCE_SCRIPTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/conformance/*.py)
foreach(script ${DS_CONFORMANCE_SCRIPTS})
  get_filename_component(name ${script} NAME_WE)
  add_test(NAME conformance_${name}
           COMMAND ${DS_SCRIPT_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tools/run_conformance.py
                   $<TARGET_FILE:devicescope> ${script})
  set_tests_properties(conformance_${name} PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77 LABELS "conformance;python")
endforeach()

# Import cycles inside the torch package (module-level and function-level imports, read with ast).
add_test(NAME python_import_cycles
         COMMAND ${DS_SCRIPT_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_import_cycles.py
                 ${CMAKE_CURRENT_SOURCE_DIR}/../engine/python/torch)
set_tests_properties(python_import_cycles PROPERTIES TIMEOUT 120 LABELS "python")

# The C++ fast path of the ops against the Python path it stands in front of (DEVICESCOPE_NO_FAST_OPS=1): the
# same values, grad_fn classes, saved tensors, next_functions and allocator trace (tests/fastpath/*.py).
file(GLOB DS_FAST_PATH_SCRIPTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fastpath/*.py)
add_test(NAME fast_path_agreement
         COMMAND ${DS_SCRIPT_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tools/run_fast_path_agreement.py
                 $<TARGET_FILE:devicescope> ${DS_FAST_PATH_SCRIPTS})
set_tests_properties(fast_path_agreement PROPERTIES TIMEOUT 300 LABELS "python")

# The backward engine's C++ loop against the Python engine it follows (DEVICESCOPE_PY_AUTOGRAD=1): the same
# gradients, hook calls, errors and allocator trace (tests/autograd_engine/*.py).
file(GLOB DS_AUTOGRAD_ENGINE_SCRIPTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/autograd_engine/*.py)
add_test(NAME autograd_engine_agreement
         COMMAND ${DS_SCRIPT_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tools/run_autograd_engine_agreement.py
                 $<TARGET_FILE:devicescope> ${DS_AUTOGRAD_ENGINE_SCRIPTS})
set_tests_properties(autograd_engine_agreement PROPERTIES TIMEOUT 300 LABELS "python")

# The composite ops' direct backward nodes (F.embedding's EmbeddingBackward0, ...) against the recomputing
# composite they replaced (DEVICESCOPE_PY_COMPOSITE=1): the same values, nodes, saved values and allocator trace
# (tests/composite_backward/*.py).
file(GLOB DS_COMPOSITE_BACKWARD_SCRIPTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/composite_backward/*.py)
add_test(NAME composite_backward_agreement
         COMMAND ${DS_SCRIPT_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tools/run_composite_backward_agreement.py
                 $<TARGET_FILE:devicescope> ${DS_COMPOSITE_BACKWARD_SCRIPTS})
set_tests_properties(composite_backward_agreement PROPERTIES TIMEOUT 300 LABELS "python")

# The recurrent cells' C++ steps (bindings_rnn.cpp's kernels, bindings_rnn_graph.cpp's nodes, bindings_rnn_backward.cpp's
# backward functions) against the Python / numpy path they stand in front of (DEVICESCOPE_PY_RNN=1): the same values to
# the last bit, nodes, saved tensors and allocator trace (tests/rnn_kernels).
file(GLOB DS_RNN_KERNEL_SCRIPTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/rnn_kernels/*.py)
add_test(NAME rnn_kernel_agreement
         COMMAND ${DS_SCRIPT_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tools/run_rnn_kernel_agreement.py
                 $<TARGET_FILE:devicescope> ${DS_RNN_KERNEL_SCRIPTS})
set_tests_properties(rnn_kernel_agreement PROPERTIES TIMEOUT 300 LABELS "python")

# torch.addmm's C++ entry (bindings_linalg_fast.cpp: the kernel, the cuBLAS/cuBLASLt workspaces, AddmmBackward0)
# against the Python path (DEVICESCOPE_PY_LINALG=1): values, nodes, saved tensors, workspaces and allocator trace.
file(GLOB DS_LINALG_FAST_SCRIPTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/linalg_fast/*.py)
add_test(NAME linalg_fast_agreement
         COMMAND ${DS_SCRIPT_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tools/run_linalg_agreement.py
                 $<TARGET_FILE:devicescope> ${DS_LINALG_FAST_SCRIPTS})
set_tests_properties(linalg_fast_agreement PROPERTIES TIMEOUT 300 LABELS "python")

# The optimizers' foreach ops in C++ (bindings_foreach.cpp) against the per-tensor Python loops they stand in front
# of (DEVICESCOPE_PY_FOREACH=1): the same parameters, state, versions and allocator trace (tests/foreach_kernels).
file(GLOB DS_FOREACH_KERNEL_SCRIPTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/foreach_kernels/*.py)
add_test(NAME foreach_kernel_agreement
         COMMAND ${DS_SCRIPT_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tools/run_foreach_agreement.py
                 $<TARGET_FILE:devicescope> ${DS_FOREACH_KERNEL_SCRIPTS})
set_tests_properties(foreach_kernel_agreement PROPERTIES TIMEOUT 300 LABELS "python")

# A build's runs start from the bytecode the build compiled (cmake/compile_bytecode.py): even with
# PYTHONDONTWRITEBYTECODE=1 no module of the torch package, numpy or the standard library compiles from source.
add_test(NAME python_bytecode_cache
         COMMAND ${DS_SCRIPT_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_bytecode_cache.py
                 $<TARGET_FILE:devicescope> ${CMAKE_CURRENT_SOURCE_DIR}/../engine/python)
set_tests_properties(python_bytecode_cache PROPERTIES TIMEOUT 180 LABELS "python")
