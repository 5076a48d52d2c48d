# Hostile scripts (tests/hostile/*.py): endless loops, deep recursion, huge allocations, exceptions in
# forward / __del__ / DataLoader workers, syntax errors, non-UTF-8 files, sys.exit, os._exit, ... Each runs
# through `devicescope run --csv --trace` and must end with its stated exit code and message, never crash,
# and leave complete exports. One ctest test per script; 77 = needs `run --timeout`, which this build lacks.
# Included from tests/CMakeLists.txt, so CMAKE_CURRENT_SOURCE_DIR is tests/.
if(TARGET ds_python)
  set(DS_HOSTILE_PYTHON /usr/bin/python3)
  if(NOT EXISTS ${DS_HOSTILE_PYTHON})
    set(DS_HOSTILE_PYTHON ${Python_EXECUTABLE})
  endif()
  file(GLOB DS_HOSTILE_SCRIPTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/hostile/*.py)
  list(FILTER DS_HOSTILE_SCRIPTS EXCLUDE REGEX "/run_hostile\\.py$")
  foreach(script ${DS_HOSTILE_SCRIPTS})
    get_filename_component(name ${script} NAME_WE)
    add_test(NAME hostile_${name}
             COMMAND ${DS_HOSTILE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/hostile/run_hostile.py
                     $<TARGET_FILE:devicescope> ${script})
    set_tests_properties(hostile_${name} PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 LABELS "hostile;python")
  endforeach()
  # End to end through the process boundary: SIGINT (even inherited as ignored) and SIGTERM stop a run with
  # its exports written; a virtualenv's python3 first on PATH does not become the embedded interpreter;
  # exports land where the command was started, through symlinks and FIFOs, with no stale temporaries.
  foreach(cli_test stop_signals python_on_path export_paths)
    add_test(NAME hostile_${cli_test}
             COMMAND ${DS_HOSTILE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/hostile/cli/${cli_test}.py
                     $<TARGET_FILE:devicescope>)
    set_tests_properties(hostile_${cli_test} PROPERTIES TIMEOUT 600 LABELS "hostile;python")
  endforeach()
endif()

# End to end: the app refuses a cut, empty or foreign recording with a clear message (exit 2), and opens the
# complete ones (`devicescope --open-trace FILE --screenshot OUT`, under Xvfb).
find_program(DS_XVFB_RUN xvfb-run)
if(TARGET ds_python AND DEVICESCOPE_GUI AND DS_XVFB_RUN)
  add_test(NAME hostile_open_trace_refused
           COMMAND ${DS_HOSTILE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/hostile/cli/open_trace_refused.py
                   $<TARGET_FILE:devicescope>)
  set_tests_properties(hostile_open_trace_refused PROPERTIES TIMEOUT 600 LABELS "hostile;gui")
  # A headless screenshot of an endless script ends at --timeout (exit 124, the state reached drawn).
  add_test(NAME hostile_gui_script_timeout
           COMMAND ${DS_HOSTILE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/hostile/cli/gui_script_timeout.py
                   $<TARGET_FILE:devicescope>)
  set_tests_properties(hostile_gui_script_timeout PROPERTIES TIMEOUT 600 LABELS "hostile;gui")
  # Ctrl+C to the window quits it cleanly at any moment, also when SIGINT was inherited as ignored.
  add_test(NAME hostile_gui_sigint
           COMMAND ${DS_HOSTILE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/hostile/cli/gui_sigint.py $<TARGET_FILE:devicescope>)
  set_tests_properties(hostile_gui_sigint PROPERTIES TIMEOUT 900 LABELS "hostile;gui")
endif()
