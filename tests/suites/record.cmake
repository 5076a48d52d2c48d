# `devicescope record` over Debian's real CPU-only PyTorch 1.13 (tests/record/check_record.py): a small training
# loop's owners, roles, byte totals and copies through `inspect --json` and the file; a script that raises; an
# interpreter without torch; a torchrun rank; SIGINT passed on. Then the app opens the recording (screenshot).
# Included from tests/CMakeLists.txt, so CMAKE_CURRENT_SOURCE_DIR is tests/.
if(TARGET devicescope)
  set(DS_RECORD_PYTHON /usr/bin/python3)
  if(NOT EXISTS ${DS_RECORD_PYTHON})
    set(DS_RECORD_PYTHON ${Python_EXECUTABLE})
  endif()
  set(DS_RECORD_WORK ${CMAKE_CURRENT_BINARY_DIR}/record)
  foreach(case train raises no_torch rank sigint argv)
    add_test(NAME record_${case}
             COMMAND ${DS_RECORD_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/record/check_record.py
                     --devicescope $<TARGET_FILE:devicescope> --python ${DS_RECORD_PYTHON} --work ${DS_RECORD_WORK} ${case})
    set_tests_properties(record_${case} PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 LABELS "record;python")
  endforeach()
  set_tests_properties(record_train PROPERTIES FIXTURES_SETUP record_train_file)

  find_program(DS_RECORD_XVFB_RUN xvfb-run)
  if(DEVICESCOPE_GUI AND DS_RECORD_XVFB_RUN)
    add_test(NAME record_opens_in_app
             COMMAND ${Python_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gui/check_screenshot.py
                     --devicescope $<TARGET_FILE:devicescope> --out ${DS_RECORD_WORK}/train.png
                     --expect ${CMAKE_CURRENT_SOURCE_DIR}/record/expect_screenshot.json
                     --extra=--open-trace=${DS_RECORD_WORK}/train.json)
    set_tests_properties(record_opens_in_app PROPERTIES TIMEOUT 300 FIXTURES_REQUIRED record_train_file
                         LABELS "record;gui")
  endif()
endif()
