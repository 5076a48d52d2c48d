# The command line's conventions end to end (tests/cli): global options anywhere, options refused where they
# cannot apply, usage errors exit 2 with a `devicescope:` line, `run SCRIPT [ARGS...]` as python3 passes
# them, `--lesson` numbers; the names in run --trace/--csv exports.
# Included from tests/CMakeLists.txt, so CMAKE_CURRENT_SOURCE_DIR is tests/.
if(TARGET ds_python)
  set(DS_CLI_PYTHON /usr/bin/python3)
  if(NOT EXISTS ${DS_CLI_PYTHON})
    set(DS_CLI_PYTHON ${Python_EXECUTABLE})
  endif()
  add_test(NAME cli_command_line
           COMMAND ${DS_CLI_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_command_line.py $<TARGET_FILE:devicescope>)
  set_tests_properties(cli_command_line PROPERTIES TIMEOUT 600 LABELS "cli;python")
  # run --trace/--csv name storages and copies as the window and _dump_snapshot do (Note [Names in exports]).
  add_test(NAME cli_trace_names
           COMMAND ${DS_CLI_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_trace_names.py $<TARGET_FILE:devicescope>)
  set_tests_properties(cli_trace_names PROPERTIES TIMEOUT 600 LABELS "cli;python")
  # run --trace writes storage_roles as record does, and the app colours the opened file by them.
  add_test(NAME cli_run_trace_roles
           COMMAND ${DS_CLI_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_run_trace_roles.py $<TARGET_FILE:devicescope>)
  set_tests_properties(cli_run_trace_roles PROPERTIES TIMEOUT 600 LABELS "cli;python")
endif()
