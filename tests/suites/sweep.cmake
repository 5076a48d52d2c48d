# Random conformance sweeps (tests/sweep): generated PyTorch programs with a fixed seed, run under real
# PyTorch 1.13 and under `devicescope run`, compared per program. Any number by hand:
#   /usr/bin/python3 tests/sweep/run_sweep.py build/app/devicescope --count 5000 --seed 7
# Included from tests/CMakeLists.txt, so CMAKE_CURRENT_SOURCE_DIR is tests/.
if(TARGET ds_python)
  set(DS_SWEEP_PYTHON /usr/bin/python3)
  if(NOT EXISTS ${DS_SWEEP_PYTHON})
    set(DS_SWEEP_PYTHON ${Python_EXECUTABLE})
  endif()
  add_test(NAME sweep_1000
           COMMAND ${DS_SWEEP_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/sweep/run_sweep.py $<TARGET_FILE:devicescope>
                   --count 1000 --seed 1 --batch 50 --jobs 2)
  # 77: real PyTorch missing outside CI (skipped); with CI set the runner fails instead.
  set_tests_properties(sweep_1000 PROPERTIES TIMEOUT 1200 SKIP_RETURN_CODE 77 LABELS "sweep;python")
  # Op programs (tests/sweep/gen_ops.py): random calls over the op registry (engine/python/torch/_ops/op_table.py)
  # in every form (torch.NAME, methods, NAME_, out=), views and strides, promotion, broadcasting and errors.
  # Any number by hand: run_sweep.py build/app/devicescope --kind ops --count 20000 --seed 7
  add_test(NAME sweep_ops_2000
           COMMAND ${DS_SWEEP_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/sweep/run_sweep.py $<TARGET_FILE:devicescope>
                   --kind ops --count 2000 --seed 1 --batch 250 --jobs 2)
  set_tests_properties(sweep_ops_2000 PROPERTIES TIMEOUT 1200 SKIP_RETURN_CODE 77 LABELS "sweep;python")
  # Mixed programs (tests/sweep/gen_indexing.py): the op statements plus indexing and index assignment (int,
  # slice, None, Ellipsis, bool, tensor and list indices), expand/broadcast_to, views of 0-dim tensors,
  # out= views that must grow their storage, module dtype moves. Any number by hand:
  #   run_sweep.py build/app/devicescope --kind mixed --count 5000 --seed 7
  add_test(NAME sweep_mixed_400
           COMMAND ${DS_SWEEP_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/sweep/run_sweep.py $<TARGET_FILE:devicescope>
                   --kind mixed --count 400 --seed 1 --batch 100 --jobs 2)
  set_tests_properties(sweep_mixed_400 PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 LABELS "sweep;python")
  # Seeded random numbers (tests/sweep/gen_random.py): every CPU sampler, generators, strided fills, state
  # replay, initialisers, dropout, DataLoader shuffles; values printed exactly. Any number by hand:
  #   run_sweep.py build/app/devicescope --kind random --count 5000 --seed 7
  add_test(NAME sweep_random_300
           COMMAND ${DS_SWEEP_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/sweep/run_sweep.py $<TARGET_FILE:devicescope>
                   --kind random --count 300 --seed 1 --batch 100 --jobs 2)
  set_tests_properties(sweep_random_300 PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 LABELS "sweep;python")
endif()
